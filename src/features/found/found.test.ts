import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { testConfig } from '../../config.js';
import { DIALECTS, consentToken, createClient, createDomain, useApp, type TestContext } from '../../../test/helper.js';
import { FOUND_LIMITS } from './found.schemas.js';
import { normaliseItem } from './found.normalise.js';

interface Item { id: string; kind: string; key: string; firstUrl: string; firstSeen: string; lastSeen: string; count: number; state: string }
interface List { items: Item[]; total: number; limit: number; offset: number }
type Report = { k: string; v: string }[];

/** A client with one domain that records everything, and helpers to report and read as the widget and the agency do. */
async function site(ctx: TestContext, settings: Record<string, unknown> = { recordScriptsOnWebsite: true, permanentScanEnabled: true }) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const put = await ctx.hosting({ method: 'PUT', url: base, payload: settings });
  expect(put.statusCode, put.body).toBe(200);
  const revision = async () =>
    (await ctx.database.db.selectFrom('domains').select('config_revision').where('id', '=', domain.id).executeTakeFirstOrThrow()).config_revision;
  const report = async (items: Report, options: { app?: App; origin?: string; page?: string; ip?: string; body?: unknown } = {}) => {
    const r = await revision();
    return (options.app ?? ctx.app).inject({
      method: 'POST',
      url: '/public/found',
      remoteAddress: options.ip ?? '198.51.100.20',
      headers: { 'content-type': 'text/plain', origin: options.origin ?? `https://${domain.name}` },
      payload: JSON.stringify(
        options.body ?? { domain: domain.id, revision: r, token: await consentToken(ctx, domain.id, r), page: options.page ?? `https://${domain.name}/shop?u=alice@example.com#x`, items },
      ),
    });
  };
  const list = async (query = '') => {
    const res = await ctx.hosting({ method: 'GET', url: `${base}/found${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<List>();
  };
  const embedding = async (payload: Record<string, unknown>) => {
    const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { purpose: 'a717ff5', ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  return { client, domain, base, report, list, embedding, revision };
}

describe('normaliseItem', () => {
  const page = new URL('https://shop.example/a?b=c');
  it('keeps host and path of a third-party address, never its query or fragment', () => {
    expect(normaliseItem('script', 'https://CDN.tracker.example:8443/t.js?uid=42#f', page, 'https://placet.example')).toBe('cdn.tracker.example:8443/t.js');
  });
  it("drops the site's own, Placet's own and non-http addresses, and names that are not plain names", () => {
    expect(normaliseItem('script', '/local.js', page, 'https://placet.example')).toBeUndefined();
    expect(normaliseItem('script', 'https://placet.example/public/app.js', page, 'https://placet.example')).toBeUndefined();
    expect(normaliseItem('iframe', 'javascript:alert(1)', page, 'https://placet.example')).toBeUndefined();
    expect(normaliseItem('cookie', 'a b', page, 'https://placet.example')).toBeUndefined();
    expect(normaliseItem('localStorage', 'ccm_consent', page, 'https://placet.example')).toBeUndefined();
    expect(normaliseItem('cookie', '_ga', page, 'https://placet.example')).toBe('_ga');
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: found items`, () => {
    const ctx = useApp(dialect);

    it('stores a reported item once, without query or fragment, and only counts it when seen again', async () => {
      const s = await site(ctx);
      expect((await s.report([{ k: 'script', v: 'https://cdn.tracker.example/t.js?uid=alice' }, { k: 'cookie', v: '_tr' }])).statusCode).toBe(204);
      let { items } = await s.list();
      expect(items).toHaveLength(2);
      const script = items.find((i) => i.kind === 'script')!;
      expect(script).toMatchObject({ key: 'cdn.tracker.example/t.js', firstUrl: `https://${s.domain.name}/shop`, count: 1, state: 'new' });
      await new Promise((r) => setTimeout(r, 5));
      const again = await s.report([{ k: 'script', v: 'https://cdn.tracker.example/t.js?uid=bob' }], { page: `https://${s.domain.name}/other` });
      expect(again.statusCode).toBe(204);
      ({ items } = await s.list('?kind=script'));
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ key: 'cdn.tracker.example/t.js', firstUrl: `https://${s.domain.name}/shop`, count: 2, firstSeen: script.firstSeen });
      expect(items[0]!.lastSeen > script.firstSeen).toBe(true);
      const stored = JSON.stringify(await ctx.database.db.selectFrom('found_items').selectAll().execute());
      expect(stored).not.toContain('alice');
      expect(stored).not.toContain('bob');
    });

    it('stores only the kinds the settings collect, and nothing with both off', async () => {
      const scriptsOnly = await site(ctx, { recordScriptsOnWebsite: true });
      await scriptsOnly.report([{ k: 'iframe', v: 'https://video.example/embed/1' }, { k: 'cookie', v: '_x' }, { k: 'localStorage', v: 'k' }]);
      expect((await scriptsOnly.list()).items.map((i) => i.kind)).toEqual(['iframe']);
      const namesOnly = await site(ctx, { permanentScanEnabled: true });
      await namesOnly.report([{ k: 'script', v: 'https://cdn.example/a.js' }, { k: 'sessionStorage', v: 'cart' }]);
      expect((await namesOnly.list()).items.map((i) => `${i.kind}:${i.key}`)).toEqual(['sessionStorage:cart']);
      const off = await site(ctx, {});
      expect((await off.report([{ k: 'script', v: 'https://cdn.example/a.js' }])).statusCode).toBe(204);
      expect((await off.list()).total).toBe(0);
    });

    it('ignores what an embedding or the domain already declares, first-party scripts and Placet itself', async () => {
      const s = await site(ctx, { recordScriptsOnWebsite: true, permanentScanEnabled: true, allowedScriptMarkers: ['allowed.example'] });
      await s.embedding({ name: 'Analytics', scriptMarkers: ['analytics.example'], assets: [{ name: '_pk_id.*', storageType: 'cookie' }] });
      await s.report([
        { k: 'script', v: 'https://www.analytics.example/matomo.js' },
        { k: 'script', v: 'https://allowed.example/ok.js' },
        { k: 'script', v: `https://${s.domain.name}/own.js` },
        { k: 'script', v: `${ctx.config.publicUrl}/public/app.js` },
        { k: 'cookie', v: '_pk_id.1.abcd' },
        { k: 'cookie', v: '_pk_id_other' },
        { k: 'script', v: 'https://new.example/x.js' },
      ]);
      expect((await s.list()).items.map((i) => `${i.kind}:${i.key}`).sort()).toEqual(['cookie:_pk_id_other', 'script:new.example/x.js']);
    });

    it('refuses malformed, foreign and unsigned reports with a JSON error and stores nothing', async () => {
      const s = await site(ctx);
      const r = await s.revision();
      const token = await consentToken(ctx, s.domain.id, r);
      const valid = { domain: s.domain.id, revision: r, token, page: `https://${s.domain.name}/`, items: [{ k: 'script', v: 'https://x.example/a.js' }] };
      const cases: [unknown, number][] = [
        [{ ...valid, token: 'forged' }, 403],
        [{ ...valid, token: undefined }, 400],
        [{ ...valid, items: [] }, 400],
        [{ ...valid, items: [{ k: 'password', v: 'x' }] }, 400],
        [{ ...valid, items: Array.from({ length: FOUND_LIMITS.itemsPerReport + 1 }, (_, i) => ({ k: 'cookie', v: `c${i}` })) }, 400],
        [{ ...valid, revision: 'one' }, 400],
        [{ ...valid, items: [{ k: 'cookie', v: 'x'.repeat(1001) }] }, 400],
        [{ ...valid, domain: 'zzzzzzz' }, 400],
        [{ ...valid, page: 'not a url' }, 400],
        [{ ...valid, page: 'https://elsewhere.example/' }, 400],
        [{ ...valid, items: [{ k: 'cookie', v: 'a\u0000b' }] }, 400],
        ['[1,2', 400],
        [null, 400],
      ];
      for (const [body, status] of cases) {
        const res = await ctx.app.inject({
          method: 'POST', url: '/public/found', headers: { 'content-type': 'text/plain', origin: `https://${s.domain.name}` },
          payload: typeof body === 'string' ? body : JSON.stringify(body),
        });
        expect(res.statusCode, `case ${cases.findIndex((x) => x[0] === body)} → ${res.body}`).toBe(status);
        expect(res.json<{ error: { code: string; message: string } }>().error.code).toEqual(expect.any(String));
      }
      const foreign = await s.report([{ k: 'script', v: 'https://x.example/a.js' }], { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toMatchObject({ error: { code: 'FORBIDDEN_ORIGIN' } });
      const huge = await ctx.app.inject({
        method: 'POST', url: '/public/found', headers: { 'content-type': 'text/plain', origin: `https://${s.domain.name}` },
        payload: JSON.stringify({ ...valid, page: `https://${s.domain.name}/${'a'.repeat(FOUND_LIMITS.bodyBytes)}` }),
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
      expect((await s.list()).total).toBe(0);
    });

    it(`keeps at most ${FOUND_LIMITS.itemsPerDomain} items per domain; known ones are still counted`, async () => {
      const s = await site(ctx, { permanentScanEnabled: true });
      const per = FOUND_LIMITS.itemsPerReport;
      for (let batch = 0; batch < FOUND_LIMITS.itemsPerDomain / per; batch++) {
        const res = await s.report(Array.from({ length: per }, (_, i) => ({ k: 'cookie', v: `c${batch * per + i}` })));
        expect(res.statusCode).toBe(204);
      }
      expect((await s.list()).total).toBe(FOUND_LIMITS.itemsPerDomain);
      await s.report([{ k: 'cookie', v: 'c0' }, { k: 'cookie', v: 'brand-new' }]);
      expect((await s.list()).total).toBe(FOUND_LIMITS.itemsPerDomain);
      expect((await s.list('?limit=500')).items.find((i) => i.key === 'c0')!.count).toBe(2);
      // Paging and filters.
      const page = await s.list('?kind=cookie&limit=7&offset=14');
      expect(page).toMatchObject({ total: FOUND_LIMITS.itemsPerDomain, limit: 7, offset: 14 });
      expect(page.items).toHaveLength(7);
      expect((await s.list('?kind=script')).total).toBe(0);
    });

    it('never lets one client read or change another client\'s found items', async () => {
      const a = await site(ctx);
      const b = await site(ctx);
      await a.report([{ k: 'script', v: 'https://x.example/a.js' }]);
      const item = (await a.list()).items[0]!;
      const bEmbedding = await b.embedding({ name: 'B' });
      const foreign = [
        ctx.hosting({ method: 'GET', url: `/hosting/api/client/${b.client.id}/domain/${a.domain.id}/found` }),
        ctx.hosting({ method: 'PATCH', url: `${b.base}/found/${item.id}`, payload: { state: 'ignored' } }),
        ctx.hosting({ method: 'PATCH', url: `/hosting/api/client/${b.client.id}/domain/${a.domain.id}/found/${item.id}`, payload: { state: 'ignored' } }),
        ctx.hosting({ method: 'POST', url: `${b.base}/found/${item.id}/adopt`, payload: { embeddingId: bEmbedding } }),
        ctx.hosting({ method: 'POST', url: `${a.base}/found/${item.id}/adopt`, payload: { embeddingId: bEmbedding } }),
      ];
      for (const res of await Promise.all(foreign)) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json<{ error: { code: string } }>().error.code).toMatch(/NOT_FOUND$/);
      }
      expect((await b.list()).total).toBe(0);
      expect((await a.list()).items[0]!.state).toBe('new');
    });

    it('ignores a script (a new configuration revision; blockNewScripts lets it run) and makes it new again', async () => {
      const s = await site(ctx, { recordScriptsOnWebsite: true, blockNewScripts: true });
      await s.report([{ k: 'script', v: 'https://Chat.example/widget.js?key=1' }]);
      const item = (await s.list()).items[0]!;
      const before = await s.revision();
      const res = await ctx.hosting({ method: 'PATCH', url: `${s.base}/found/${item.id}`, payload: { state: 'ignored' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Item>().state).toBe('ignored');
      expect(await s.revision()).toBe(before + 1);
      expect((await s.list('?state=ignored')).total).toBe(1);
      const widget = await ctx.app.inject({
        method: 'GET', url: `/public/app.js?apiKey=${s.client.apiKey}&domain=${s.domain.id}`, headers: { referer: `https://${s.domain.name}/` },
      });
      expect(widget.body).toContain(JSON.stringify('"ig":["chat.example/widget.js"]').slice(1, -1));
      expect(widget.body).toContain('placet.found');
      const bad = await ctx.hosting({ method: 'PATCH', url: `${s.base}/found/${item.id}`, payload: { state: 'adopted' } });
      expect(bad.statusCode).toBe(400);
      await ctx.hosting({ method: 'PATCH', url: `${s.base}/found/${item.id}`, payload: { state: 'new' } });
      expect((await s.list('?state=new')).total).toBe(1);
    });

    it('adopts a script as its host marker and a cookie as an asset of the chosen embedding, once', async () => {
      const s = await site(ctx);
      const embeddingId = await s.embedding({ name: 'Chat' });
      await s.report([{ k: 'script', v: 'https://chat.example/w.js' }, { k: 'cookie', v: 'chat_sid' }, { k: 'iframe', v: 'https://maps.example/embed?q=1' }]);
      const { items } = await s.list();
      for (const item of items) {
        for (let i = 0; i < 2; i++) {
          const res = await ctx.hosting({ method: 'POST', url: `${s.base}/found/${item.id}/adopt`, payload: { embeddingId } });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json<Item>().state).toBe('adopted');
        }
      }
      const embedding = (await ctx.hosting({ method: 'GET', url: `${s.base}/embedding/${embeddingId}` })).json<{
        scriptMarkers: string[]; iframeMarkers: string[]; assets: { name: string; storageType: string }[];
      }>();
      expect(embedding.scriptMarkers).toEqual(['chat.example']);
      expect(embedding.iframeMarkers).toEqual(['maps.example']);
      expect(embedding.assets.map((a) => [a.name, a.storageType])).toEqual([['chat_sid', 'cookie']]);
      const missing = await ctx.hosting({ method: 'POST', url: `${s.base}/found/${items[0]!.id}/adopt`, payload: { embeddingId: 'fffffff' } });
      expect(missing.statusCode).toBe(404);
      // Declared now: the same items reported again are no longer new.
      await s.report([{ k: 'script', v: 'https://chat.example/other.js' }, { k: 'cookie', v: 'chat_sid' }]);
      expect((await s.list('?state=new')).total).toBe(0);
    });
  });

  describe(`${dialect}: found items, limits`, () => {
    const base = testConfig();
    // A clock that stands still: the minute window cannot turn while the test runs.
    const now = new Date();
    const ctx = useApp(dialect, { limits: { ...base.limits, enabled: true } }, { clock: { now: () => now } });

    it(`answers 429 with Retry-After after ${FOUND_LIMITS.reportsPerAddressPerMinute} reports a minute from one address`, async () => {
      const s = await site(ctx);
      const statuses: number[] = [];
      let last;
      for (let i = 0; i <= FOUND_LIMITS.reportsPerAddressPerMinute + 1; i++) {
        last = await s.report([{ k: 'cookie', v: `n${i}` }], { ip: '203.0.113.9' });
        statuses.push(last.statusCode);
      }
      expect(statuses.indexOf(429)).toBe(FOUND_LIMITS.reportsPerAddressPerMinute);
      expect(last!.statusCode).toBe(429);
      expect(last!.headers['retry-after']).toMatch(/^\d+$/);
      expect(last!.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      expect((await s.report([{ k: 'cookie', v: 'other' }], { ip: '203.0.113.10' })).statusCode).toBe(204);
    });

    it(`answers 429 after ${FOUND_LIMITS.reportsPerDomainPerMinute} reports a minute for one domain, whatever the addresses`, async () => {
      const s = await site(ctx);
      const statuses: number[] = [];
      for (let i = 0; i <= FOUND_LIMITS.reportsPerDomainPerMinute; i++) {
        statuses.push((await s.report([{ k: 'cookie', v: `d${i}` }], { ip: `198.18.${i >> 8}.${i & 255}` })).statusCode);
      }
      expect(statuses.indexOf(429)).toBe(FOUND_LIMITS.reportsPerDomainPerMinute);
      // Another domain is not affected.
      const other = await site(ctx);
      expect((await other.report([{ k: 'cookie', v: 'x' }], { ip: '198.18.9.9' })).statusCode).toBe(204);
    }, 60_000);
  });
}

if (DIALECTS.includes('postgres')) {
  describe('postgres: found items with two app instances', () => {
    const ctx = useApp('postgres');

    it('holds the per-domain cap when two processes record reports at the same time', async () => {
      const second = await buildApp({ config: ctx.config, database: ctx.database });
      try {
        const s = await site(ctx, { permanentScanEnabled: true });
        const per = FOUND_LIMITS.itemsPerReport;
        const reports = Array.from({ length: FOUND_LIMITS.itemsPerDomain / per + 4 }, (_, batch) =>
          s.report(Array.from({ length: per }, (_, i) => ({ k: 'cookie', v: `p${batch}-${i}` })), { app: batch % 2 ? second : ctx.app }),
        );
        for (const res of await Promise.all(reports)) expect(res.statusCode, res.body).toBe(204);
        expect((await s.list()).total).toBe(FOUND_LIMITS.itemsPerDomain);
      } finally {
        await second.close();
      }
    });
  });
}
