import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, hostingCall, startBrowserApp } from './browser.js';
import { acceptOnlyPurpose, presetDomain, STAND_IN_PAGE } from './real-snippets-common.js';
import { type SiteSettings, startWordPress, type WordPress } from './wordpress.js';

/**
 * Blocking on a real WordPress site (issue #15: "on a real WordPress site with the established product's own
 * plugin, Google Analytics 4 ran before consent"). WordPress itself writes the page (test/wordpress.ts: Debian's
 * WordPress 6.1 on MariaDB, served by PHP), with what common plugins print, through the WordPress APIs they use
 * (test/fixtures/wordpress/placet-test-site.php): Site Kit by Google's Google tag, directly and through its Google
 * tag gateway proxy on the site itself, with its Ads module; Meta's pixel plugin; Jetpack's site stats and WooCommerce
 * Analytics; a YouTube
 * embed block and a Google Maps iframe that WordPress lazy-loads; the site's own jQuery code. The consent snippet is printed first in <head>, or as the
 * established product's WordPress guide has it (wp_head at priority 10, after WordPress has printed the enqueued
 * head scripts). The embeddings come from Placet's preset catalogue through the Hosting API, as an agency imports
 * them. Vendor hosts are answered by Playwright-route stand-ins that record every request and count their runs.
 */
const KEY = 'wordpress-hosting-key-0123456789abcdef';
const PRESETS = ['Google Analytics 4', 'Google Ads Conversion Tracking', 'Meta Pixel', 'Jetpack Stats', 'WooCommerce Analytics', 'YouTube', 'Google Maps'] as const;

let env: BrowserApp;
let wp: WordPress;

