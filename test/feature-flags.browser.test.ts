import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type BrowserApp, hostingCall, serveSite, type Site, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * Client feature flags as a visitor meets them, in real Chromium (README "Feature flags", docs/widget.md):
 * a flag turned off after the data exists hides its feature (own logo, custom CSS, a third language, the
 * consent hand-over), and never lets a tracker run before consent (scripts, iframes: fail closed).
 */
const KEY = 'feature-flags-browser-hosting-key-01';
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let env: BrowserApp;
let app: App;
let site: Site;
let other: Site;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  ({ app, site } = env);
  other = await serveSite('localhost');
  other.setPage('/frame.html', '<!doctype html><p>third-party frame</p><script>fetch("/frame-ran.js")</script>');
});

afterAll(async () => {
  await env?.close();
  await other?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);
const at = (host: string, path: string) => `http://${host}:${site.port}${path}`;

/** A client with all flags on and a domain `www.shop.test` sharing consent with `shop-de.test`. */
async function setup() {
  const client = await hosting('POST', '/client', { username: unique('f'), password: 'long enough pw', emailAddress: 'f@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, {
    name: at('www.shop.test', ''),
    consentSharingDomains: ['shop.test', 'shop-de.test'],
    consentSharingCrossDomain: true,
  });
  const base = `/client/${client.id}/domain/${domain.id}`;
  await hosting('POST', `${base}/embedding`, { name: 'Tracker', purpose: 'a717ff5', scriptMarkers: ['tracker.js'] });
  await hosting('POST', `${base}/embedding`, { name: 'Video', purpose: '6cd2721', iframeMarkers: [`localhost:${other.port}/frame`] });
  const [theme] = await hosting('GET', `${base}/theme`);
  await hosting('PUT', `${base}/theme/${theme.id}`, { logoEnabled: true, logoImage: PNG_1PX, customCss: '.ccm-root [role="dialog"]{outline:3px solid red}' });
  for (const name of ['en_US', 'de_DE', 'fr_FR']) await hosting('POST', `${base}/locale`, { name });
  const snippet = `<script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
  const setFlags = (features: Record<string, boolean>) => hosting('PUT', `/client/${client.id}`, { features });
  return { snippet, setFlags };
}

const pageHtml = (snippet: string) => `<!doctype html><html><head>${snippet}<script src="/tracker.js"></script></head><body>
<a id="go" href="${at('www.shop-de.test', '/elsewhere')}">Shop DE</a>
<iframe src="http://localhost:${other.port}/frame.html" width="300" height="150"></iframe></body></html>`;

async function open(context: BrowserContext, snippet: string): Promise<Page> {
  const path = `/p${++pageNo}`;
  site.setPage(path, pageHtml(snippet));
  const page = await context.newPage();
  await page.goto(at('www.shop.test', path));
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(150);
  return page;
}

/** What the visitor sees and what ran, before and after "accept all". */
async function visit(snippet: string) {
  const context = await browser().newContext();
  const page = await open(context, snippet);
  const frameHits = () => other.hits.filter((h) => h === '/frame-ran.js').length;
  const framesBefore = frameHits();
  const look = await page.evaluate(() => {
    const root = document.getElementById('ccm-widget')!.shadowRoot!;
    const dialogEl = root.querySelector('[role="dialog"]')!;
    const w = window as unknown as { ran?: string[]; CCM: { availableLocales(): string[] } };
    return {
      outline: getComputedStyle(dialogEl).outlineStyle,
      logos: root.querySelectorAll('img').length,
      locales: w.CCM.availableLocales(),
      ranBefore: (w.ran ?? []).slice(),
    };
  });
  await page.waitForTimeout(300);
  const frameRanBefore = frameHits() > framesBefore;
  // The hand-over (cross-domain variant only) asks Placet for a token once there is a decision to hand over.
  const tokens: string[] = [];
  page.on('request', (r) => /\/public\/handover$/.test(r.url()) && tokens.push(r.url()));
  await page.locator('#ccm-widget button.a').click();
  await page.waitForFunction(() => ((window as unknown as { ran?: string[] }).ran ?? []).includes('/tracker.js'));
  await page.waitForTimeout(700);
  await context.close();
  return { ...look, frameRanBefore, handedOver: tokens.length > 0 };
}

const browser = () => env.browser;

describe('feature flags in the widget (Chromium)', () => {
  it('turned off after the data exists: no logo, no custom CSS, two languages, no hand-over; blocking as before', async () => {
    const s = await setup();
    const on = await visit(s.snippet);
    expect(on).toMatchObject({ outline: 'solid', logos: 1, locales: ['en_US', 'de_DE', 'fr_FR'], ranBefore: [], frameRanBefore: false, handedOver: true });

    await s.setFlags({ canUseOwnLogo: false, canUseIndCSS: false, moreThan2Lang: false, canUseConsentSharing: false, canUseScripts: false, canUseIframes: false });
    const off = await visit(s.snippet);
    expect(off).toMatchObject({ outline: 'none', logos: 0, locales: ['en_US', 'de_DE'], handedOver: false });
    // Fail closed: without canUseScripts and canUseIframes the stored markers and the iframe blocker still
    // hold the tracker and the third-party frame until consent, and consent still releases the tracker.
    expect(off.ranBefore).toEqual([]);
    expect(off.frameRanBefore).toBe(false);
  });
});
