/**
 * `npx tsx bench/tcf.ts`: what IAB TCF costs a page (issue #18): the bytes of app.js with and without TCF (the
 * TCF chunk is inlined in app.js of tcfEnabled domains), of the chunk alone and of the domain's GVL, and script →
 * banner at 1× for the benchmark domain with and without TCF, loads interleaved (plain, TCF, plain, …) so both
 * see the same machine load. BENCH_RUNS (default 21) loads of each after one warm-up of each.
 * Uses the GVL fixture (test/fixtures/tcf, 4 vendors) served locally; the real GVL is far larger (docs/tcf.md).
 */
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { sizes } from '../widget/build.js';
import { freePort, launchBrowser, serveSite } from '../test/browser.js';
import { startGvlServer, tcfTestConfig } from '../test/tcf-gvl.js';
import { benchmarkDomain } from './widget-domain.js';

const RUNS = Number(process.env.BENCH_RUNS || 21);
const key = 'bench-hosting-key-0123456789abcdef';
const gvl = await startGvlServer();
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const site = await serveSite();
const database = connect({ kind: 'sqlite', file: ':memory:' });
const app = await buildApp({ config: testConfig({ hostingApiKey: key, publicUrl: appUrl, tcf: tcfTestConfig(gvl.url) }), database });
await app.listen({ port, host: '127.0.0.1' });
await app.inject({ method: 'POST', url: '/hosting/api/tcf/gvl/refresh', headers: { authorization: `Bearer ${key}` } });
const host = `127.0.0.1:${site.port}`;
const plain = await benchmarkDomain(app, key, host, appUrl);
const tcf = await benchmarkDomain(app, key, host, appUrl);
await app.inject({
  method: 'PUT', url: `/hosting/api/client/${tcf.clientId}/domain/${tcf.domainId}`,
  headers: { authorization: `Bearer ${key}` }, payload: { tcfEnabled: true, tcfSpecialFeatures: [1] },
});
const get = async (url: string) => Buffer.from(await (await fetch(url, { headers: { referer: `${site.url}/` } })).arrayBuffer());
const rows: [string, ReturnType<typeof sizes>][] = [
  ['app.js, benchmark domain', sizes(await get(plain.snippetSrc))],
  ['app.js, benchmark domain with TCF (stub, prefix, chunk inside)', sizes(await get(tcf.snippetSrc))],
  ['tcf.js (the TCF chunk alone, as inlined)', sizes(await get(`${appUrl}/public/tcf.js`))],
  ['vendor-list.json of the domain (fixture: 4 vendors)', sizes(await get(`${appUrl}/public/tcf/${tcf.domainId}/vendor-list.json?lang=de_DE`))],
];
for (const [name, s] of rows) console.log(`${name.padEnd(60)} ${String(s.raw).padStart(7)} B raw ${String(s.gzip).padStart(6)} B gzip ${String(s.brotli).padStart(6)} B brotli`);

const body = '<h1>Bench</h1><p>Welcome to our shop.</p>';
site.setPage('/plain', `<!doctype html><html><head><script src="${plain.snippetSrc}" referrerpolicy="origin"></script></head><body>${body}</body></html>`);
site.setPage('/tcf', `<!doctype html><html><head><script src="${tcf.snippetSrc}" referrerpolicy="origin"></script></head><body>${body}</body></html>`);
const browser = await launchBrowser();

/**
 * Script arrival (responseEnd of app.js) → first frame with the banner dialog in the widget's shadow root; and
 * script request (startTime) → banner, which also counts the larger app.js of a TCF domain on the wire (here on
 * loopback, so it shows the server's and the browser's cost of the bytes, not a network's).
 */
async function bannerMs(path: string): Promise<readonly [number, number]> {
  const context = await browser.newContext();
  // A string, not a function: tsx would wrap a local function in a helper the page does not have.
  await context.addInitScript({
    content: `(function tick() {
      var d = document.getElementById('ccm-widget');
      if (d && d.shadowRoot && d.shadowRoot.querySelector('[role="dialog"]')) window.__banner = performance.now();
      else requestAnimationFrame(tick);
    })();`,
  });
  const page = await context.newPage();
  if (process.env.BENCH_VERBOSE) page.on('console', (m) => console.log(`  ${path}: ${m.text()}`));
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(() => (window as unknown as { __banner?: number }).__banner !== undefined, undefined, { timeout: 15_000 });
  const ms = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/public/app.js')) as PerformanceResourceTiming;
    const ends = performance.getEntriesByType('resource').map((e) => [e.name, (e as PerformanceResourceTiming).responseEnd - entry.responseEnd] as const);
    if (ends.some(([n]) => n.includes('/tcf'))) console.log(`resources after app.js: ${ends.filter(([n]) => n.includes('/tcf')).map(([n, ms]) => `${n.replace(/^.*\/public\//, '')} +${ms.toFixed(0)} ms`).join(', ')}`);
    const banner = (window as unknown as { __banner: number }).__banner;
    return [banner - entry.responseEnd, banner - entry.startTime] as const;
  });
  await context.close();
  return ms;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const times: Record<string, number[][]> = { '/plain': [[], []], '/tcf': [[], []] };
await bannerMs('/plain'); // warm-up
await bannerMs('/tcf');
for (let i = 0; i < RUNS; i++) {
  for (const path of ['/plain', '/tcf']) {
    const [arrived, requested] = await bannerMs(path);
    times[path]![0]!.push(arrived);
    times[path]![1]!.push(requested);
  }
}
const line = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;
for (const [path, [arrived, requested]] of Object.entries(times)) {
  console.log(`${path.padEnd(6)} script → banner at 1×: ${line(arrived!)}; script request → banner: ${line(requested!)}; ${RUNS} runs`);
}
const ratio = (i: number) => (median(times['/tcf']![i]!) / median(times['/plain']![i]!)).toFixed(2);
console.log(`TCF / plain (medians): script → banner ${ratio(0)}×, script request → banner ${ratio(1)}×`);
await browser.close();
await app.close();
await site.close();
await gvl.close();
