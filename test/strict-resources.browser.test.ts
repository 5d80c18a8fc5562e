import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostingCall, startBrowserApp, vendorStandIn, type BrowserApp, type VendorStandIn } from './browser.js';
import { presetDomain } from './real-snippets-common.js';

/**
 * Strict mode (docs/widget.md, "Strict mode") for what is not a script or a frame: Google Fonts' own embed code
 * (fonts.google.com → "Get embed code": two preconnects and a stylesheet, which names the font files) and a
 * WordPress comment's Gravatar image, with the Google Fonts and Gravatar presets as embeddings. The vendor hosts
 * reach one local TLS stand-in through `--host-resolver-rules`, which counts every TCP connection and every request,
 * so a preconnect that opens a connection and sends nothing is seen too.
 * Until 2026-11-28 the policies named scripts and frames only: in strict mode the stylesheet, the font file and the
 * image were requested and three connections opened before any decision.
 */
const KEY = 'strict-resources-hosting-key-0123456789ab';
const HOSTS = ['fonts.googleapis.com', 'fonts.gstatic.com', 'secure.gravatar.com', 'us.i.posthog.com'];
const PRESETS = ['Google Fonts', 'Gravatar', 'PostHog'];

// fonts.google.com, "Get embed code" for Roboto 400 and 700, as it hands it out.
const GOOGLE_FONTS = `<link rel="preconnect" href="https://fonts.googleapis.com">
<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>
<link href="https://fonts.googleapis.com/css2?family=Roboto:wght@400;700&display=swap" rel="stylesheet">`;
// WordPress prints a commenter's avatar this way (get_avatar with the default "Mystery Person").
const AVATAR = `<img alt='' src='https://secure.gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346?s=64&#038;d=mm&#038;r=g' class='avatar avatar-64 photo' height='64' width='64' loading='lazy' decoding='async'/>`;

// A product-analytics SDK compiled into the site's own JavaScript (posthog-js installed from npm and bundled, as
// Next.js, Nuxt and Vite apps do): no element names the vendor, so nothing tells the widget to block the bundle, and
// the SDK sends its events by fetch, beacon and image (docs/widget.md, "What is not blocked").
const BUNDLE = `(function(){var h='https://us.i.posthog.com';
fetch(h+'/e/?ip=1',{method:'POST',mode:'no-cors',body:'{"event":"$pageview"}'}).catch(function(){});
navigator.sendBeacon(h+'/batch/','{"event":"$pageleave"}');
new Image().src=h+'/s/?ip=1';})();`;

const pageHtml = (snippet: string) => `<!doctype html><html><head><meta charset="utf-8">${snippet}
${GOOGLE_FONTS}
<style>body{font-family:'Roboto',sans-serif}</style>
<script src="/assets/app-3f9c2d.js" defer></script>
</head><body><h1>Blog</h1><article><p>A post.</p></article>
<ol class="comment-list"><li>${AVATAR}<p>A comment.</p></li></ol></body></html>`;

let env: BrowserApp;
let vendors: VendorStandIn;
let browser: Browser;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  vendors = await vendorStandIn(HOSTS, (req, res) => {
    if (req.url?.startsWith('/css2')) {
      res.writeHead(200, { 'content-type': 'text/css' });
      return res.end("@font-face{font-family:'Roboto';font-weight:400;src:url(https://fonts.gstatic.com/s/roboto/v47/KFO7CnqEu92Fr1ME7kSn66aGLdTylUAMa3yUBA.woff2) format('woff2')}");
    }
    // Anything else: an empty answer (the font and the image fail to decode, which changes nothing here).
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end();
  });
  browser = vendors.browser;
}, 60_000);

afterAll(async () => {
  await vendors?.close();
  await env?.close();
});

/** What reached the stand-in since the last reset: TCP connections (preconnects included) and request paths. */
const seen = () => vendors.seen;
const reset = () => vendors.reset();

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

/** A domain with the two presets as active embeddings; its snippet, in strict mode the one the Hosting API hands out. */
async function snippetFor(strict: boolean): Promise<string> {
  const { base, snippet } = await presetDomain(hosting, env.appUrl, `http://127.0.0.1:${env.site.port}`, PRESETS);
  if (!strict) return snippet.replace(/&amp;/g, '&');
  expect((await hosting('PUT', base, { strictBlocking: true })).strictBlocking).toBe(true);
  return ((await hosting('GET', `${base}/onboarding/embed`)).default as string).replace(/&amp;/g, '&');
}

async function open(snippet: string): Promise<Page> {
  const url = `/strict-resources${++pageNo}`;
  env.site.setPage(url, pageHtml(snippet));
  env.site.setPage('/assets/app-3f9c2d.js', BUNDLE, { 'content-type': 'text/javascript' });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.site.url}${url}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(700);
  return page;
}

const widget = (page: Page) => page.locator('#ccm-widget');

describe('strict mode: stylesheets, fonts, images, preconnects and a bundled SDK\'s requests of a blocked embedding', { timeout: 120_000 }, () => {
  it('without strict mode the page reaches the vendors before any decision (what the test can see)', async () => {
    reset();
    const page = await open(await snippetFor(false));
    await widget(page).locator('button.a').waitFor({ state: 'visible', timeout: 15_000 });
    // The widget blocks scripts and iframes only (docs/widget.md, "What is not blocked").
    expect(seen().requests.some((r) => r.startsWith('fonts.googleapis.com/css2'))).toBe(true);
    expect(seen().requests.some((r) => r.startsWith('secure.gravatar.com/avatar/'))).toBe(true);
    // The bundled SDK's page view, beacon and image: the widget sees no element of it.
    await expect.poll(() => seen().requests.filter((r) => r.startsWith('us.i.posthog.com/')).map((r) => r.split('?')[0]).sort()).toEqual([
      'us.i.posthog.com/batch/', 'us.i.posthog.com/e/', 'us.i.posthog.com/s/',
    ]);
    expect(seen().connections).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });

  it('in strict mode: no connection and no request to any of their hosts before a decision or after "decline"', async () => {
    const snippet = await snippetFor(true);
    expect(snippet.match(/http-equiv="Content-Security-Policy"/g)).toHaveLength(PRESETS.length);
    reset();
    const page = await open(snippet);
    await widget(page).locator('button.d').waitFor({ state: 'visible', timeout: 15_000 });
    expect(seen()).toEqual({ connections: 0, requests: [] });
    await widget(page).locator('button.d').click();
    await page.waitForTimeout(500);
    await page.reload();
    await page.waitForTimeout(700);
    expect(seen()).toEqual({ connections: 0, requests: [] });
    // The page itself still works: its text is there, in the fallback font.
    expect(await page.locator('h1').textContent()).toBe('Blog');
    await page.context().close();
  });

  it('in strict mode, "accept all" reloads once and then the stylesheet, its font and the avatar load', async () => {
    const snippet = await snippetFor(true);
    reset();
    const page = await open(snippet);
    expect(seen().requests).toEqual([]);
    const reloaded = page.waitForEvent('load');
    await widget(page).locator('button.a').click();
    await reloaded;
    await expect.poll(() => [...new Set(seen().requests.map((r) => r.split('/').slice(0, 2).join('/')))].sort(), { timeout: 15_000 }).toEqual([
      'fonts.googleapis.com/css2?family=Roboto:wght@400;700&display=swap',
      'fonts.gstatic.com/s',
      'secure.gravatar.com/avatar',
      'us.i.posthog.com/batch',
      'us.i.posthog.com/e',
      'us.i.posthog.com/s',
    ]);
    await page.context().close();
  });
});
