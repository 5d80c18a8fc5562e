import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, hostingCall, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/** Consent statistics as a real visit makes them (docs/statistics.md): calls, the banner's display beacon, the decision. */
const KEY = 'statistics-browser-hosting-key-012345';
let env: BrowserApp;

beforeAll(async () => {
  env = await startBrowserApp(KEY, { counterFlushIntervalMs: 50 });
});
afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

describe('statistics from a visit in Chromium', () => {
  it('counts a call and a display on the first view, a decision on the click, and no display once decided (beacon sent once)', async () => {
    const client = await hosting('POST', '/client', { username: unique('st'), password: 'long enough pw', emailAddress: 'st@example.com' });
    const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${env.site.port}` });
    const base = `/client/${client.id}/domain/${domain.id}`;
    await hosting('POST', `${base}/embedding`, { name: 'Analytics', purpose: 'a717ff5', scriptMarkers: ['tracker.js'] });
    env.site.setPage('/stats', `<!doctype html><html><head><script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script></head><body><h1>Shop</h1></body></html>`);
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const beacons: string[] = [];
    page.on('request', (r) => r.url().endsWith('/public/display') && beacons.push(r.postData() ?? ''));
    await page.goto(`${env.site.url}/stats`);
    await page.locator('#ccm-widget button.a').click();
    await page.waitForTimeout(300);
    await page.reload();
    await page.waitForTimeout(500);
    expect(beacons).toHaveLength(1);
    expect(JSON.parse(beacons[0]!)).toMatchObject({ domain: domain.id });
    const today = async () => (await hosting('GET', `${base}/statistics`)).totals as Record<string, unknown>;
    await expect.poll(async () => (await today()).decisions, { timeout: 5000 }).toBe(1);
    // The reload of the same page from the same address within WIDGET_COUNT_WINDOW_SECONDS is one call; headless
    // Chromium says "HeadlessChrome", which the family split files under "other".
    expect(await today()).toMatchObject({ calls: 1, displays: 1, decisions: 1, acceptAll: 1, consented: 1, bounces: 0, acceptanceRate: 1, browsers: { other: 1 }, os: { linux: 1 } });
    await context.close();
  }, 60_000);
});
