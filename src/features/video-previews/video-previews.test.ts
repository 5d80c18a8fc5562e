import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { ConfigError, loadConfig, testConfig, type Config } from '../../config.js';
import { DIALECTS, createClient, createDomain, inlinedWidgetConfig, useApp, type TestContext } from '../../../test/helper.js';
import { evictPreviews, findPreview, savePreview } from './video-previews.repository.js';

/** The smallest images with the right first bytes (the service checks them against the declared type). */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 3)]);

/**
 * A local stand-in for i.ytimg.com, vimeo.com's oEmbed and i.vimeocdn.com: each video id names a behaviour,
 * and every request is recorded, so a test sees exactly what the server asked the video host.
 */
const requests: string[] = [];
const standIn = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  requests.push(url.pathname + url.search);
  const youtube = /^\/vi\/([^/]+)\/hqdefault\.jpg$/.exec(url.pathname)?.[1];
  const send = (status: number, type: string, body: Buffer | string) => res.writeHead(status, { 'content-type': type }).end(body);
  if (youtube === 'missingvid1') return send(404, 'image/jpeg', JPEG);
  if (youtube === 'htmlvideo_1') return send(200, 'text/html', '<script>alert(1)</script>');
  if (youtube === 'fakejpeg__1') return send(200, 'image/jpeg', '<html>not an image</html>');
  if (youtube === 'svgvideo__1') return send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  if (youtube === 'hugevideo_1') return send(200, 'image/jpeg', Buffer.concat([JPEG, Buffer.alloc(300_000)]));
  if (youtube === 'pngvideo__1') return send(200, 'image/png', PNG);
  if (youtube === 'slowvideo_1') return void setTimeout(() => send(200, 'image/jpeg', JPEG), 2000);
  if (youtube === 'trickle____') {
    // Headers and the first bytes at once, then nothing: only the overall time limit ends it.
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.write(JPEG.subarray(0, 10));
    return void setTimeout(() => res.end(JPEG.subarray(10)), 3000);
  }
  if (youtube?.startsWith('held')) return void setTimeout(() => send(200, 'image/jpeg', JPEG), 400);
  if (youtube === 'shared_____') return void setTimeout(() => send(200, 'image/jpeg', JPEG), 300);
  if (youtube === 'redirect___') return res.writeHead(302, { location: '/vi/aaaaaaaaaaa/hqdefault.jpg' }).end();
  if (youtube) return send(200, 'image/jpeg', JPEG);
  if (url.pathname === '/api/oembed.json') {
    const id = url.searchParams.get('id');
    if (id === '404') return send(404, 'application/json', '{}');
    const host = id === '666' ? 'evil.example' : `127.0.0.1:${port()}`;
    return send(200, 'application/json', JSON.stringify({ type: 'video', thumbnail_url: `http://${host}/video/${id}-d_640` }));
  }
  if (url.pathname.startsWith('/video/')) return send(200, 'image/png', PNG);
  send(404, 'text/plain', 'no such stand-in path');
});
await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
const port = () => (standIn.address() as AddressInfo).port;
afterAll(() => new Promise((resolve) => standIn.close(resolve)));
// Each test counts the requests it caused (the same video ids recur in each engine's suites).
beforeEach(() => {
  requests.length = 0;
});

const base = testConfig().videoPreviews;
const standInPreviews = (overrides: Partial<Config['videoPreviews']> = {}): Partial<Config> => ({
  videoPreviews: {
    ...base,
    youtubeUrl: `http://127.0.0.1:${port()}/vi/{id}/hqdefault.jpg`,
    vimeoOembedUrl: `http://127.0.0.1:${port()}/api/oembed.json?id={id}`,
    vimeoThumbnailHosts: ['127.0.0.1'],
    allowPrivateNetworks: true,
    maxImageBytes: 100_000,
    timeoutMs: 500,
    ...overrides,
  },
});

