import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { type BrowserApp, hostingCall, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * Video previews in real Chromium (docs/widget.md, "Video previews"): a page with a blocked YouTube and a
 * blocked Vimeo frame shows each video's preview image, served by Placet, and the browser sends no request
 * at all to a video host before consent. Every request the browser makes is recorded; the video hosts are
 * answered by Playwright routes, and the images Placet fetches come from a local stand-in server.
 */
const KEY = 'video-preview-browser-key-0123456789';
const SOCIAL = '6cd2721';
const YOUTUBE_ID = 'dQw4w9WgXcQ';
const VIMEO_ID = '76979871';
const VIDEO_HOSTS = /(^|\.)(youtube\.com|youtube-nocookie\.com|ytimg\.com|googlevideo\.com|ggpht\.com|vimeo\.com|vimeocdn\.com)$/;

/** A real 16×9 PNG of one colour, so Chromium can decode what Placet serves. */
function png(r: number, g: number, b: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const [width, height] = [16, 9];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const upstreamHits: string[] = [];
/** Stands in for i.ytimg.com, vimeo.com's oEmbed and i.vimeocdn.com (the server's side of the fetch). */
const upstream = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  upstreamHits.push(url.pathname + url.search);
  if (url.pathname === `/vi/${YOUTUBE_ID}/hqdefault.jpg`) return res.writeHead(200, { 'content-type': 'image/png' }).end(png(200, 0, 0));
  if (url.pathname === '/api/oembed.json' && url.searchParams.get('id') === VIMEO_ID) {
    const port = (upstream.address() as AddressInfo).port;
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ thumbnail_url: `http://127.0.0.1:${port}/video/${VIMEO_ID}-d_640` }));
  }
  if (url.pathname === `/video/${VIMEO_ID}-d_640`) return res.writeHead(200, { 'content-type': 'image/png' }).end(png(0, 0, 200));
  res.writeHead(404).end();
});

let env: BrowserApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  env = await startBrowserApp(KEY, {
    videoPreviews: {
      ...testConfig().videoPreviews,
      youtubeUrl: `http://127.0.0.1:${port}/vi/{id}/hqdefault.jpg`,
      vimeoOembedUrl: `http://127.0.0.1:${port}/api/oembed.json?id={id}`,
      vimeoThumbnailHosts: ['127.0.0.1'],
      allowPrivateNetworks: true,
    },
  });
});

afterAll(async () => {
  await env?.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('video previews in the browser', () => {
  it('shows YouTube and Vimeo previews served by Placet, contacts no video host before consent, and loads the players after', async () => {
    const hosting = (method: 'POST', url: string, payload?: unknown) => hostingCall(env.app, KEY, method, url, payload);
    const client = await hosting('POST', '/client', { username: unique('v'), password: 'long enough pw', emailAddress: 'v@example.com' });
    const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${env.site.port}` });
    const base = `/client/${client.id}/domain/${domain.id}`;
    await hosting('POST', `${base}/embedding`, { name: 'YouTube', purpose: SOCIAL, iframeMarkers: ['youtube-nocookie.com', 'youtube.com'] });
    await hosting('POST', `${base}/embedding`, { name: 'Vimeo', purpose: SOCIAL, iframeMarkers: ['player.vimeo.com'] });
    const snippet = `<script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
    // The YouTube frame defers its address (data-ccm-src, docs/widget.md); the Vimeo frame is added by a
    // script, as embed helpers do, and caught before it is inserted.
    env.site.setPage('/videos', `<!doctype html><html><head>${snippet}</head><body><h1>Videos</h1>
<iframe id="yt" data-ccm-src="https://www.youtube-nocookie.com/embed/${YOUTUBE_ID}?rel=0" width="320" height="180"></iframe>
<div id="vm-slot"></div>
<script>var f = document.createElement('iframe'); f.id = 'vm'; f.width = 320; f.height = 180;
f.src = 'https://player.vimeo.com/video/${VIMEO_ID}?h=abc'; document.getElementById('vm-slot').appendChild(f);</script>
</body></html>`);

    const context = await env.browser.newContext();
    const requests: string[] = [];
    context.on('request', (r: Request) => requests.push(r.url()));
    // Video hosts never reach the network: a stand-in player page answers, and the request is on record.
    await context.route((url) => VIDEO_HOSTS.test(url.hostname), (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>stand-in player</p>' }));
    const page = await context.newPage();
    const previews = new Map<string, { status: number; type: string | undefined }>();
    page.on('response', (r) => {
      if (r.url().includes('/public/video-preview/')) previews.set(r.url(), { status: r.status(), type: r.headers()['content-type'] });
    });
    await page.goto(`${env.site.url}/videos`);
    const overlays = page.locator('.ccm-blocked');
    await expect.poll(() => overlays.count(), { timeout: 15_000 }).toBe(2);

    const youtubePreview = `${env.appUrl}/public/video-preview/${domain.id}/www.youtube-nocookie.com/embed/${YOUTUBE_ID}`;
    const vimeoPreview = `${env.appUrl}/public/video-preview/${domain.id}/player.vimeo.com/video/${VIMEO_ID}`;
    const backgrounds = () =>
      overlays.evaluateAll((els) => els.map((el) => getComputedStyle(el.shadowRoot!.querySelector('.f')!).backgroundImage));
    expect(await backgrounds()).toEqual([`url("${youtubePreview}")`, `url("${vimeoPreview}")`]);
    // Both images came from Placet as images, and Chromium can decode them.
    await expect.poll(() => previews.size, { timeout: 15_000 }).toBe(2);
    expect(previews.get(youtubePreview)).toEqual({ status: 200, type: 'image/png' });
    expect(previews.get(vimeoPreview)).toEqual({ status: 200, type: 'image/png' });
    const decoded = await page.evaluate(async (urls) => Promise.all(urls.map(async (u) => {
      const img = new Image();
      img.src = u;
      await img.decode();
      return `${img.naturalWidth}x${img.naturalHeight}`;
    })), [youtubePreview, vimeoPreview]);
    expect(decoded).toEqual(['16x9', '16x9']);
    // Placet fetched them (from the stand-in), the browser did not.
    expect(upstreamHits).toEqual(expect.arrayContaining([`/vi/${YOUTUBE_ID}/hqdefault.jpg`, `/api/oembed.json?id=${VIMEO_ID}`, `/video/${VIMEO_ID}-d_640`]));
    await page.waitForTimeout(500);
    const toVideoHosts = () => requests.filter((u) => VIDEO_HOSTS.test(new URL(u).hostname));
    expect(toVideoHosts()).toEqual([]);
    // A blocked data-ccm-src frame keeps its initial empty document: no address at all before consent.
    expect(await page.locator('#yt').getAttribute('src')).toBeNull();

    // After consent the players load (from the routes' stand-ins).
    await page.locator('#ccm-widget button.a').click();
    await expect.poll(() => overlays.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => toVideoHosts().map((u) => new URL(u).host + new URL(u).pathname).sort(), { timeout: 15_000 })
      .toEqual(['player.vimeo.com/video/' + VIMEO_ID, 'www.youtube-nocookie.com/embed/' + YOUTUBE_ID]);
    for (const id of ['yt', 'vm']) {
      const frame = page.frameLocator(`#${id}`);
      await expect.poll(() => frame.locator('p').textContent(), { timeout: 15_000 }).toBe('stand-in player');
    }
    await context.close();
  });
});
