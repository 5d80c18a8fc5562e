import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type BrowserApp, hostingCall, serveSite, type Site, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * The locale's legal HTML (imprint, privacy policy, accessibility statement) in the widget's `direct` mode,
 * in real Chromium: every class of XSS vector is stored through the Hosting API, rendered by the widget on
 * a page of the test site, poked at (events, clicks), and nothing of it may run, load or navigate.
 * `pwned` is a function the test exposes in every frame; `leak` is any request whose path says so.
 */
const KEY = 'locale-html-browser-hosting-key-0123';

let browser: Browser;
let site: Site;
let other: Site;
let app: App;
let env: BrowserApp;
let appUrl = '';
let base = '';
let snippet = '';
let pageNo = 0;

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  ({ site, app, appUrl, browser } = env);
  other = await serveSite('localhost');
  const client = await hosting('POST', '/client', { username: unique('x'), password: 'long enough pw', emailAddress: 'x@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, {
    name: `http://127.0.0.1:${site.port}`,
    imprintDisplayMode: 'direct',
    privacyPolicyDisplayMode: 'direct',
    accessibilityDisplayMode: 'direct',
    accessibilityLinkEnabled: true,
  });
  base = `/client/${client.id}/domain/${domain.id}`;
  await hosting('POST', `${base}/embedding`, { name: 'Tracker', purpose: 'a717ff5', scriptMarkers: ['tracker.js'] });
  await hosting('POST', `${base}/locale`, { name: 'en' });
  // Placeholders are filled in after the stored HTML was sanitised: their values must not bring script back.
  await hosting('POST', `${base}/placeholder`, { name: 'XSS_TAG', value: `<img src=x onerror="${run('placeholder tag')}">` });
  await hosting('POST', `${base}/placeholder`, { name: 'XSS_URL', value: `javascript:${run('placeholder url')}` });
  snippet = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
});

afterAll(async () => {
  await env?.close();
  await other?.close();
});

/** Script that reports itself: from any frame, to the function the test exposes. */
function run(id: string): string {
  return `top.pwned('${id}')`;
}

/**
 * One entry per vector class. `{leak}` becomes a URL on the third-party site that must never be requested,
 * `{other}` that site's origin.
 */