/** A clock the tests move forward (8 days of cache without waiting 8 days). */
const clock = { ms: Date.parse('2026-11-26T10:00:00Z'), now() { return new Date(this.ms); } };
const HOUR = 3_600_000;

async function blockingDomain(ctx: TestContext, body: Record<string, unknown> = {}) {
  const client = await createClient(ctx);
  return createDomain(ctx, client.id, body);
}

const get = (ctx: TestContext, path: string, ip = '203.0.113.9') =>
  ctx.app.inject({ method: 'GET', url: `/public/video-preview/${path}`, remoteAddress: ip });

const upstreamCalls = (fragment: string) => requests.filter((r) => r.includes(fragment)).length;

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /public/video-preview/:domainId/:provider/:videoId`, () => {
    const ctx = useApp(dialect, standInPreviews(), { clock });
    beforeEach(() => {
      clock.ms = Date.parse('2026-11-26T10:00:00Z');
    });

    it('serves a YouTube preview fetched from the video host, with its type and a public cache lifetime', async () => {
      const domain = await blockingDomain(ctx);
      const res = await get(ctx, `${domain.id}/www.youtube.com/embed/first${dialect.slice(0, 3)}_-9`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe(`public, max-age=${8 * 24 * 3600}`);
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.rawPayload.equals(JPEG)).toBe(true);
      // The same video in a youtube-nocookie.com frame is the same cache entry: no second upstream request.
      const nocookie = await get(ctx, `${domain.id}/youtube-nocookie.com/embed/first${dialect.slice(0, 3)}_-9`);
      expect(nocookie.statusCode).toBe(200);
      expect(upstreamCalls('/vi/')).toBe(1);
    });

    it('keeps a preview 8 days: served from the database meanwhile, fetched again after', async () => {
      const domain = await blockingDomain(ctx);
      const id = `k8d${dialect.slice(0, 3)}aaaaa`;
      expect(id).toHaveLength(11);
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/${id}`)).statusCode).toBe(200);
      expect(upstreamCalls(`/vi/${id}/`)).toBe(1);
      clock.ms += 8 * 24 * HOUR - 60_000;
      const later = await get(ctx, `${domain.id}/www.youtube.com/embed/${id}`);
      expect(later.statusCode).toBe(200);
      expect(later.headers['cache-control']).toBe('public, max-age=60');
      expect(upstreamCalls(`/vi/${id}/`)).toBe(1);
      clock.ms += 120_000;
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/${id}`)).statusCode).toBe(200);
      expect(upstreamCalls(`/vi/${id}/`)).toBe(2);
      const row = await findPreview(ctx.database.db, 'youtube', id);
      expect(row?.expires_at).toBe(new Date(clock.ms + 8 * 24 * HOUR).toISOString());
    });

    it('serves a Vimeo preview through oEmbed, and refuses a thumbnail on a host not allowed', async () => {
      const domain = await blockingDomain(ctx);
      const res = await get(ctx, `${domain.id}/player.vimeo.com/video/123`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(upstreamCalls('/video/123-d_640')).toBe(1);
      const evil = await get(ctx, `${domain.id}/player.vimeo.com/video/666`);
      expect(evil.statusCode).toBe(404);
      expect(evil.json().error.code).toBe('VIDEO_PREVIEW_UNAVAILABLE');
      expect(upstreamCalls('/video/666')).toBe(0);
      expect((await get(ctx, `${domain.id}/player.vimeo.com/video/404`)).json().error.code).toBe('VIDEO_PREVIEW_UNAVAILABLE');
    });

    it('passes on nothing but JPEG, PNG or WebP bytes within the size limit', async () => {
      const domain = await blockingDomain(ctx);
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/pngvideo__1`)).headers['content-type']).toBe('image/png');
      for (const id of ['htmlvideo_1', 'fakejpeg__1', 'svgvideo__1', 'hugevideo_1', 'missingvid1', 'redirect___']) {
        const res = await get(ctx, `${domain.id}/www.youtube.com/embed/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.headers['content-type'], id).toMatch(/^application\/json/);
        expect(res.json().error.code, id).toBe('VIDEO_PREVIEW_UNAVAILABLE');
        // Remembered for the negative period (15 minutes by default), and the browser may remember it as long.
        expect(res.headers['cache-control'], id).toBe('public, max-age=900');
      }
      expect(upstreamCalls('/vi/aaaaaaaaaaa/')).toBe(0); // the redirect was not followed
    });

    it('remembers "no image" for the negative period, then asks again', async () => {
      const domain = await blockingDomain(ctx);
      for (let i = 0; i < 5; i++) expect((await get(ctx, `${domain.id}/www.youtube.com/embed/missingvid1`)).statusCode).toBe(404);
      const before = upstreamCalls('/vi/missingvid1/');
      clock.ms += 16 * 60_000;
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/missingvid1`)).statusCode).toBe(404);
      expect(upstreamCalls('/vi/missingvid1/')).toBe(before + 1);
    });

    it('gives up on a host slower than the timeout, with a JSON 404 rather than a 500', async () => {
      const domain = await blockingDomain(ctx);
      const started = Date.now();
      const res = await get(ctx, `${domain.id}/www.youtube.com/embed/slowvideo_1`);
      expect(Date.now() - started).toBeLessThan(1800);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('VIDEO_PREVIEW_UNAVAILABLE');
    });

    it('gives up on a host that sends the start of an image and then stalls', async () => {
      const domain = await blockingDomain(ctx);
      const started = Date.now();
      const res = await get(ctx, `${domain.id}/www.youtube.com/embed/trickle____`);
      expect(Date.now() - started).toBeLessThan(2500);
      expect(res.json().error.code).toBe('VIDEO_PREVIEW_UNAVAILABLE');
    });

    it('shares one upstream fetch among concurrent requests for an uncached video', async () => {
      const domain = await blockingDomain(ctx);
      const answers = await Promise.all(Array.from({ length: 12 }, () => get(ctx, `${domain.id}/www.youtube.com/embed/shared_____`)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
      expect(upstreamCalls('/vi/shared_____/')).toBe(1);
    });

    it('requires a YouTube or Vimeo player address with a valid id (400 JSON), and never answers 5xx to odd paths', async () => {
      const domain = await blockingDomain(ctx);
      const before = requests.length;
      for (const path of [
        'www.youtube.com/embed/short', 'www.youtube.com/embed/aaaaaaaaaaaa', 'www.youtube.com/embed/aaaa.aaaaaa',
        'www.youtube.com/watch/aaaaaaaaaaa', 'evil.example/embed/aaaaaaaaaaa', 'youtube.com.evil.example/embed/aaaaaaaaaaa',
        'player.vimeo.com/video/12a', 'player.vimeo.com/video/0123', 'vimeo.com/video/123', 'player.vimeo.com/embed/123',
        '127.0.0.1/embed/aaaaaaaaaaa', `www.youtube.com/embed/${'a'.repeat(40)}`, `${'h'.repeat(80)}/embed/aaaaaaaaaaa`,
      ]) {
        const res = await get(ctx, `${domain.id}/${path}`);
        expect(res.statusCode, path).toBe(400);
        expect(res.json().error.code, path).toBe('VALIDATION_FAILED');
      }
      for (const path of [
        'www.youtube.com/embed/..%2F..%2Fetc', 'www.youtube.com/embed/%00aaaaaaaaaa', 'player.vimeo.com/video/%ZZ',
        'www.youtube.com/embed/aaaaaaaaaaa/extra', `www.youtube.com/embed/${'x'.repeat(600)}`, 'www.youtube.com/embed',
      ]) {
        const res = await get(ctx, `${domain.id}/${path}`);
        expect(res.statusCode, path).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, path).toBeLessThan(500);
        expect(res.json().error.code, path).toBeTypeOf('string');
      }
      expect(requests.length).toBe(before);
    });

    it('is offered only for a domain that exists and blocks iframes (no open image proxy)', async () => {
      const before = requests.length;
      const unknown = await get(ctx, 'nosuchd/www.youtube-nocookie.com/embed/aaaaaaaaaaa');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('VIDEO_PREVIEW_NOT_OFFERED');
      const open = await blockingDomain(ctx, { blockIframes: false });
      expect((await get(ctx, `${open.id}/www.youtube.com/embed/aaaaaaaaaaa`)).json().error.code).toBe('VIDEO_PREVIEW_NOT_OFFERED');
      expect(requests.length).toBe(before);
    });
  });

  describe(`${dialect}: video previews with two app instances on one database`, () => {
    const ctx = useApp(dialect, standInPreviews());

    it('serves from the shared cache what the other instance fetched: the video host is asked once', async () => {
      const other = await buildApp({ config: ctx.config, database: ctx.database, migrate: false });
      try {
        const domain = await blockingDomain(ctx);
        const path = `/public/video-preview/${domain.id}/www.youtube.com/embed/twoapps____`;
        expect((await ctx.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
        const second = await other.inject({ method: 'GET', url: path });
        expect(second.statusCode).toBe(200);
        expect(second.rawPayload.equals(JPEG)).toBe(true);
        expect(upstreamCalls('/vi/twoapps____/')).toBe(1);
      } finally {
        await other.close();
      }
    });
  });

  describe(`${dialect}: video previews through the SSRF guard`, () => {
    // The stand-in is on loopback: with private networks refused (the default), the guard stops the fetch.
    const ctx = useApp(dialect, standInPreviews({ allowPrivateNetworks: false }));

    it('never connects to a loopback video host, and answers "no image"', async () => {
      const domain = await blockingDomain(ctx);
      const before = requests.length;
      const res = await get(ctx, `${domain.id}/www.youtube.com/embed/guardedvid1`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('VIDEO_PREVIEW_UNAVAILABLE');
      expect((await get(ctx, `${domain.id}/player.vimeo.com/video/777`)).statusCode).toBe(404);
      expect(requests.length).toBe(before);
    });
  });

  describe(`${dialect}: video preview limits`, () => {
    const ctx = useApp(dialect, {
      ...standInPreviews({ missesPerAddressPerMinute: 3 }),
      limits: { ...testConfig().limits, enabled: true },
    });

    it('limits cache misses per address (429 with Retry-After); cached previews and other addresses still pass', async () => {
      const domain = await blockingDomain(ctx);
      for (const id of ['limit____01', 'limit____02', 'limit____03']) expect((await get(ctx, `${domain.id}/www.youtube.com/embed/${id}`)).statusCode).toBe(200);
      const refused = await get(ctx, `${domain.id}/www.youtube.com/embed/limit____04`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(upstreamCalls('/vi/limit____04/')).toBe(0);
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/limit____01`)).statusCode).toBe(200);
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/limit____04`, '198.51.100.7')).statusCode).toBe(200);
    });
  });

  describe(`${dialect}: video preview fetches in flight`, () => {
    const ctx = useApp(dialect, standInPreviews({ maxConcurrentFetches: 2 }));

    it('refuses a miss beyond the fetches in flight with 429, and serves it once they are done', async () => {
      const domain = await blockingDomain(ctx);
      const ids = ['held_____01', 'held_____02', 'held_____03'];
      const first = [get(ctx, `${domain.id}/www.youtube.com/embed/${ids[0]}`), get(ctx, `${domain.id}/www.youtube.com/embed/${ids[1]}`)];
      await new Promise((r) => setTimeout(r, 100));
      const third = await get(ctx, `${domain.id}/www.youtube.com/embed/${ids[2]}`);
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('1');
      expect((await Promise.all(first)).map((r) => r.statusCode)).toEqual([200, 200]);
      expect((await get(ctx, `${domain.id}/www.youtube.com/embed/${ids[2]}`)).statusCode).toBe(200);
    });
  });

  describe(`${dialect}: video preview cache bounds`, () => {
    const ctx = useApp(dialect);
    const row = (id: string, minute: number, size: number) => ({
      provider: 'youtube', video_id: id, content_type: 'image/jpeg', body: Buffer.alloc(size).toString('base64'), size,
      fetched_at: new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString(), expires_at: '2026-12-04T10:00:00.000Z',
    });

    it('evicts expired entries, then the oldest, down to the entry and byte bounds', async () => {
      const db = ctx.database.db;
      for (let i = 0; i < 12; i++) await savePreview(db, row(`bound___${String(i).padStart(3, '0')}`, i, 100));
      await savePreview(db, { ...row('expired____', 30, 100), expires_at: '2026-11-26T09:00:00.000Z' });
      expect(await evictPreviews(db, '2026-11-26T10:00:00.000Z', 10, 10_000)).toBe(3);
      const left = (await db.selectFrom('video_previews').select('video_id').orderBy('video_id').execute()).map((r) => r.video_id);
      expect(left).toEqual(Array.from({ length: 10 }, (_, i) => `bound___${String(i + 2).padStart(3, '0')}`));
      expect(await evictPreviews(db, '2026-11-26T10:00:00.000Z', 10, 450)).toBe(6);
      expect(await db.selectFrom('video_previews').select('video_id').execute()).toHaveLength(4);
    });

    it('replaces an entry another process stored for the same video', async () => {
      const db = ctx.database.db;
      await savePreview(db, row('replaced___', 1, 10));
      await savePreview(db, row('replaced___', 2, 20));
      expect((await findPreview(db, 'youtube', 'replaced___'))?.size).toBe(20);
    });
  });
}

