import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostingCall, startBrowserApp, vendorStandIn, type BrowserApp, type VendorStandIn } from './browser.js';
import { presetDomain, STAND_IN_PAGE } from './real-snippets-common.js';

/**
 * `<object data>` and `<embed src>` with a web page load it as a frame does: YouTube's embed address in either is
 * a working player. Pages have them as the web hands them out: a Jekyll plugin prints
 * `<object data="https://www.youtube.com/embed/…"></object>` for every `{% youtube %}`, documentation sites write
 * `<object data="https://www.youtube.com/embed/…?autoplay=0" width='860px' height='515px'>`, hand-written pages
 * `<embed src="https://www.youtube.com/embed/…">` (public code, found 2026-11-29). Until then the widget checked
 * iframes only: with the YouTube preset active, both players loaded and ran before any decision.
 * www.youtube.com is answered by a local TLS stand-in through `--host-resolver-rules`, which sees every request;
 * its page fetches `/__ran` when it runs.
 */
const KEY = 'object-embed-hosting-key-0123456789abcdef';
const YT = 'https://www.youtube.com/embed/';

const BODY = `<h1>Videos</h1>
<div class="embed-container"><object data="${YT}OBJ1"></object></div>
<figure><object data="${YT}OBJ2?autoplay=0" width='560px' height='315px'></object><figcaption>How to</figcaption></figure>
<section id="youtube-link"><embed src="${YT}EMB1" width="560" height="315"></embed></section>
<object data="${YT}OBJ3" width="560" height="315"><param name="allowfullscreen" value="true"><p>Video cannot be displayed. <a href="https://www.youtube.com/watch?v=OBJ3">Watch on YouTube</a></p></object>
<object data-ccm-src="${YT}DEFER" width="560" height="315"></object>
<div id="later"></div>
<script>
  // A script that builds a player after the page has loaded, as a gallery would.
  addEventListener('load', () => {
    const o = document.createElement('object');
    o.data = '${YT}LATER';
    o.width = '560';
    // Fallback content, as the old embed codes had it: connected with its object, and a frame in it loads.
    o.innerHTML = '<iframe src="${YT}INNER" width="560" height="315"></iframe>';
    document.getElementById('later').appendChild(o);
  });
</script>`;

const ALL = ['OBJ1', 'OBJ2', 'EMB1', 'OBJ3', 'DEFER', 'LATER', 'INNER'];

let env: BrowserApp;
let vendors: VendorStandIn;
let snippet: string;
/** The domain's path in the Hosting API, and a call to it. */
let base: string;
let hosting: (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => ReturnType<typeof hostingCall>;
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  vendors = await vendorStandIn(['www.youtube.com', 'img.youtube.com', 'i.ytimg.com'], (req, res) => {
    if (req.headers.host !== 'www.youtube.com') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end();
    res.writeHead(200, { 'content-type': req.url?.startsWith('/__ran') ? 'text/plain' : 'text/html' }).end(STAND_IN_PAGE);
  });
  hosting = (method, url, payload) => hostingCall(env.app, KEY, method, url, payload);
  const domain = await presetDomain(hosting, env.appUrl, `http://127.0.0.1:${env.site.port}`, ['YouTube']);
  base = domain.base;
  snippet = domain.snippet.replace(/&amp;/g, '&');
}, 60_000);

afterAll(async () => {
  await vendors?.close();
  await env?.close();
});

/** The videos whose player page ran (its `/__ran` fetch names its address). */
const ran = () => ALL.filter((id) => vendors.seen.requests.some((r) => r.startsWith('www.youtube.com/__ran?') && decodeURIComponent(r).includes(`/embed/${id}`)));
/** The videos whose address was requested at all. */
const requested = () => ALL.filter((id) => vendors.seen.requests.some((r) => r.startsWith(`www.youtube.com/embed/${id}`)));

