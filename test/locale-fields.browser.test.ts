import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TEXTS } from '../src/features/locales/builtin-texts.js';
import { type BrowserApp, hostingCall, serveSite, type Site, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * The four locale fields the widget did not show before (issue #19 point 7), where the reference model's groups
 * put them (docs/widget.md, "Languages"): the storage period in the details layer; provider details, "more
 * information" and "always show external content" in the iframe blocker.
 */
const KEY = 'locale-fields-browser-hosting-key-01';
const en = BUILTIN_TEXTS.en;

let env: BrowserApp;
let other: Site;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  other = await serveSite('localhost');
  other.setPage('/video.html', '<!doctype html><p>video</p>');
  other.setPage('/map.html', '<!doctype html><p>map</p>');
});

afterAll(async () => {
  await env?.close();
  await other?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

async function open(): Promise<Page> {
  const client = await hosting('POST', '/client', { username: unique('lf'), password: 'long enough pw', emailAddress: 'lf@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${env.site.port}` });
  await hosting('POST', `/client/${client.id}/domain/${domain.id}/embedding`, {
    name: 'Video',
    vendor: 'Video Corp, Example Street 1',
    purpose: '6cd2721',
    iframeMarkers: [`localhost:${other.port}/video`],
    assets: [{ name: 'vid', storageType: 'cookie', lifetime: '6 months' }],
  });
  const snippet = `<script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
  const path = `/f${++pageNo}`;
  env.site.setPage(path, `<!doctype html><html><head>${snippet}</head><body>
<iframe id="v" src="http://localhost:${other.port}/video.html"></iframe>
<iframe id="m" src="http://localhost:${other.port}/map.html"></iframe></body></html>`);
  const page = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
  await page.goto(`${env.site.url}${path}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  return page;
}

/** The overlays of the blocked frames, in page order. */
const overlays = (page: Page) => page.locator('.ccm-blocked .f');

describe('locale fields in Chromium', () => {
  it('an embedding\'s overlay has its provider details and "more information", which opens the details with the storage period', async () => {
    const page = await open();
    await expect.poll(() => overlays(page).count()).toBe(2);
    const video = overlays(page).nth(0);
    await video.locator('summary', { hasText: en.blockedContentConsentSwitchProviderDetails }).click();
    expect(await video.locator('details p').textContent()).toBe('Video Corp, Example Street 1');
    await video.locator('button', { hasText: en.moreInformationLabel }).click();
    const dialog = page.locator('#ccm-widget [role="dialog"]');
    await expect.poll(() => dialog.locator('h2').textContent()).toBe(en.detailsTitle);
    const row = dialog.locator('dl div', { hasText: en.embeddingLifetimeLabel });
    expect(await row.locator('dd').textContent()).toBe('6 months');
    await page.context().close();
  });

  it('a frame of no embedding offers "always show external content", which remembers its host', async () => {
    const page = await open();
    await expect.poll(() => overlays(page).count()).toBe(2);
    const map = overlays(page).nth(1);
    const always = map.locator('label', { hasText: en.blockedContentConsentSwitchShowExternalContent }).locator('input');
    expect(await always.isChecked()).toBe(false);
    await always.check();
    await map.locator('button', { hasText: en.blockedContentConsentButtonText }).click();
    await expect.poll(() => page.locator('#m').getAttribute('src')).toBe(`http://localhost:${other.port}/map.html`);
    await page.reload();
    await page.waitForFunction(() => document.readyState === 'complete');
    // The map's host is remembered; the video stays blocked until its embedding is accepted.
    expect(await page.locator('#m').getAttribute('src')).toBe(`http://localhost:${other.port}/map.html`);
    await expect.poll(() => overlays(page).count()).toBe(1);
    await page.context().close();
  });
});