/** The `vp` the widget configuration served for the domain carries (the preview address, or ''). */
async function servedPreviewAddress(ctx: TestContext, body: Record<string, unknown> = {}) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id, { name: 'videos.example', ...body });
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`,
    headers: { referer: 'https://videos.example/' },
  });
  expect(res.statusCode).toBe(200);
  return { domainId: domain.id, vp: inlinedWidgetConfig(res.body).vp };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the widget configuration's preview address`, () => {
    const ctx = useApp(dialect);

    it('names the domain\'s preview endpoint when it blocks iframes, and nothing when it does not', async () => {
      const on = await servedPreviewAddress(ctx);
      expect(on.vp).toBe(`${ctx.config.publicUrl}/public/video-preview/${on.domainId}/`);
      expect((await servedPreviewAddress(ctx, { blockIframes: false })).vp).toBe('');
    });
  });

  describe(`${dialect}: VIDEO_PREVIEWS=false`, () => {
    const ctx = useApp(dialect, { videoPreviews: { ...base, enabled: false } });

    it('gives the widget no preview address and answers every preview with 404', async () => {
      const { domainId, vp } = await servedPreviewAddress(ctx);
      expect(vp).toBe('');
      const res = await get(ctx, `${domainId}/www.youtube.com/embed/aaaaaaaaaaa`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('VIDEO_PREVIEW_NOT_OFFERED');
    });
  });
}

describe('video preview configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}).videoPreviews;
    expect(config).toMatchObject({
      enabled: true, youtubeUrl: 'https://i.ytimg.com/vi/{id}/hqdefault.jpg', vimeoThumbnailHosts: ['i.vimeocdn.com'],
      allowPrivateNetworks: false, cacheHours: 192, negativeCacheMinutes: 15, maxEntries: 5000, maxCacheMegabytes: 256,
      maxImageBytes: 1_048_576, timeoutMs: 5000, missesPerAddressPerMinute: 30, maxConcurrentFetches: 16,
    });
  });

  it('refuses upstream addresses that are not http(s) or lack {id}', () => {
    expect(() => loadConfig({ VIDEO_PREVIEW_YOUTUBE_URL: 'file:///etc/{id}' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIDEO_PREVIEW_VIMEO_OEMBED_URL: 'https://vimeo.com/api/oembed.json' })).toThrow(/VIDEO_PREVIEW_VIMEO_OEMBED_URL/);
  });
});