/** The thumbnails requested from img.youtube.com, by video. */
const thumbnails = () => vendors.seen.requests.filter((r) => /^(img\.youtube|i\.ytimg)\.com\/vi\//.test(r)).map((r) => r.split('/')[2]).sort();

async function open(html: string): Promise<Page> {
  const url = `/object-embed${++pageNo}`;
  env.site.setPage(url, html);
  const page = await (await vendors.browser.newContext()).newPage();
  await page.goto(`${env.site.url}${url}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(1000);
  return page;
}

const page = (head: string) => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${BODY}</body></html>`;

/** Each element's address attribute and what the widget keeps of it. */
const addresses = (p: Page) =>
  p.evaluate(() => [...document.querySelectorAll('object,embed,iframe')].map((e) => [e.localName, e.getAttribute(e.localName === 'object' ? 'data' : 'src'), e.getAttribute('data-ccm-blocked')]));

describe('<object> and <embed> players are held like iframes', { timeout: 120_000 }, () => {
  it('without the widget every player loads and runs (what the test can see)', async () => {
    vendors.reset();
    const p = await open(page(''));
    // The iframe in the later object's fallback content loads too, although the object shows its own page.
    await expect.poll(ran, { timeout: 15_000 }).toEqual(['OBJ1', 'OBJ2', 'EMB1', 'OBJ3', 'LATER', 'INNER']);
    await p.context().close();
  });

  it('with the YouTube preset: no player runs before a decision or after "decline", each runs after "accept all"', async () => {
    vendors.reset();
    const p = await open(page(snippet));
    const widget = p.locator('#ccm-widget');
    await widget.locator('button.a').waitFor({ state: 'visible', timeout: 15_000 });
    // Written into the HTML, the address is requested when the parser inserts the element, before any script can see
    // it (as for an iframe's `src`, docs/widget.md "Blocking" 4), and whether the player got to run for an instant before
    // the widget ended it is the same race as an iframe's (with stand-ins answering in a millisecond, on a loaded
    // machine it sometimes wins: seen once here). What is guaranteed: one given as `data-ccm-src`, or by a script
    // through the DOM methods (with the frame in its fallback content), is never requested; none of them keeps its
    // address; and nothing runs once the widget has seen them (below, across "decline").
    for (const id of ['DEFER', 'LATER', 'INNER']) expect(requested()).not.toContain(id);
    expect(ran().filter((id) => ['DEFER', 'LATER', 'INNER'].includes(id))).toEqual([]);
    const held = [
      ['object', null, `${YT}OBJ1`],
      ['object', null, `${YT}OBJ2?autoplay=0`],
      ['embed', null, `${YT}EMB1`],
      ['object', null, `${YT}OBJ3`],
      ['object', null, `${YT}DEFER`],
      ['object', null, `${YT}LATER`],
      ['iframe', null, `${YT}INNER`],
    ];
    expect(await addresses(p)).toEqual(held);
    expect(await p.locator('.ccm-blocked').count()).toBe(7);

    const before = ran();
    await widget.locator('button.d').click();
    await p.waitForTimeout(1000);
    expect(ran()).toEqual(before);
    expect(await addresses(p)).toEqual(held);
    // The next page, declined: held again, the guaranteed ones again never requested.
    vendors.reset();
    await p.reload();
    await p.waitForTimeout(1000);
    for (const id of ['DEFER', 'LATER', 'INNER']) expect(requested()).not.toContain(id);
    expect(await addresses(p)).toEqual(held);
    await p.context().close();

    vendors.reset();
    const q = await open(page(snippet));
    await q.locator('#ccm-widget button.a').click();
    // An <object> with fallback content (OBJ3's text, LATER's iframe) stays on that fallback on this page: Chromium
    // does not load a `data` given back to an object that has shown its fallback (measured; docs/widget.md). The
    // iframe in LATER's fallback loads, as the page wrote it. From the next page on, both objects load. (OBJ3, written
    // into the HTML, may have run for an instant before the widget ended it: the race above.)
    const loaded = ['OBJ1', 'OBJ2', 'EMB1', 'DEFER', 'INNER'];
    await expect.poll(() => loaded.filter((id) => ran().includes(id)), { timeout: 30_000 }).toEqual(loaded);
    expect(ran()).not.toContain('LATER');
    expect((await addresses(q)).map(([name, address]) => [name, address])).toEqual([
      ['object', `${YT}OBJ1`],
      ['object', `${YT}OBJ2?autoplay=0`],
      ['embed', `${YT}EMB1`],
      ['object', `${YT}OBJ3`],
      ['object', `${YT}DEFER`],
      ['object', `${YT}LATER`],
      ['iframe', `${YT}INNER`],
    ]);
    expect(await q.locator('.ccm-blocked').count()).toBe(0);
    await q.reload();
    await expect.poll(ran, { timeout: 30_000 }).toEqual(ALL);
    await q.context().close();
  });

  it('in strict mode not even the request leaves before a decision', async () => {
    expect((await hosting('PUT', base, { strictBlocking: true })).strictBlocking).toBe(true);
    const strictSnippet = ((await hosting('GET', `${base}/onboarding/embed`)).default as string).replace(/&amp;/g, '&');
    vendors.reset();
    const p = await open(page(strictSnippet));
    await p.locator('#ccm-widget button.a').waitFor({ state: 'visible', timeout: 15_000 });
    // The policy's default-src covers object-src: no connection, no request, for the players written into the HTML too.
    expect(vendors.seen).toEqual({ connections: 0, requests: [] });
    const reloaded = p.waitForEvent('load');
    await p.locator('#ccm-widget button.a').click();
    await reloaded;
    await expect.poll(ran, { timeout: 30_000 }).toEqual(ALL);
    await p.context().close();
    expect((await hosting('PUT', base, { strictBlocking: false })).strictBlocking).toBe(false);
  });
});

/**
 * The lazy YouTube frame: `srcdoc` with a thumbnail from img.youtube.com that links to the player, beside the player's
 * `src` or alone (CSS-Tricks' "Lazy load embedded YouTube videos", copied into themes, static-site shortcodes and
 * hand-written pages; found in public code 2026-11-29). A frame shows its `srcdoc` when it has one. Until then the
 * widget held the first by its `src` and left `srcdoc` in place, so moving the frame loaded it again and the thumbnail
 * was requested from Google before any decision; the second it did not check at all.
 */
const LAZY = (id: string, src: boolean) =>
  `<iframe width="560" height="315"${src ? ` src="${YT}${id}"` : ''} srcdoc="<style>*{padding:0;margin:0;overflow:hidden}html,body{height:100%}img,span{position:absolute;width:100%;top:0;bottom:0;margin:auto}span{height:1.5em;text-align:center;font:48px/1.5 sans-serif;color:white;text-shadow:0 0 0.5em black}</style><a href=${YT}${id}?autoplay=1><img src=https://img.youtube.com/vi/${id}/hqdefault.jpg alt='Video'><span>▶</span></a>" frameborder="0" allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture" allowfullscreen title="Video"></iframe>`;
// A variant that links to the watch page and takes its thumbnail from i.ytimg.com: no `/embed/` in it, so only the
// YouTube preset's thumbnail markers (since 2026-11-29) claim it.
const WATCH = `<iframe width="560" height="315" srcdoc="<style>img{width:100%}</style><a href=https://www.youtube.com/watch?v=LAZY3 target=_top><img src=https://i.ytimg.com/vi/LAZY3/hqdefault.jpg alt='Video'></a>"></iframe>`;
const lazyPage = (head: string) =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body><h1>Videos</h1>${LAZY('LAZY1', true)}<p>More</p>${LAZY('LAZY2', false)}<p>And</p>${WATCH}<p>End</p></body></html>`;

/** The player requests (not the thumbnails) of the lazy frames that reached the stand-in since the last reset. */
const players = () => vendors.seen.requests.filter((r) => r.startsWith('www.youtube.com/embed/LAZY'));

describe('the lazy YouTube frame (srcdoc with a thumbnail)', { timeout: 120_000 }, () => {
  it('without the widget both thumbnails are requested from Google at once (what the test can see)', async () => {
    vendors.reset();
    const p = await open(lazyPage(''));
    await expect.poll(thumbnails, { timeout: 15_000 }).toEqual(['LAZY1', 'LAZY2', 'LAZY3']);
    await p.context().close();
  });

  it('with the YouTube preset: no thumbnail before a decision or after "decline"; after "accept all" each frame shows its srcdoc again', async () => {
    for (let i = 0; i < 3; i++) {
      vendors.reset();
      const p = await open(lazyPage(snippet));
      const widget = p.locator('#ccm-widget');
      await widget.locator('button.d').waitFor({ state: 'visible', timeout: 15_000 });
      expect(thumbnails(), `load ${i}`).toEqual([]);
      expect(await p.locator('.ccm-blocked').count()).toBe(3);
      const frames = () => p.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => [f.getAttribute('src'), f.hasAttribute('srcdoc'), f.hasAttribute('data-ccm-srcdoc')]));
      expect(await frames()).toEqual([[null, false, true], [null, false, true], [null, false, true]]);
      if (i < 2) {
        await widget.locator('button.d').click();
        await p.waitForTimeout(700);
        await p.reload();
        await p.waitForTimeout(1000);
        expect(thumbnails()).toEqual([]);
        expect(await frames()).toEqual([[null, false, true], [null, false, true], [null, false, true]]);
      } else {
        // LAZY1 has its `src` in the HTML: the browser may start that navigation before any script runs (docs/widget.md,
        // Blocking 4; once on a loaded CI machine, 2026-11-29), a race this test cannot rule out. What the widget
        // guarantees is checked below: releasing the frames requests no player at all.
        const playersAtLoad = players();
        expect(playersAtLoad.filter((r) => !r.startsWith('www.youtube.com/embed/LAZY1')), `load ${i}`).toEqual([]);
        await widget.locator('button.a').click();
        await expect.poll(thumbnails, { timeout: 15_000 }).toEqual(['LAZY1', 'LAZY2', 'LAZY3']);
        // The released frames get their `srcdoc` back and no `src`: given the first its `src` as well, Chromium loaded
        // that (the player) instead in 1 of 5 runs, where the visitor should see the thumbnail and choose to play.
        expect(await frames()).toEqual([[null, true, false], [null, true, false], [null, true, false]]);
        expect(await p.locator('.ccm-blocked').count()).toBe(0);
        // The player itself loads only when the visitor clicks the thumbnail, as without the widget.
        expect(players()).toEqual(playersAtLoad);
      }
      await p.context().close();
    }
  });
});

