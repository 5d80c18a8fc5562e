import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, depsOf, useApp, type TestContext } from '../../../test/helper.js';
import { loadConfig } from '../../config.js';
import { loadConsentTokens } from '../consent-ingest/consent-token.js';
import { IngestStats } from '../consent-ingest/ingest-stats.js';
import { CallCounter } from './call-counter.js';
import { WidgetService } from './widget.service.js';

const monthCalls = async (ctx: TestContext, domainId: string) =>
  (await ctx.database.db.selectFrom('call_counts').select('count').where('domain_id', '=', domainId).execute()).reduce(
    (sum, r) => sum + Number(r.count),
    0,
  );

/** The domain's calls once `expected` have been flushed, and one more flush interval for anything beyond them. */
const settled = async (ctx: TestContext, domainId: string, expected: number) => {
  for (let i = 0; i < 100 && (await monthCalls(ctx, domainId)) < expected; i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  return monthCalls(ctx, domainId);
};

function inlinedConfig(body: string): Record<string, unknown> {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  expect(match).not.toBeNull();
  return JSON.parse(JSON.parse(match![1]!));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /public/app.js under abuse`, () => {
    const limits = loadConfig({ WIDGET_RATE_PER_ADDRESS: '4', WIDGET_COUNT_WINDOW_SECONDS: '60', AUTO_CREATE_DOMAINS_PER_HOUR: '2' }).limits;
    const ctx = useApp(dialect, { counterFlushIntervalMs: 100, limits });
    const load = (url: string, remoteAddress: string, referer = 'https://shop.example/') =>
      ctx.app.inject({ method: 'GET', url, headers: { referer }, remoteAddress });

    it('counts a burst from one address and page once; other pages and addresses count', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
      const url = `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`;
      for (let i = 0; i < 3; i++) expect((await load(url, '203.0.113.10')).statusCode).toBe(200);
      await load(url, '203.0.113.10', 'https://shop.example/other');
      await load(url, '203.0.113.11');
      expect(await settled(ctx, domain.id, 3)).toBe(3);
    });

    it('serves blocked mode over the per-address limit, with Retry-After and without counting', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
      const url = `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`;
      for (let i = 0; i < 4; i++) {
        const res = await load(url, '203.0.113.20', `https://shop.example/p${i}`);
        expect(inlinedConfig(res.body).bl).toBeUndefined();
      }
      const over = await load(url, '203.0.113.20', 'https://shop.example/p9');
      expect(over.statusCode).toBe(200);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(inlinedConfig(over.body)).toMatchObject({ d: domain.id, bl: expect.stringMatching(/too many widget loads/) });
      expect(await settled(ctx, domain.id, 4)).toBe(4);
      // Another address is served normally.
      expect(inlinedConfig((await load(url, '203.0.113.21')).body).bl).toBeUndefined();
    });

    it('creates at most AUTO_CREATE_DOMAINS_PER_HOUR domains per client from forged origins, and never past the quota', async () => {
      const open = await createClient(ctx, { autoCreateDomains: true });
      for (let i = 0; i < 6; i++) await load(`/public/app.js?apiKey=${open.apiKey}`, `203.0.113.${40 + i}`, `https://forged${i}.example/`);
      const domains = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${open.id}/domain` })).json<unknown[]>();
      expect(domains).toHaveLength(2);
      const small = await createClient(ctx, { autoCreateDomains: true, domainMaxCount: 1 });
      for (let i = 0; i < 3; i++) await load(`/public/app.js?apiKey=${small.apiKey}`, `203.0.113.${50 + i}`, `https://quota${i}.example/`);
      expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${small.id}/domain` })).json<unknown[]>()).toHaveLength(1);
    });
  });

  describe(`${dialect}: a repeat load across the minute's turn`, () => {
    // A clock the test sets: one second before a minute turns, then across it.
    let now = Date.UTC(2026, 10, 26, 12, 0, 59);
    const clock = { now: () => new Date(now) };
    const limits = loadConfig({ WIDGET_COUNT_WINDOW_SECONDS: '60' }).limits;
    const ctx = useApp(dialect, { counterFlushIntervalMs: 100, limits }, { clock });

    it('counts once within WIDGET_COUNT_WINDOW_SECONDS of the counted load, not once per clock minute', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
      const load = () => ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, headers: { referer: 'https://shop.example/' }, remoteAddress: '203.0.113.30' });
      expect((await load()).statusCode).toBe(200); // 12:00:59, counted
      now += 2_000; // 12:01:01: a new clock minute, 2 s after the counted load
      await load();
      now += 57_000; // 12:01:58: 59 s after it
      await load();
      now += 2_000; // 12:02:00: 61 s after it, counted again
      await load();
      expect(await settled(ctx, domain.id, 2)).toBe(2);
    });
  });

  describe(`${dialect}: widget cache under random themes and languages`, () => {
    const ctx = useApp(dialect);

    it('keys unknown themes and languages to cached entries and compresses nothing new', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
      await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain/${domain.id}/locale`, payload: { name: 'de_DE' } });
      const deps = depsOf(ctx);
      const service = new WidgetService(
        deps,
        new CallCounter(deps.db, deps.clock, 60_000, deps.log),
        await loadConsentTokens(deps.db, deps.config),
        new IngestStats(deps.db, deps.clock, 60_000, deps.log),
      );
      await service.init();
      const serve = (theme?: string, lang?: string) =>
        service.serve({ apiKey: client.apiKey, domain: domain.id, referer: 'https://shop.example/', acceptEncoding: 'br', theme, lang, ip: '192.0.2.1' });
      const plain = await serve();
      expect(service.cacheSize).toBe(1);
      for (let i = 0; i < 40; i++) {
        const res = await serve(Math.random().toString(16).slice(2, 9), i % 2 ? `q${String.fromCharCode(97 + (i % 26))}` : undefined);
        expect(res.headers.etag).toBe(plain.headers.etag);
      }
      expect(service.cacheSize).toBe(1);
      // A built-in language under any region is keyed by its language: one entry for all of fr_*.
      for (const lang of ['fr', 'fr_FR', 'fr_ZZ', 'fr_QQ']) await serve(undefined, lang);
      // An active locale is a key of its own.
      await serve(undefined, 'de_DE');
      expect(service.cacheSize).toBe(3);
    });
  });
}
