import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type BrowserApp, hostingCall, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * Found items from real visits (docs/found-items.md): the reporter chunk reports once per browser and day,
 * a domain without the settings loads none of it, and blockNewScripts lets only ignored scripts run.
 * Third-party hosts are `*.test` names that the browser maps to the local stand-in site.
 */
const KEY = 'found-browser-hosting-key-0123456789';
let env: BrowserApp;

beforeAll(async () => {
  env = await startBrowserApp(KEY, { foundReportDelayMs: 100 });
});
afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

interface Item { id: string; kind: string; key: string; firstUrl: string; count: number; state: string }

async function domainFor(host: string, settings: Record<string, unknown>) {
  const client = await hosting('POST', '/client', { username: unique('fd'), password: 'long enough pw', emailAddress: 'fd@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://${host}:${env.site.port}` });
  const base = `/client/${client.id}/domain/${domain.id}`;
  await hosting('PUT', base, settings);
  const snippet = `<script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
  const items = async () => ((await hosting('GET', `${base}/found`)) as { items: Item[] }).items;
  return { base, snippet, items, origin: `http://${host}:${env.site.port}` };
}

/** Requests to Placet's reporter chunk and report endpoint made by a page. */
function watch(page: Page) {
  const seen = { chunk: 0, reports: [] as string[] };
  page.on('request', (r) => {
    if (r.url().startsWith(`${env.appUrl}/public/found.js`)) seen.chunk++;
    if (r.url() === `${env.appUrl}/public/found`) seen.reports.push(r.postData() ?? '');
  });
  return seen;
}

describe('found items in Chromium', () => {
  it('reports an undeclared third-party script, iframe, cookie and storage key once; a second view within the day sends nothing', async () => {
    const port = env.site.port;
    const d = await domainFor('shop.test', { recordScriptsOnWebsite: true, permanentScanEnabled: true });
    await hosting('POST', `${d.base}/embedding`, { name: 'Declared', purpose: 'a717ff5', scriptMarkers: ['declared.test'], assets: [{ name: 'known_*', storageType: 'cookie' }] });
    env.site.setPage('/found-a', `<!doctype html><html><head>${d.snippet}
      <script src="http://tracker.test:${port}/t.js?uid=alice"></script>
      <script src="http://declared.test:${port}/d.js"></script>
      <script src="/own.js"></script>
      <script>document.cookie = 'shop_sid=secret-value; path=/'; document.cookie = 'known_1=x; path=/'; localStorage.setItem('cart', 'alice@example.com');</script>
      </head><body><iframe src="http://maps.test:${port}/embed?q=home"></iframe>
      <object data="http://video.test:${port}/embed/v1"></object></body></html>`);
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const seen = watch(page);
    await page.goto(`${d.origin}/found-a?session=alice#top`);
    await expect.poll(async () => (await d.items()).length, { timeout: 15_000 }).toBe(5);
    const items = await d.items();
    // An <object> with a web page is a frame to the widget, and reported as one (since 2026-11-29).
    expect(items.map((i) => `${i.kind}:${i.key}`).sort()).toEqual([
      'cookie:shop_sid', 'iframe:maps.test:' + port + '/embed', 'iframe:video.test:' + port + '/embed/v1', 'localStorage:cart', 'script:tracker.test:' + port + '/t.js',
    ]);
    expect(new Set(items.map((i) => i.firstUrl))).toEqual(new Set([`${d.origin}/found-a`]));
    // Playwright's request events arrive over CDP, possibly after the server has stored the report.
    await expect.poll(() => seen.reports.length, { timeout: 15_000 }).toBe(1);
    expect(seen.reports[0]).not.toContain('alice');
    expect(seen.chunk).toBe(1);

    // Within the sample window the prefix does not even fetch the chunk.
    await page.reload();
    await page.waitForTimeout(1500);
    expect(seen.chunk).toBe(1);
    expect(seen.reports).toHaveLength(1);
    expect((await d.items()).every((i) => i.count === 1)).toBe(true);
    await context.close();
  }, 60_000);

  it('loads no reporter code on a domain with both settings off', async () => {
    const d = await domainFor('plain.test', {});
    env.site.setPage('/found-b', `<!doctype html><html><head>${d.snippet}<script src="http://tracker.test:${env.site.port}/t.js"></script></head><body></body></html>`);
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const seen = watch(page);
    const scripts: string[] = [];
    page.on('response', async (r) => {
      if (r.url().startsWith(`${env.appUrl}/public/app.js`)) scripts.push(await r.text());
    });
    await page.goto(`${d.origin}/found-b`);
    await page.waitForTimeout(1500);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).not.toContain('placet.found');
    expect(seen.chunk).toBe(0);
    expect(seen.reports).toHaveLength(0);
    expect(await page.evaluate(() => Object.getOwnPropertySymbols(window).map(String))).not.toContain('Symbol(placet.found)');
    expect(await d.items()).toEqual([]);
    await context.close();
  }, 60_000);

  it('blockNewScripts: undeclared scripts are blocked and reported; one the agency ignores runs on the next view, the others stay blocked', async () => {
    const port = env.site.port;
    const d = await domainFor('blog.test', { recordScriptsOnWebsite: true, blockNewScripts: true });
    env.site.setPage('/found-c', `<!doctype html><html><head>${d.snippet}
      <script src="http://chat.test:${port}/chat.js?k=1"></script>
      <script src="http://ads.test:${port}/ads.js"></script></head><body></body></html>`);
    const ran = async (page: Page) => page.evaluate(() => (window as unknown as { ran?: string[] }).ran ?? []);
    let context = await env.browser.newContext();
    let page = await context.newPage();
    await page.goto(`${d.origin}/found-c`);
    await expect.poll(async () => (await d.items()).length, { timeout: 15_000 }).toBe(2);
    expect(await ran(page)).toEqual([]);
    await context.close();

    const chat = (await d.items()).find((i) => i.key === `chat.test:${port}/chat.js`)!;
    const res = await env.app.inject({
      method: 'PATCH', url: `/hosting/api${d.base}/found/${chat.id}`, headers: { authorization: `Bearer ${KEY}` }, payload: { state: 'ignored' },
    });
    expect(res.statusCode, res.body).toBe(200);

    context = await env.browser.newContext();
    page = await context.newPage();
    await page.goto(`${d.origin}/found-c`);
    await expect.poll(() => ran(page), { timeout: 15_000 }).toEqual(['/chat.js']);
    await page.waitForTimeout(500);
    expect(await ran(page)).toEqual(['/chat.js']);
    await context.close();
  }, 60_000);
});
