import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, hostingCall, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * The agency's footer line (WIDGET_FOOTER_TEXT / WIDGET_FOOTER_URL) and white label through licences
 * (reference model §6), as a visitor sees the banner in real Chromium.
 */
const KEY = 'footer-browser-hosting-key-0123456789';
let env: BrowserApp;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY, { widgetFooter: { text: 'Made by Example Agency', url: 'https://agency.example/' } });
});
afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

async function footerOf(domain: { id: string }, apiKey: string) {
  const path = `/f${++pageNo}`;
  env.site.setPage(path, `<!doctype html><html><head><script src="${env.appUrl}/public/app.js?apiKey=${apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script></head><body><h1>Shop</h1></body></html>`);
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.site.url}${path}`);
  await page.locator('#ccm-widget [role="dialog"]').first().waitFor({ timeout: 15_000 });
  const footer = page.locator('#ccm-widget .w');
  const result = (await footer.count()) === 0 ? null : { text: await footer.innerText(), href: await footer.locator('a').getAttribute('href') };
  await context.close();
  return result;
}

describe('the footer line in the banner', () => {
  it("shows the agency's linked name on a domain without a licence, even with a white-label theme; nothing on a licensed domain", async () => {
    const client = await hosting('POST', '/client', { username: unique('wl'), password: 'long enough pw', emailAddress: 'wl@example.com', whitelabelMaxCount: 1 });
    const name = `http://127.0.0.1:${env.site.port}`;
    const plain = await hosting('POST', `/client/${client.id}/domain`, { name });
    const [theme] = await hosting('GET', `/client/${client.id}/domain/${plain.id}/theme`);
    await hosting('PUT', `/client/${client.id}/domain/${plain.id}/theme/${theme.id}`, { whitelabel: true });
    expect(await footerOf(plain, client.apiKey)).toEqual({ text: 'Made by Example Agency', href: 'https://agency.example/' });

    const other = await hosting('POST', '/client', { username: unique('wl'), password: 'long enough pw', emailAddress: 'wl@example.com', whitelabelMaxCount: 1 });
    const licensed = await hosting('POST', `/client/${other.id}/domain`, { name, whitelabel: true });
    expect(await footerOf(licensed, other.apiKey)).toBeNull();
  }, 60_000);
});