const VECTORS: [string, string][] = [
  ['img onerror', `<img src=x onerror="${run('img')}">`],
  ['unquoted img onerror', `<img src=x onerror=${run('img2')}//`],
  ['details ontoggle', `<details open ontoggle="${run('details')}"><summary>s</summary>d</details>`],
  ['autofocus onfocus', `<input autofocus onfocus="${run('focus')}"><div tabindex=0 autofocus onfocus="${run('focus2')}">f</div>`],
  ['mouse and click handlers', `<p onmouseover="${run('over')}" onclick="${run('click')}">hover</p>`],
  ['media onerror', `<video src=x onerror="${run('video')}"></video><audio><source src=x onerror="${run('audio')}"></audio>`],
  ['body onload', `<body onload="${run('body')}">b</body>`],
  ['marquee onstart', `<marquee onstart="${run('marquee')}">m</marquee>`],
  ['css animation handler', `<style>@keyframes k{}</style><p style="animation-name:k" onanimationstart="${run('anim')}">a</p>`],
  ['script element', `<script>${run('script')}</script><script src="{leak}"></script>`],
  ['javascript: link', `<a href="javascript:${run('js link')}">j</a>`],
  ['obfuscated javascript: links', `<a href="jav&#x09;ascript:${run('tab')}">t</a><a href=" JaVaScRiPt:${run('case')}">c</a><a href="&#106;avascript:${run('entity')}">e</a>`],
  ['vbscript and data: links', `<a href="vbscript:msgbox(1)">v</a><a href="data:text/html,<script>${run('data link')}</script>">d</a>`],
  ['iframe srcdoc reading cookies', `<iframe srcdoc="<script>top.pwned(document.cookie || 'srcdoc')</script>"></iframe>`],
  ['iframe and frame src', `<iframe src="javascript:${run('iframe js')}"></iframe><iframe src="data:text/html,<script>${run('iframe data')}</script>"></iframe><iframe src="{leak}"></iframe>`],
  ['object and embed', `<object data="javascript:${run('object')}"></object><embed src="data:text/html,<script>${run('embed')}</script>">`],
  ['svg onload and script', `<svg onload="${run('svg')}"><script>${run('svg script')}</script><a href="javascript:${run('svg a')}"><text>t</text></a></svg>`],
  ['svg namespace confusion', `<svg><style><img src=x onerror="${run('svg style')}"></style></svg>`],
  ['math namespace confusion', `<math><mtext><table><mglyph><style><img src=x onerror="${run('math')}">`],
  ['math annotation-xml', `<math><annotation-xml encoding="text/html"><img src=x onerror="${run('annotation')}"></annotation-xml></math>`],
  ['style attribute and expression', `<p style="background:url('javascript:${run('bg')}');width:expression(${run('expr')})">s</p>`],
  ['style element import', `<style>@import '{leak}'; body{background:url('{leak}')}</style>`],
  ['link stylesheet', `<link rel=stylesheet href="{leak}"><link rel=import href="{leak}">`],
  ['form action and formaction', `<form action="javascript:${run('form')}"><button>go</button></form><button formaction="javascript:${run('formaction')}">f</button><isindex action="javascript:${run('isindex')}" type=image>`],
  ['meta refresh', `<meta http-equiv="refresh" content="0;url={leak}">`],
  ['base href', '<base href="{other}/">'],
  ['data: images', `<img src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='${run('data img')}'/>">`],
  ['noscript mXSS', `<noscript><p title="</noscript><img src=x onerror=${run('noscript')}>"></noscript>`],
  ['template mXSS', `<template><img src=x onerror="${run('template')}"></template><template><style></template><img src=x onerror="${run('template2')}"></style></template>`],
  ['raw-text elements', `<xmp><img src=x onerror="${run('xmp')}"></xmp><title><img src=x onerror="${run('title')}"></title><textarea></textarea><img src=x onerror="${run('textarea')}">`],
  ['comments and CDATA', `<!--><img src=x onerror="${run('comment')}">--><![CDATA[><img src=x onerror="${run('cdata')}">]]>`],
  ['attribute breakout', `<p title="&quot;><img src=x onerror=${run('quote')}>">q</p><p title='</p><img src=x onerror=${run('quote2')}>'>r</p>`],
  ['split tags', `<scr<script>ipt>${run('split')}</script><<img src=x onerror="${run('double lt')}">`],
  ['ping and srcset', `<a ping="{leak}" href="https://shop.example/">p</a><img srcset="{leak} 1x">`],
  ['DOM clobbering names', `<form name="CCM"><input name="ucid"></form><a id="CCM" name="CCM">c</a><img name="getElementById">`],
  ['placeholders', `<p>{XSS_TAG}</p><a href="{XSS_URL}">p</a>`],
];
const FIELDS = ['privacyPolicy', 'imprint', 'accessibility'] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  privacyPolicy: 'Privacy policy',
  imprint: 'Imprint',
  accessibility: 'Accessibility',
};

