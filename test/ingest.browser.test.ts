import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type BrowserApp, hostingCall, type Site, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * Fail closed in real headless Chromium (docs/widget.md, "Fail closed"): once the client's quota is used up,
 * the page's marked scripts still do not run. The service runs for real (SQLite); the site is a local stand-in.
 */
const KEY = 'ingest-browser-hosting-key-0123456789';

let browser: Browser;
let site: Site;
let app: App;
let env: BrowserApp;
let appUrl = '';
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY, { counterFlushIntervalMs: 200 });
  ({ site, app, appUrl, browser } = env);
});

afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);

const PAGE = (snippet: string) => `<!doctype html><html><head>${snippet}
<script src="/tracker.js"></script>
<script>var s = document.createElement('script'); s.src = '/dyn-tracker.js'; document.head.appendChild(s);</script>
<script src="/free.js"></script></head><body><h1>Shop</h1></body></html>`;

async function open(html: string): Promise<{ page: Page; logs: string[] }> {
  const path = `/q${++pageNo}`;
  site.setPage(path, html);
  const page = await (await browser.newContext()).newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  // The unmarked script runs either way: once it has, a marked one would have too.
  await page.waitForFunction(() => ((window as unknown as { ran?: string[] }).ran ?? []).includes('/free.js'));
  await page.waitForTimeout(200);
  return { page, logs };
}

const ran = (page: Page) => page.evaluate(() => ((window as unknown as { ran?: string[] }).ran ?? []).slice().sort());

describe('widget quota in Chromium', () => {
  it('keeps a marked tracker blocked after the quota is used up', { timeout: 60_000 }, async () => {
    const client = await hosting('POST', '/client', {
      username: unique('q'), password: 'long enough pw', emailAddress: 'q@example.com', widgetDisplayMaxCount: 1,
    });
    const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${site.port}` });
    await hosting('POST', `/client/${client.id}/domain/${domain.id}/embedding`, {
      name: 'Tracker', purpose: 'a717ff5', scriptMarkers: ['tracker.js'],
    });
    const snippet = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;

    // The one load the quota allows.
    const first = await open(PAGE(snippet));
    expect(await ran(first.page)).toEqual(['/free.js']);
    await first.page.context().close();

    // Over the quota: the widget is served in blocked mode; nothing marked runs, in the HTML or inserted later.
    const over = await open(PAGE(snippet));
    const served = await app.inject({
      method: 'GET',
      url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`,
      headers: { referer: `${site.url}/` },
    });
    expect(served.body).toContain('quota for this month is used up');
    // No banner asks, and the console says why.
    const dialogs = await over.page.evaluate(() => document.getElementById('ccm-widget')?.shadowRoot?.querySelectorAll('[role=dialog]').length ?? 0);
    expect(dialogs).toBe(0);
    expect(over.logs.some((l) => l.includes('quota for this month is used up'))).toBe(true);
    expect(await ran(over.page)).toEqual(['/free.js']);
    await over.page.waitForTimeout(300);
    expect(await ran(over.page)).toEqual(['/free.js']);
    await over.page.context().close();
  });
});
