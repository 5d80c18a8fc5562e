import * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostingCall, startBrowserApp, vendorStandIn, type BrowserApp, type VendorStandIn } from './browser.js';
import { presetDomain, STAND_IN_PAGE } from './real-snippets-common.js';

/**
 * Web components that build a video player in their shadow root, as sites use them: Mux's `<youtube-video>` and
 * `<vimeo-video>` (youtube-video-element, vimeo-video-element: the media elements of Mux's media-chrome) and Justin
 * Ribeiro's `<lite-youtube>`, each loaded with the tag its README hands out (jsDelivr), whose code is the npm package
 * bundled as jsDelivr's `+esm` serves it. A shadow root is outside the document's tree: until stop 51 neither the
 * widget's observer nor its query of an inserted element saw into one, and with the YouTube and Vimeo presets active
 * both Mux players loaded and ran before any decision, and `<lite-youtube>`'s player did as soon as it scrolled into
 * view (`autoload`) or was clicked. The same for the server-rendered form of Mux's element (a declarative shadow root
 * in the HTML, from the package's own template), and a script in such a root. Every vendor host is a local TLS stand-in (`--host-resolver-rules`) that sees
 * each request; a player page fetches `/__ran` when it runs.
 */
const KEY = 'web-components-hosting-key-0123456789abcd';

/** The components' code as jsDelivr serves it for the tags in their READMEs: the package's module, bundled. */
const bundle = async (entry: string) =>
  (await esbuild.build({ stdin: { contents: `import '${entry}';`, resolveDir: process.cwd() }, bundle: true, format: 'esm', minify: true, write: false })).outputFiles[0]!.text;

let env: BrowserApp;
let vendors: VendorStandIn;
let snippet: string;
let strictSnippet: string;
let pageNo = 0;
const code: Record<string, string> = {};

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  code['/npm/youtube-video-element@1'] = await bundle('youtube-video-element');
  code['/npm/vimeo-video-element@1.0/+esm'] = await bundle('vimeo-video-element');
  code['/npm/@justinribeiro/lite-youtube@1/lite-youtube.min.js'] = await bundle('@justinribeiro/lite-youtube');
  vendors = await vendorStandIn(['cdn.jsdelivr.net', 'www.youtube.com', 'i.ytimg.com', 'player.vimeo.com', 'vimeo.com'], (req, res) => {
    const path = req.url!.split('?')[0]!;
    if (req.headers.host === 'cdn.jsdelivr.net') {
      return res.writeHead(code[path] ? 200 : 404, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(code[path] ?? '');
    }
    if (req.headers.host === 'i.ytimg.com') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end();
    // YouTube's player API: the real one calls onYouTubeIframeAPIReady, which Mux's element waits for.
    if (path === '/iframe_api') {
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.__ran_iframe_api = (window.__ran_iframe_api || 0) + 1;');
    }
    res.writeHead(200, { 'content-type': req.url?.startsWith('/__ran') ? 'text/plain' : 'text/html' }).end(STAND_IN_PAGE);
  });
  const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);
  const domain = await presetDomain(hosting, env.appUrl, `http://127.0.0.1:${env.site.port}`, ['YouTube', 'Vimeo']);
  snippet = domain.snippet.replace(/&amp;/g, '&');
  // A second site in strict mode, with the snippet the Hosting API hands out (a policy before the widget).
  const strict = await presetDomain(hosting, env.appUrl, `http://localhost:${env.site.port}`, ['YouTube', 'Vimeo']);
  // The components' code comes from jsDelivr, which strict mode refuses unless it is named (docs/widget.md, "Strict mode").
  expect((await hosting('PUT', strict.base, { strictBlocking: true, strictAllowedHosts: ['cdn.jsdelivr.net'] })).strictBlocking).toBe(true);
  strictSnippet = ((await hosting('GET', `${strict.base}/onboarding/embed`)).default as string).replace(/&amp;/g, '&');
}, 60_000);

afterAll(async () => {
  await vendors?.close();
  await env?.close();
});

