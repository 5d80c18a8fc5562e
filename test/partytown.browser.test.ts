import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostingCall, startBrowserApp, vendorStandIn, type BrowserApp, type VendorStandIn } from './browser.js';
import { presetDomain } from './real-snippets-common.js';

/**
 * Google's tag run by Partytown (partytown.qwik.dev, "Google Tag Manager"), as Next.js `<Script strategy="worker">`,
 * Astro's and Nuxt's Partytown integrations print it: the real Partytown library (npm `@qwik.dev/partytown`) served
 * from the site's `/~partytown/`, its service worker and web worker included. Partytown runs every
 * `<script type="text/partytown">` in its worker, not the browser, so the widget, which checked only the script
 * types the browser runs, let Google's tag run there before consent. www.googletagmanager.com is a local TLS stand-in
 * reached through `--host-resolver-rules`, which sees the worker's requests too; the stand-in tag reports that it ran
 * with a request of its own.
 */
const KEY = 'partytown-hosting-key-0123456789abcdefgh';
const TAG = 'www.googletagmanager.com/gtag/js?id=G-PTWORKER1';
const RAN = 'www.googletagmanager.com/__ran_partytown';
const LIB = path.join(path.dirname(createRequire(import.meta.url).resolve('@qwik.dev/partytown/package.json')), 'lib');

const page = (snippet: string) => `<!doctype html><html><head><meta charset="utf-8">${snippet}
<script>partytown = { forward: ['dataLayer.push', 'gtag'] };</script>
<script>${fs.readFileSync(path.join(LIB, 'partytown.js'), 'utf8')}</script>
<script type="text/partytown" src="https://${TAG}"></script>
<script type="text/partytown">
  window.dataLayer = window.dataLayer || [];
  window.gtag = function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());
  gtag('config', 'G-PTWORKER1');
</script>
</head><body><h1>Shop</h1></body></html>`;

let env: BrowserApp;
let vendors: VendorStandIn;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  for (const file of fs.readdirSync(LIB).filter((f) => f.endsWith('.js') || f.endsWith('.html'))) {
    env.site.setPage(`/~partytown/${file}`, fs.readFileSync(path.join(LIB, file), 'utf8'), {
      'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8',
    });
  }
  vendors = await vendorStandIn(['www.googletagmanager.com'], (req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
    // The stand-in tag: in Partytown's worker, as Google's would, it sends something to Google.
    res.end(req.url?.startsWith('/gtag/js') ? `fetch('https://${RAN}');` : '');
  });
}, 60_000);

afterAll(async () => {
  await vendors?.close();
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);

async function open(snippet: string): Promise<Page> {
  const url = `/partytown${++pageNo}`;
  env.site.setPage(url, page(snippet));
  const p = await (await vendors.browser.newContext()).newPage();
  await p.goto(`${env.site.url}${url}`);
  await p.waitForFunction(() => document.readyState === 'complete');
  return p;
}

const ran = () => vendors.seen.requests.filter((r) => r === RAN).length;
const fetched = () => vendors.seen.requests.filter((r) => r === TAG).length;

describe("Google's tag in Partytown's web worker", { timeout: 120_000 }, () => {
  it('without the widget, Partytown fetches the tag and runs it in its worker (what the test can see)', async () => {
    vendors.reset();
    const p = await open('');
    await expect.poll(ran, { timeout: 20_000 }).toBe(1);
    expect(fetched()).toBe(1);
    await p.context().close();
  });

  it('with the widget, nothing reaches Google before a decision or after "decline"; "accept all" runs the tag once, in the worker', async () => {
    const { snippet } = await presetDomain(hosting, env.appUrl, `http://127.0.0.1:${env.site.port}`, ['Google Analytics 4']);
    vendors.reset();
    const p = await open(snippet.replace(/&amp;/g, '&'));
    const widget = p.locator('#ccm-widget');
    await widget.locator('button.d').waitFor({ state: 'visible', timeout: 15_000 });
    // Partytown has started its worker by now (its service worker, then the sandbox): give it the time it took above.
    await p.waitForTimeout(3000);
    expect(vendors.seen.requests, 'requests to Google before consent').toEqual([]);
    // Held as any blocked script: its type changed, so Partytown does not take it.
    expect(await p.evaluate(() => [...document.querySelectorAll('script[data-ccm-type]')].map((s) => [s.getAttribute('data-ccm-type'), (s as HTMLScriptElement).type]))).toEqual([
      ['text/partytown', 'text/plain'],
    ]);
    await widget.locator('button.d').click();
    await p.waitForTimeout(1500);
    expect(vendors.seen.requests, 'requests to Google after "decline"').toEqual([]);
    await p.context().close();

    vendors.reset();
    const q = await open(snippet.replace(/&amp;/g, '&'));
    await q.locator('#ccm-widget button.a').click({ timeout: 15_000 });
    await expect.poll(ran, { timeout: 20_000 }).toBe(1);
    expect(fetched()).toBe(1);
    // Run by Partytown, not by the browser on the page: the copy is a Partytown script, which Partytown marks as run
    // (`text/partytown-x`).
    expect(await q.evaluate(() => [...document.querySelectorAll('script[src*="gtag/js"]')].map((s) => (s as HTMLScriptElement).type))).toEqual(['text/partytown-x']);
    await q.waitForTimeout(1000);
    expect(ran()).toBe(1);
    await q.context().close();
  });
});