beforeAll(async () => {
  [env, wp] = await Promise.all([startBrowserApp(KEY), startWordPress()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([env?.close(), wp?.close()]);
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

interface Visit {
  page: Page;
  /** Every request to a host other than 127.0.0.1, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** The vendor stand-ins: each script counts its runs in a global; Meta's also records the pixel's calls, as fbevents.js takes them over. */
const STAND_INS: Record<string, string> = {
  'www.googletagmanager.com/gtag/js': 'window.__ran_gtag = (window.__ran_gtag || 0) + 1;',
  'maps.googleapis.com/maps/api/js': 'window.__ran_maps = (window.__ran_maps || 0) + 1;',
  // WordPress.com's stats script takes over the queue the inline scripts filled and sends the page view as an image.
  'stats.wp.com/e-': `window.__ran_jetpack = (window.__ran_jetpack || 0) + 1;
window.__stq_calls = _stq.map(function (a) { return a[0]; });
new Image().src = 'https://pixel.wp.com/g.gif?v=ext&blog=123456789';`,
  // WordPress.com's store script takes over the queue of shop events (later pushes included) and sends each as an image.
  'stats.wp.com/s-': `window.__ran_wca = (window.__ran_wca || 0) + 1;
window.__wca_events = [];
var send = function (e) { window.__wca_events.push(e._en); new Image().src = 'https://pixel.wp.com/t.gif?_en=' + e._en; };
_wca.forEach(send);
_wca.push = send;`,
  'connect.facebook.net/en_US/fbevents.js': `window.__ran_fbevents = (window.__ran_fbevents || 0) + 1;
window.__fb_calls = fbq.queue.map(function (a) { return a[0] + ':' + a[1]; });
fbq.callMethod = function (c, x) { window.__fb_calls.push(c + ':' + x); };`,
};

/**
 * The post with the widget for a new domain of the WordPress site (one active embedding per preset), printed as
 * `settings` say; vendor scripts answer after `delayMs`, as a CDN does, and the widget's script after `widgetDelayMs`.
 */
async function visit(settings: Omit<SiteSettings, 'snippet'>, delayMs = 0, widgetDelayMs = 0): Promise<Visit> {
  const { snippet } = await presetDomain(hosting, env.appUrl, wp.url, PRESETS);
  wp.configure({ ...settings, snippet });
  const context = await env.browser.newContext();
  const requests: string[] = [];
  await context.route('**/*', async (route: Route) => {
    const url = route.request().url();
    if (new URL(url).hostname === '127.0.0.1') {
      if (widgetDelayMs && url.includes('/public/app.js')) await new Promise((r) => setTimeout(r, widgetDelayMs));
      return route.continue();
    }
    requests.push(url);
    const bare = url.replace(/^https?:\/\//, '');
    const script = Object.keys(STAND_INS).find((s) => bare.startsWith(s));
    if (script) {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_INS[script] });
    }
    if (route.request().resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: STAND_IN_PAGE });
    return route.fulfill({ status: 204, body: '' });
  });
  const page = await context.newPage();
  await page.goto(wp.postUrl);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(500 + delayMs);
  return { page, requests, close: () => context.close() };
}

const count = (page: Page, name: string) => page.evaluate((n) => (window as unknown as Record<string, unknown>)[n], name);
/** Which stand-in frame pages ran (their `/__ran` fetch names the page). */
const framesRan = (v: Visit, host: string) => v.requests.filter((r) => r.includes('/__ran?') && decodeURIComponent(r).includes(host));
/** WordPress lazy-loads both frames: scroll each into view, as a reader would. */
async function scrollThrough(page: Page) {
  for (const i of [0, 1]) {
    await page.evaluate((n) => document.querySelectorAll('iframe')[n]?.scrollIntoView(), i);
    await page.waitForTimeout(300);
  }
}

/**
 * Nothing of any vendor ran and nothing was requested but `preloads` (scripts named in the markup, which the preload
 * scanner fetches, or which were requested before the widget started); the site's own code ran once.
 */
async function assertNothingRan(v: Visit, preloads: string[] = []) {
  await scrollThrough(v.page);
  for (const g of ['__ran_gtag', '__ran_gtg', '__ran_fbevents', '__ran_maps', '__ran_jetpack', '_stq', '__ran_wca']) expect(await count(v.page, g), `${g}: vendor code ran`).toBeUndefined();
  expect(v.requests.filter((r) => !preloads.some((p) => r.includes(p))), 'requests of vendor code that must not have run').toEqual([]);
  expect(await v.page.locator('.ccm-blocked').count(), 'the YouTube and Maps frames wait under the overlay').toBe(2);
  expect(await count(v.page, '__site_ran'), "the site's own jQuery code").toBe(1);
}

async function acceptAll(v: Visit) {
  await v.page.locator('#ccm-widget button.a').first().click();
  await scrollThrough(v.page);
}

describe('a real WordPress site: Site Kit, Meta pixel, Jetpack Stats, YouTube and Maps blocks', () => {
  it('the snippet first in <head>: nothing of any vendor before a decision; after "accept all" each runs once, PageView included', async () => {
    const v = await visit({ snippetPriority: 1, siteKit: 'direct', metaPixel: true, mapsApi: true });
    await assertNothingRan(v, ['www.googletagmanager.com/gtag/js?id=G-SITEKIT01', 'maps.googleapis.com/maps/api/js']);
    await acceptAll(v);
    await expect.poll(() => count(v.page, '__ran_gtag'), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => count(v.page, '__ran_fbevents'), { timeout: 15_000 }).toBe(1);
    // The plugin's three scripts: the base code, init and the page view on the page where the visitor consents.
    expect(await count(v.page, '__fb_calls')).toEqual(['init:1234567890', 'track:PageView']);
    await expect.poll(() => count(v.page, '__ran_maps'), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => framesRan(v, 'youtube.com/embed').length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => framesRan(v, 'google.com/maps/embed').length, { timeout: 30_000 }).toBe(1);
    // The inline calls after the Google tag ran once (beside the widget's consent-mode entries).
    const calls = await v.page.evaluate(() => (window as unknown as { dataLayer: unknown[][] }).dataLayer.map((a) => a[0]));
    expect(['js', 'set', 'config'].map((c) => calls.filter((x) => x === c).length)).toEqual([1, 1, 1]);
    expect(await count(v.page, '__site_ran')).toBe(1);
    await v.close();
  }, 120_000);

  it('"decline": nothing of any vendor', async () => {
    const v = await visit({ snippetPriority: 1, siteKit: 'direct', metaPixel: true, mapsApi: true });
    await v.page.locator('#ccm-widget button.d').first().click();
    await v.page.waitForTimeout(500);
    await assertNothingRan(v, ['www.googletagmanager.com/gtag/js?id=G-SITEKIT01', 'maps.googleapis.com/maps/api/js']);
    await v.close();
  }, 120_000);

  it("Site Kit's Google tag gateway (Google's script from the site's own proxy) waits for consent to Google Analytics", async () => {
    const v = await visit({ snippetPriority: 1, siteKit: 'gateway' });
    await assertNothingRan(v);
    await acceptAll(v);
    await expect.poll(() => count(v.page, '__ran_gtg'), { timeout: 15_000 }).toBe(1);
    await v.close();
  }, 120_000);

  it("Site Kit's Google tag gateway with its Ads module: each tag's script waits for its own embedding (Analytics only: GA4's, not Ads')", async () => {
    // Until 2026-11-28 no marker claimed the Ads tag's gateway address: it ran before consent.
    const v = await visit({ snippetPriority: 1, siteKit: 'gateway', siteKitAds: true });
    await assertNothingRan(v);
    await acceptOnlyPurpose(v.page, 'Analytics');
    await expect.poll(() => count(v.page, '__gtg_tags'), { timeout: 15_000 }).toEqual(['G-SITEKIT01']);
    await v.page.waitForTimeout(700);
    expect(await count(v.page, '__gtg_tags')).toEqual(['G-SITEKIT01']);
    await v.close();

    const all = await visit({ snippetPriority: 1, siteKit: 'gateway', siteKitAds: true });
    await assertNothingRan(all);
    await acceptAll(all);
    await expect.poll(async () => ((await count(all.page, '__gtg_tags')) as string[] | undefined)?.toSorted(), { timeout: 15_000 }).toEqual(['AW-SITEKIT02', 'G-SITEKIT01']);
    // The inline calls configure both tags, so they ran with both accepted, once.
    const calls = await all.page.evaluate(() => (window as unknown as { dataLayer: unknown[][] }).dataLayer.filter((a) => a[0] === 'config').map((a) => a[1]));
    expect(calls).toEqual(['G-SITEKIT01', 'AW-SITEKIT02']);
    await all.close();
  }, 120_000);

  it("Jetpack's site stats (WordPress.com) wait for consent to Analytics; then the page view queued before the script reaches it, once", async () => {
    // Where the established product's guide puts the snippet; Jetpack's script is in the footer, after it. The
    // preload scanner may fetch the script's `src`; it must not run, and no page view may leave.
    const v = await visit({ snippetPriority: 10, jetpackStats: true });
    await assertNothingRan(v, ['stats.wp.com/e-']);
    await v.page.locator('#ccm-widget button.d').first().click();
    await v.page.waitForTimeout(700);
    await assertNothingRan(v, ['stats.wp.com/e-']);
    await v.close();

    const accepted = await visit({ snippetPriority: 10, jetpackStats: true });
    await assertNothingRan(accepted, ['stats.wp.com/e-']);
    await acceptOnlyPurpose(accepted.page, 'Analytics');
    await expect.poll(() => count(accepted.page, '__ran_jetpack'), { timeout: 15_000 }).toBe(1);
    expect(await count(accepted.page, '__stq_calls')).toEqual(['view', 'clickTrackerInit']);
    await expect.poll(() => accepted.requests.filter((r) => r.startsWith('https://pixel.wp.com/g.gif')).length, { timeout: 5000 }).toBe(1);
    await accepted.close();
  }, 120_000);

  it("Jetpack's WooCommerce Analytics waits for consent to Analytics, though printed before the snippet; then the queued shop event reaches it, once", async () => {
    // Its script is in <head>, deferred, before the snippet (priority 10): stopped before it could run. Its queue
    // (`window._wca`) is the site's to make; the shop's events wait.
    const v = await visit({ snippetPriority: 10, wooAnalytics: true });
    await assertNothingRan(v, ['stats.wp.com/s-']);
    expect(await count(v.page, '_wca'), 'no shop event queued before consent').toEqual([]);
    await v.page.locator('#ccm-widget button.d').first().click();
    await v.page.waitForTimeout(700);
    await assertNothingRan(v, ['stats.wp.com/s-']);
    expect(await count(v.page, '_wca')).toEqual([]);
    await v.close();

    const accepted = await visit({ snippetPriority: 10, wooAnalytics: true });
    await assertNothingRan(accepted, ['stats.wp.com/s-']);
    await acceptOnlyPurpose(accepted.page, 'Analytics');
    await expect.poll(() => count(accepted.page, '__ran_wca'), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => count(accepted.page, '__wca_events'), { timeout: 5000 }).toEqual(['woocommerceanalytics_product_view']);
    await expect.poll(() => accepted.requests.filter((r) => r.startsWith('https://pixel.wp.com/t.gif')).length, { timeout: 5000 }).toBe(1);
    await accepted.page.waitForTimeout(500);
    expect(await count(accepted.page, '__ran_wca')).toBe(1);
    await accepted.close();
  }, 120_000);

  it("the snippet where the established product's guide puts it (after the plugins' head scripts): what has not arrived yet still waits", async () => {
    const v = await visit({ snippetPriority: 10, siteKit: 'direct', metaPixel: true, mapsApi: true }, 2000);
    await assertNothingRan(v, ['www.googletagmanager.com/gtag/js?id=G-SITEKIT01', 'connect.facebook.net/en_US/fbevents.js', 'maps.googleapis.com/maps/api/js']);
    await acceptAll(v);
    await expect.poll(() => count(v.page, '__ran_gtag'), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => count(v.page, '__ran_fbevents'), { timeout: 15_000 }).toBe(1);
    expect(await count(v.page, '__fb_calls')).toEqual(['init:1234567890', 'track:PageView']);
    await expect.poll(() => count(v.page, '__ran_maps'), { timeout: 15_000 }).toBe(1);
    await v.close();
  }, 120_000);

  it('an async script before the snippet that arrived before the widget ran: nothing stops it, and "accept all" does not run it twice; a deferred one still waits', async () => {
    const v = await visit({ snippetPriority: 10, siteKit: 'direct', metaPixel: true, mapsApi: true }, 0, 800);
    expect(await count(v.page, '__ran_gtag')).toBe(1);
    expect(await count(v.page, '__ran_fbevents')).toBe(1);
    // Its response had arrived too, but a deferred script runs only after the parser, so it was still stoppable.
    expect(v.requests.filter((r) => r.includes('maps/api/js'))).toHaveLength(1);
    expect(await count(v.page, '__ran_maps')).toBeUndefined();
    await acceptAll(v);
    await expect.poll(() => count(v.page, '__ran_maps'), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => framesRan(v, 'youtube.com/embed').length, { timeout: 30_000 }).toBe(1);
    expect(await count(v.page, '__ran_gtag')).toBe(1);
    expect(await count(v.page, '__ran_fbevents')).toBe(1);
    expect(v.requests.filter((r) => r.includes('gtag/js') || r.includes('fbevents.js'))).toHaveLength(2);
    await v.close();
  }, 120_000);
});