/** The components' tags as their READMEs give them, and one built by a script before it is inserted. */
const COMPONENTS = `<h1>Videos</h1>
<youtube-video controls src="https://www.youtube.com/watch?v=rubNgGj3pYo"></youtube-video>
<vimeo-video controls src="https://vimeo.com/648359100"></vimeo-video>
<lite-youtube id="click" videoid="guJLfqTFfIw"></lite-youtube>
<div style="height:3000px"></div>
<lite-youtube id="auto" videoid="VLrYOji75Vc" autoload></lite-youtube>
<div id="later"></div>
<script>
  // A gallery that builds its player before inserting it: Mux's element fills its shadow root on \`src\`, detached.
  addEventListener('load', async () => {
    const v = document.createElement('youtube-video');
    v.setAttribute('src', 'https://www.youtube.com/watch?v=aqz-KE-bpKQ');
    await customElements.whenDefined('youtube-video');
    await new Promise((r) => setTimeout(r, 50));
    document.getElementById('later').append(v);
  });
</script>
<script>
  // A component of the site's own: a closed shadow root, the player's API (named by an attribute, so this script
  // names no marker and runs) appended to it.
  customElements.define('site-player', class extends HTMLElement {
    connectedCallback() {
      const root = this.attachShadow({ mode: 'closed' });
      const api = document.createElement('script');
      api.src = this.dataset.api;
      root.append(api);
    }
  });
</script>
<site-player data-api="https://www.youtube.com/iframe_api"></site-player>`;

interface Opened {
  page: Page;
  errors: string[];
}

