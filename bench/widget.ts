/**
 * `npm run bench:widget`: the widget's bytes (raw, gzip, brotli), time to banner, long tasks and
 * click-to-stored in headless Chromium at 1× and 4× CPU throttling, for a benchmark domain with four
 * embeddings and two locales. Prints a table; asserts nothing (budgets are enforced by the build and tests).
 */
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { WIDGET_BUDGET_BROTLI, buildWidget, sizes } from '../widget/build.js';
import { freePort, launchBrowser, serveSite } from '../test/browser.js';
import { benchmarkDomain } from './widget-domain.js';

const RUNS = 9;
const key = 'bench-hosting-key-0123456789abcdef';
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const site = await serveSite();
const database = connect({ kind: 'sqlite', file: ':memory:' });
const app = await buildApp({ config: testConfig({ hostingApiKey: key, publicUrl: appUrl }), database });
await app.listen({ port, host: '127.0.0.1' });
const { snippetSrc } = await benchmarkDomain(app, key, `127.0.0.1:${site.port}`, appUrl);

const code = sizes((await buildWidget()).replace('__PLACET_CFG__', '{}'));
const served = Buffer.from(await (await fetch(snippetSrc, { headers: { referer: `${site.url}/` } })).arrayBuffer());
const total = sizes(served);

site.setPage('/', `<!doctype html><html><head><script src="${snippetSrc}" referrerpolicy="origin"></script></head><body><h1>Bench</h1></body></html>`);
const browser = await launchBrowser();

interface Sample { banner: number; longTasks: number; maxTask: number; click: number }
async function sample(rate: number): Promise<Sample> {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    w.__long = [] as number[];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => (w.__long as number[]).push(e.duration))).observe({ type: 'longtask', buffered: true });
    new MutationObserver((_r, obs) => {
      if (document.getElementById('ccm-widget')) {
        w.__bannerAt = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (k: string, v: string) {
      if (k === 'ccm_consent') w.__storedAt = performance.now();
      return set.call(this, k, v);
    };
    window.addEventListener('click', () => (w.__clickAt = performance.now()), true);
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.goto(`${site.url}/`);
  await page.waitForFunction(() => (window as unknown as Record<string, unknown>).__bannerAt !== undefined);
  const banner = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/public/app.js')) as PerformanceResourceTiming;
    return ((window as unknown as Record<string, number>).__bannerAt ?? 0) - entry.responseEnd;
  });
  await page.locator('#ccm-widget button.a').click();
  await page.waitForFunction(() => (window as unknown as Record<string, unknown>).__storedAt !== undefined);
  const result = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    const long = w.__long as number[];
    return { click: (w.__storedAt as number) - (w.__clickAt as number), longTasks: long.length, maxTask: Math.max(0, ...long) };
  });
  await context.close();
  return { banner, ...result };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[][] = [];
for (const rate of [1, 4]) {
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await sample(rate));
  rows.push([
    `${rate}×`,
    `${median(samples.map((s) => s.banner)).toFixed(1)} ms`,
    `${samples.filter((s) => s.longTasks > 0).length}/${RUNS}`,
    `${Math.max(...samples.map((s) => s.maxTask)).toFixed(0)} ms`,
    `${median(samples.map((s) => s.click)).toFixed(2)} ms`,
  ]);
}

const table = (head: string[], body: string[][]) =>
  [head, ...body].map((r) => r.map((c, i) => c.padEnd(Math.max(...[head, ...body].map((x) => x[i]!.length)))).join('  ')).join('\n');
console.log('\nWidget size (bytes)');
console.log(
  table(
    ['artifact', 'raw', 'gzip', 'brotli', 'budget (brotli)'],
    [
      ['widget code (JS+CSS)', `${code.raw}`, `${code.gzip}`, `${code.brotli}`, `${WIDGET_BUDGET_BROTLI}`],
      ['served: 4 embeddings, 2 locales', `${total.raw}`, `${total.gzip}`, `${total.brotli}`, `${12 * 1024}`],
    ],
  ),
);
console.log(`\nWidget timing in headless Chromium (median of ${RUNS} page loads; runs with a long task > 50 ms; longest task of all runs)`);
console.log(table(['CPU', 'script → banner', 'runs with long task', 'longest task', 'click → stored'], rows));

await browser.close();
await app.close();
await database.close();
await site.close();
