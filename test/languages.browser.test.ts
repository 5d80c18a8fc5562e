import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TEXTS } from '../src/features/locales/builtin-texts.js';
import { type BrowserApp, domainRecords, hostingCall, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * Visitors' languages in real Chromium (README "Languages offered", docs/widget.md "Languages"): an English
 * browser on a German-only domain is asked in English, and the banner's language switcher, operated with the
 * keyboard, changes the texts and the language the decision records.
 */
const KEY = 'languages-browser-hosting-key-0123';

let env: BrowserApp;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
});

afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

async function setup() {
  const client = await hosting('POST', '/client', { username: unique('l'), password: 'long enough pw', emailAddress: 'l@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${env.site.port}` });
  const base = `/client/${client.id}/domain/${domain.id}`;
  await hosting('POST', `${base}/embedding`, { name: 'Stats', purpose: 'a717ff5' });
  await hosting('POST', `${base}/locale`, { name: 'de_DE', widgetTitle: 'Datenschutz bei Acme', privacyPolicyUrl: 'https://acme.example/datenschutz' });
  const { apiKey } = await hosting('POST', `/client/${client.id}/domain-api-key`);
  const snippet = `<script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
  return { domainId: domain.id as string, domainApiKey: apiKey as string, snippet };
}

async function open(snippet: string, locale: string): Promise<Page> {
  const path = `/l${++pageNo}`;
  env.site.setPage(path, `<!doctype html><html><head>${snippet}</head><body><p>page</p></body></html>`);
  const context = await env.browser.newContext({ locale });
  const page = await context.newPage();
  await page.goto(`${env.site.url}${path}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  return page;
}

const banner = (page: Page) => page.locator('#ccm-widget [role="dialog"]');

const records = (s: { domainId: string; domainApiKey: string }, expected: number) => domainRecords(env.app, s, expected);

describe('languages in Chromium', () => {
  it('asks an English browser in English on a German-only domain, with the site\'s privacy link', async () => {
    const s = await setup();
    const page = await open(s.snippet, 'en-US');
    await expect.poll(() => banner(page).locator('h2').textContent()).toBe(BUILTIN_TEXTS.en.widgetTitle);
    const link = banner(page).locator('a', { hasText: BUILTIN_TEXTS.en.privacyPolicy });
    expect(await link.getAttribute('href')).toBe('https://acme.example/datenschutz');
    expect(await page.evaluate(() => (window as unknown as { CCM: { availableLocales(): string[] } }).CCM.availableLocales())).toEqual(['de_DE', 'en']);
    await page.context().close();
  });

  it('switches with the labelled switcher in the footer, by keyboard; the decision records the language chosen', async () => {
    const s = await setup();
    const page = await open(s.snippet, 'en-US');
    const select = banner(page).locator('select');
    await expect.poll(() => select.count()).toBe(1);
    expect(await select.getAttribute('aria-label')).toBe(BUILTIN_TEXTS.en.languageLabel);
    expect(await select.locator('option').allTextContents()).toEqual(['Deutsch', 'English']);
    expect(await select.inputValue()).toBe('en');
    await select.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => banner(page).locator('h2').textContent()).toBe('Datenschutz bei Acme');
    // The redraw keeps the keyboard where it was, on the switcher, now in German.
    const focused = await page.evaluate(() => {
      const a = document.getElementById('ccm-widget')!.shadowRoot!.activeElement as HTMLSelectElement | null;
      return [a?.tagName, a?.value, a?.getAttribute('aria-label')];
    });
    expect(focused).toEqual(['SELECT', 'de_DE', BUILTIN_TEXTS.de.languageLabel]);
    expect(await banner(page).locator('button', { hasText: BUILTIN_TEXTS.de.widgetFullConsentButtonText }).count()).toBe(1);
    expect(await page.locator('#ccm-widget [lang]').first().getAttribute('lang')).toBe('de-DE');
    await banner(page).locator('button', { hasText: BUILTIN_TEXTS.de.widgetFullConsentButtonText }).click();
    const list = await records(s, 1);
    expect(list[0]).toMatchObject({ lang: 'de_DE' });
    await page.context().close();
  });

  it('shows no switcher when the page offers one language', async () => {
    const s = await setup();
    const page = await open(s.snippet, 'de-DE');
    await expect.poll(() => banner(page).locator('h2').textContent()).toBe('Datenschutz bei Acme');
    expect(await banner(page).locator('select').count()).toBe(0);
    await page.context().close();
  });
});