async function open(head: string, host = '127.0.0.1'): Promise<Opened> {
  const url = `/web-components${++pageNo}`;
  env.site.setPage(url, `<!doctype html><html><head><meta charset="utf-8">${head}
<script type="module" src="https://cdn.jsdelivr.net/npm/youtube-video-element@1"></script>
<script type="module" src="https://cdn.jsdelivr.net/npm/vimeo-video-element@1.0/+esm"></script>
<script type="module" src="https://cdn.jsdelivr.net/npm/@justinribeiro/lite-youtube@1/lite-youtube.min.js"></script>
</head><body>${COMPONENTS}</body></html>`);
  const page = await (await vendors.browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://${host}:${env.site.port}${url}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForFunction(() => document.querySelector('#later youtube-video'));
  await page.waitForTimeout(1000);
  return { page, errors };
}

const PLAYERS = ['www.youtube.com/embed/rubNgGj3pYo', 'player.vimeo.com/video/648359100', 'www.youtube.com/embed/guJLfqTFfIw', 'www.youtube.com/embed/VLrYOji75Vc', 'www.youtube.com/embed/aqz-KE-bpKQ'];
/** The players whose page ran (its `/__ran` fetch names its address). */
const ran = () => PLAYERS.filter((p) => vendors.seen.requests.some((r) => r.includes('/__ran?') && decodeURIComponent(r.split('/__ran?')[1]!).includes(p)));
/** Requests to the players' hosts other than the components' code and the thumbnails. */
const toPlayers = () => vendors.seen.requests.filter((r) => /^(www\.youtube\.com|player\.vimeo\.com|vimeo\.com)\//.test(r));
const apiRuns = (p: Page) => p.evaluate(() => (window as unknown as { __ran_iframe_api?: number }).__ran_iframe_api ?? 0);

/** Every frame in the components' shadow roots (open ones through `shadowRoot`, the closed one through the page's global): its address and what the widget keeps of it. */
const frames = (p: Page) =>
  p.evaluate(() => [...document.querySelectorAll('youtube-video,vimeo-video,lite-youtube')].flatMap((host) =>
    [...(host.shadowRoot?.querySelectorAll('iframe') ?? [])].map((f) => ({
      host: host.localName, src: f.getAttribute('src'), held: f.getAttribute('data-ccm-blocked')?.replace(/\?.*/, '') ?? null,
      overlay: f.previousElementSibling?.className === 'ccm-blocked',
    }))));

/** The visitor scrolls back up and clicks the first <lite-youtube>'s thumbnail, which inserts its player. */
async function clickThumbnail(p: Page) {
  await p.evaluate(() => scrollTo(0, 0));
  await p.locator('#click').click();
}

async function scrollToAutoload(p: Page) {
  await p.locator('#auto').scrollIntoViewIfNeeded();
  await p.waitForTimeout(700);
}

describe('web components with a player in their shadow root (Mux\'s <youtube-video> and <vimeo-video>, <lite-youtube>)', { timeout: 120_000 }, () => {
  it('without the widget every player runs: what the test can see', async () => {
    vendors.reset();
    const o = await open('');
    await scrollToAutoload(o.page);
    await clickThumbnail(o.page);
    await expect.poll(ran, { timeout: 15_000 }).toEqual(PLAYERS);
    expect(await apiRuns(o.page)).toBeGreaterThanOrEqual(1);
    await o.page.context().close();
  });

  it('no player runs before a decision or after "decline", whatever the visitor scrolls to or clicks; "accept all" runs each', async () => {
    for (const decline of [true, false]) {
      vendors.reset();
      const o = await open(snippet);
      await scrollToAutoload(o.page);
      await clickThumbnail(o.page);
      await o.page.waitForTimeout(700);
      if (decline) {
        await o.page.locator('#ccm-widget button.d').click();
        await o.page.waitForTimeout(700);
      }
      // Until stop 51: both Mux players, the one built before its insertion and both <lite-youtube> players ran.
      expect(ran()).toEqual([]);
      // Held in their shadow roots, each under the overlay of its embedding.
      expect((await frames(o.page)).sort((a, b) => (a.held! < b.held! ? -1 : 1))).toEqual([
        { host: 'vimeo-video', src: null, held: 'https://player.vimeo.com/video/648359100', overlay: true },
        { host: 'lite-youtube', src: null, held: 'https://www.youtube.com/embed/VLrYOji75Vc', overlay: true },
        { host: 'youtube-video', src: null, held: 'https://www.youtube.com/embed/aqz-KE-bpKQ', overlay: true },
        { host: 'lite-youtube', src: null, held: 'https://www.youtube.com/embed/guJLfqTFfIw', overlay: true },
        { host: 'youtube-video', src: null, held: 'https://www.youtube.com/embed/rubNgGj3pYo', overlay: true },
      ]);
      // The player API appended to a closed shadow root, and the one Mux's element appends to <head>: never requested.
      expect(toPlayers().filter((r) => r.startsWith('www.youtube.com/iframe_api'))).toEqual([]);
      expect(await apiRuns(o.page)).toBe(0);
      // Not one player requested: those the components write as markup (innerHTML, insertAdjacentHTML) get no address
      // (since stop 52; until then each was requested as its markup was inserted and ended before it ran), and the one
      // built before its host was inserted is checked before it is in the page.
      expect(toPlayers().filter((r) => PLAYERS.some((p) => r.startsWith(p)))).toEqual([]);
      if (!decline) {
        await o.page.locator('#ccm-widget button.a').click();
        await expect.poll(ran, { timeout: 15_000 }).toEqual(PLAYERS);
        expect(await frames(o.page)).toEqual(expect.arrayContaining([expect.objectContaining({ held: null, overlay: false })]));
        expect((await frames(o.page)).filter((f) => f.held !== null || f.overlay)).toEqual([]);
        // Mux's element and the site's component each got the API.
        await expect.poll(() => apiRuns(o.page)).toBe(2);
      }
      // Mux's <vimeo-video> binds Vimeo's player.js to the frame it has just written, which throws on a frame without
      // its address ("isn't a Vimeo embed"): the price of not letting the player be requested (docs/widget.md, "Shadow
      // roots"). Nothing else may fail.
      expect(o.errors.filter((e) => !e.includes('isn’t a Vimeo embed'))).toEqual([]);
      await o.page.context().close();
    }
  });

  it('strict mode: not a single request to the players\' hosts before consent, from any shadow root', async () => {
    vendors.reset();
    const o = await open(strictSnippet, 'localhost');
    await scrollToAutoload(o.page);
    await clickThumbnail(o.page);
    await o.page.waitForTimeout(700);
    expect(toPlayers()).toEqual([]);
    expect(ran()).toEqual([]);
    // "Accept all" reloads once (a policy in force cannot be lifted); on the next view every player runs.
    await Promise.all([o.page.waitForEvent('load'), o.page.locator('#ccm-widget button.a').click()]);
    await o.page.waitForFunction(() => document.querySelector('#later youtube-video'));
    await scrollToAutoload(o.page);
    await clickThumbnail(o.page);
    await expect.poll(ran, { timeout: 15_000 }).toEqual(PLAYERS);
    await o.page.context().close();
  });
});

describe('server-rendered components: a declarative shadow root with the player in the HTML', { timeout: 120_000 }, () => {
  // What a server renders for Mux's element (Next.js, Astro: media-chrome's SSR), from the package's own template.
  let ssr = '';
  beforeAll(async () => {
    const { default: YoutubeVideoElement } = (await import('youtube-video-element')) as unknown as { default: { getTemplateHTML(attrs: Record<string, string>): string } };
    const tag = (id: string) => `<youtube-video controls src="https://www.youtube.com/watch?v=${id}"><template shadowrootmode="open">${YoutubeVideoElement.getTemplateHTML({ src: `https://www.youtube.com/watch?v=${id}`, controls: '' })}</template></youtube-video>`;
    ssr = `<h1>Videos</h1>
${tag('SSRdirect01')}
<div class="video-wrapper"><figure>${tag('SSRnested01')}<figcaption>How to</figcaption></figure></div>
<script>window.__parsedOn = true;</script>
<section><server-tracker><template shadowrootmode="open"><p>A component that carries its own script</p><script src="https://www.youtube.com/iframe_api"></script></template></server-tracker></section>
<p>Imprint</p>`;
  });
  const SSR = ['www.youtube.com/embed/SSRdirect01', 'www.youtube.com/embed/SSRnested01'];
  const ranSsr = () => SSR.filter((p) => vendors.seen.requests.some((r) => r.includes('/__ran?') && decodeURIComponent(r.split('/__ran?')[1]!).includes(p)));
  const held = (p: Page) => p.evaluate(() => [...document.querySelectorAll('youtube-video')].map((h) => {
    const f = h.shadowRoot!.querySelector('iframe')!;
    return [f.getAttribute('src'), f.getAttribute('data-ccm-blocked')?.replace(/\?.*/, '') ?? null];
  }));

  async function openSsr(head: string) {
    const url = `/web-components-ssr${++pageNo}`;
    // The components' code is not loaded: the player is in the HTML, whatever the page's scripts do.
    env.site.setPage(url, `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${ssr}</body></html>`);
    const page = await (await vendors.browser.newContext()).newPage();
    await page.goto(`${env.site.url}${url}`);
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.waitForTimeout(1000);
    return page;
  }

  it('without the widget both players and the script run', async () => {
    vendors.reset();
    const p = await openSsr('');
    await expect.poll(ranSsr, { timeout: 15_000 }).toEqual(SSR);
    expect(await apiRuns(p)).toBe(1);
    await p.context().close();
  });

  it('with the widget: the players are held and ended, the script never runs; "accept all" runs each', async () => {
    vendors.reset();
    const p = await openSsr(snippet);
    // Written into the HTML, the players' addresses are requested as the parser inserts them, as any frame's in the
    // page's own tree (docs/widget.md, "Blocking" 4); the widget ends them and keeps the address.
    expect(await held(p)).toEqual([[null, 'https://www.youtube.com/embed/SSRdirect01'], [null, 'https://www.youtube.com/embed/SSRnested01']]);
    // The script in a declarative shadow root is checked before the parser runs it (its `src` in the HTML is fetched
    // by the preload scanner, as any script's there: Blocking 1), and is held.
    expect(await apiRuns(p)).toBe(0);
    expect(await p.evaluate(() => document.querySelector('server-tracker')!.shadowRoot!.querySelector('script')!.type)).toBe('text/plain');
    const before = ranSsr();
    await p.locator('#ccm-widget button.d').click();
    await p.waitForTimeout(700);
    expect(ranSsr()).toEqual(before);
    expect(await apiRuns(p)).toBe(0);
    await p.context().close();

    vendors.reset();
    const q = await openSsr(snippet);
    await q.locator('#ccm-widget button.a').click();
    await expect.poll(ranSsr, { timeout: 15_000 }).toEqual(SSR);
    await expect.poll(() => apiRuns(q)).toBe(1);
    expect(await held(q)).toEqual([[expect.stringContaining('SSRdirect01'), null], [expect.stringContaining('SSRnested01'), null]]);
    await q.context().close();
  });
});