describe('locale legal HTML in Chromium (direct mode)', () => {
  it.each(VECTORS.map(([name, html], i) => [name, html, FIELDS[i % FIELDS.length]!] as const))(
    'runs nothing of %s',
    async (_name, vector, field) => {
      const marker = `marker-${++pageNo}`;
      const html = `<p>${marker}</p>${vector.replaceAll('{leak}', `${other.url}/leak-${pageNo}`).replaceAll('{other}', other.url)}`;
      const stored = await hosting('PUT', `${base}/locale/en`, { imprintHtmlCode: '', privacyPolicyHtmlCode: '', accessibilityHtmlCode: '', [`${field}HtmlCode`]: html });
      // What the API shows is what was stored: no dangerous element survived the write (attributes and
      // links are checked in the rendered DOM below, where escaped text cannot be mistaken for them).
      expect(stored[`${field}HtmlCode`]).toContain(marker);
      expect(stored[`${field}HtmlCode`]).not.toMatch(/<(script|iframe|frame|svg|math|style|form|meta|base|img|object|embed|link|input|button|template|noscript)\b/i);

      const path = `/legal${pageNo}`;
      site.setPage(path, `<!doctype html><html><head>${snippet}</head><body><h1>Shop</h1><a href="/relative">rel</a></body></html>`);
      const context = await browser.newContext();
      const page = await context.newPage();
      const pwned: string[] = [];
      const dialogs: string[] = [];
      await page.exposeFunction('pwned', (what: unknown) => pwned.push(String(what)));
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const otherHits = other.hits.length;
      const siteHits = site.hits.length;
      const url = `${site.url}${path}`;
      await page.goto(url);
      await page.waitForFunction(() => document.readyState === 'complete');
      const widget = page.locator('#ccm-widget');
      await widget.locator('button', { hasText: LABELS[field] }).click();
      const legal = widget.locator('[role="dialog"]');
      await legal.getByText(marker).waitFor();

      // Poke at everything the HTML left: hover, focus and click every element but real links (http(s),
      // mailto, tel), whose targets are checked instead.
      const structure = await page.evaluate(() => {
        const dialog = document.getElementById('ccm-widget')!.shadowRoot!.querySelector('[role="dialog"]')!;
        const body = dialog.querySelector(':scope > h2 + div')!;
        const all = Array.from(body.querySelectorAll('*'));
        for (const el of all) {
          for (const type of ['mouseover', 'mouseenter', 'focus', 'animationstart', 'toggle', 'error', 'load']) {
            el.dispatchEvent(new Event(type));
          }
          const href = el instanceof HTMLAnchorElement ? el.getAttribute('href') : null;
          if (!(href && /^(https?|mailto|tel):/i.test(href))) (el as HTMLElement).click?.();
        }
        return {
          tags: [...new Set(all.map((el) => el.localName))].sort(),
          attributes: [...new Set(all.flatMap((el) => el.getAttributeNames()))].sort(),
          hrefs: Array.from(body.querySelectorAll('a[href]')).map((a) => (a as HTMLAnchorElement).protocol),
        };
      });
      // Let a refresh, a frame or an image that would load, load.
      await page.waitForTimeout(500);

      expect(pwned).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(page.url()).toBe(url);
      expect(await page.evaluate(() => document.baseURI)).toBe(url);
      // Named elements did not clobber the widget's API.
      const clobbered = await page.evaluate(() => {
        const api = (window as unknown as { CCM?: { ucid?: unknown } }).CCM;
        return api instanceof Element || api?.ucid instanceof Element;
      });
      expect(clobbered).toBe(false);
      expect(other.hits.slice(otherHits)).toEqual([]);
      expect(site.hits.slice(siteHits).filter((h) => h.includes('leak'))).toEqual([]);
      expect(structure.tags.filter((t) => ['script', 'style', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'form', 'input', 'button', 'meta', 'base', 'link', 'img', 'template', 'noscript'].includes(t))).toEqual([]);
      expect(structure.attributes.filter((a) => !['title', 'lang', 'dir', 'href', 'target', 'rel', 'colspan', 'rowspan', 'scope', 'start', 'type'].includes(a))).toEqual([]);
      expect(structure.hrefs.filter((p) => !['http:', 'https:', 'mailto:', 'tel:'].includes(p))).toEqual([]);
      await context.close();
    },
    60_000,
  );

  it('keeps the formatting and the http(s), mailto and tel links of a legal text', async () => {
    const html =
      '<h3>Imprint</h3><p>Shop <b>GmbH</b>, <a href="https://shop.example/contact" target="_blank">contact</a>, ' +
      '<a href="mailto:info@shop.example">mail</a>, <a href="tel:+4930123">phone</a></p><ul><li>one</li></ul>';
    const stored = await hosting('PUT', `${base}/locale/en`, { imprintHtmlCode: html, privacyPolicyHtmlCode: '', accessibilityHtmlCode: '' });
    expect(stored.imprintHtmlCode).toBe(html.replace('target="_blank"', 'target="_blank" rel="noopener noreferrer"'));
    const path = `/legal${++pageNo}`;
    site.setPage(path, `<!doctype html><html><head>${snippet}</head><body></body></html>`);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}${path}`);
    const widget = page.locator('#ccm-widget');
    await widget.locator('button', { hasText: 'Imprint' }).click();
    const legal = widget.locator('[role="dialog"]');
    expect(await legal.locator('b').textContent()).toBe('GmbH');
    expect(await legal.locator('li').textContent()).toBe('one');
    expect(await legal.locator('a', { hasText: 'contact' }).getAttribute('href')).toBe('https://shop.example/contact');
    expect(await legal.locator('a', { hasText: 'contact' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(await legal.locator('a', { hasText: 'mail' }).getAttribute('href')).toBe('mailto:info@shop.example');
    expect(await legal.locator('a', { hasText: 'phone' }).getAttribute('href')).toBe('tel:+4930123');
    await context.close();
  });
});
