import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, sendConsent, useApp, type TestContext } from '../../../test/helper.js';
import { appendRecords } from '../consent-ingest/consent-ingest.service.js';
import { canonicalRecordJson } from '../consent-log/consent-log.record.js';

type Rec = { consent: boolean; ucid: string; timestamp: number; purposes: object; embeddings: object; manipulationPrevention: boolean };

const hex = (n: number) => randomBytes(n).toString('hex');

async function setup(ctx: TestContext) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const key = (await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` })).json<{ apiKey: string }>().apiKey;
  const consent = (ucid = hex(32), extra: Record<string, unknown> = {}) => sendConsent(ctx, client, domain, { ucid, ...extra });
  const api = (path: string, apiKey: string | null = key) =>
    ctx.app.inject({ method: 'GET', url: `/api${path}${apiKey === null ? '' : `${path.includes('?') ? '&' : '?'}apiKey=${apiKey}`}` });
  return { client, domain, key, consent, api };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: Domain API`, () => {
    const ctx = useApp(dialect);

    describe('authentication', () => {
      it('answers 401 JSON without a key, with a wrong key and with a replaced key', async () => {
        const s = await setup(ctx);
        for (const res of [await s.api('/test', null), await s.api('/test', ''), await s.api('/domains', `pdk_${hex(32)}`)]) {
          expect(res.statusCode).toBe(401);
          expect(res.json().error.code).toBe('UNAUTHORIZED');
        }
        expect((await s.api('/test')).statusCode).toBe(200);
        // The prefix lookup checks the key concurrently with its first read (deferAuth): still 401 for a key
        // that names no client, even for a ucid that exists.
        const ucid = await s.consent();
        expect((await s.api(`/domains/${s.domain.id}/consents/${ucid}`)).statusCode).toBe(200);
        expect((await s.api(`/domains/${s.domain.id}/consents/${ucid}`, null)).statusCode).toBe(401);
        expect((await s.api(`/domains/${s.domain.id}/consents/${ucid}`, `pdk_${hex(32)}`)).statusCode).toBe(401);
        const replaced = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${s.client.id}/domain-api-key` });
        expect((await s.api('/test')).statusCode).toBe(401);
        expect((await s.api(`/domains/${s.domain.id}/consents`)).statusCode).toBe(401);
        const stale = await s.api(`/domains/${s.domain.id}/consents/${ucid}`);
        expect(stale.statusCode).toBe(401);
        expect(stale.json().error.code).toBe('UNAUTHORIZED');
        expect((await s.api('/test', replaced.json().apiKey)).statusCode).toBe(200);
        expect((await s.api(`/domains/${s.domain.id}/consents/${ucid}`, replaced.json().apiKey)).json()).toHaveLength(1);
      });

      it('GET /api/test names the account and echoes the key', async () => {
        const s = await setup(ctx);
        expect((await s.api('/test')).json()).toEqual({ username: s.client.username, apiKey: s.key });
      });

      it("reaches only its own client's domains", async () => {
        const a = await setup(ctx);
        const b = await setup(ctx);
        await b.consent();
        for (const path of [`/domains/${b.domain.id}/consents`, `/domains/${b.domain.id}/consents/ab`]) {
          const res = await a.api(path);
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('DOMAIN_NOT_FOUND');
        }
        expect((await a.api('/domains')).json().map((d: { id: string }) => d.id)).toEqual([a.domain.id]);
      });
    });

    it('GET /api/domains lists id, name, whiteLabel and the counted widget calls of all months', async () => {
      const s = await setup(ctx);
      const second = await createDomain(ctx, s.client.id, { name: 'shop.example:8443', whitelabel: true });
      await ctx.database.db
        .insertInto('call_counts')
        .values([
          { domain_id: s.domain.id, month: '2026-01', count: 5 },
          { domain_id: s.domain.id, month: '2026-02', count: 7 },
        ])
        .execute();
      expect((await s.api('/domains')).json()).toEqual([
        { id: s.domain.id, name: s.domain.name, whiteLabel: false, viewCount: 12 },
        { id: second.id, name: 'shop.example:8443', whiteLabel: true, viewCount: 0 },
      ]);
    });

    describe('GET /api/domains/:domainId/consents', () => {
      it('lists the current block newest first, each record in the documented shape', async () => {
        const s = await setup(ctx);
        expect((await s.api(`/domains/${s.domain.id}/consents`)).json()).toEqual([]);
        const ucids = [await s.consent(), await s.consent(undefined, { consent: false, button: 'declineAll' }), await s.consent()];
        const res = await s.api(`/domains/${s.domain.id}/consents`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const records = res.json<Rec[]>();
        expect(records.map((r) => r.ucid)).toEqual([...ucids].reverse());
        expect(Object.keys(records[0]!).slice(0, 6)).toEqual(['consent', 'ucid', 'timestamp', 'purposes', 'embeddings', 'manipulationPrevention']);
        expect(records[1]).toMatchObject({
          consent: false,
          ucid: ucids[1],
          timestamp: expect.any(Number),
          purposes: { '41ba25c': 'Technically necessary' },
          embeddings: {},
          manipulationPrevention: true,
        });
      });

      it('hides archived records', async () => {
        const s = await setup(ctx);
        await s.consent();
        await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${s.client.id}/domain/${s.domain.id}/consent-log/archive` });
        const fresh = await s.consent();
        expect((await s.api(`/domains/${s.domain.id}/consents`)).json<Rec[]>().map((r) => r.ucid)).toEqual([fresh]);
      });

      it('streams a block larger than one read page as one JSON array', async () => {
        const s = await setup(ctx);
        const n = 2345;
        const records = Array.from({ length: n }, (_, i) => {
          const ucid = hex(32);
          const text = canonicalRecordJson({
            consent: true, ucid, timestamp: 1_700_000_000 + i, purposes: { '41ba25c': 'x' }, embeddings: {},
            manipulationPrevention: false, button: 'api', lang: 'en', revision: 1, legalRevision: 1,
            themeId: null, gpc: null, dnt: null, v: 1,
          });
          return { domainId: s.domain.id, ucid, ts: 1_700_000_000 + i, text, snapshot: null };
        });
        await appendRecords(ctx.database.db, dialect, 100_000, records, 1_700_000_000);
        const body = (await s.api(`/domains/${s.domain.id}/consents`)).json<Rec[]>();
        expect(body).toHaveLength(n);
        expect(body.map((r) => r.ucid)).toEqual(records.map((r) => r.ucid).reverse());
      });

      it('pages with limit and an opaque cursor in a Link header that leaves out the key', async () => {
        const s = await setup(ctx);
        const ucids: string[] = [];
        for (let i = 0; i < 5; i++) ucids.push(await s.consent());
        const seen: string[] = [];
        let path: string | undefined = `/domains/${s.domain.id}/consents?limit=2`;
        let pages = 0;
        while (path) {
          const res = await s.api(path);
          expect(res.statusCode).toBe(200);
          seen.push(...res.json<Rec[]>().map((r) => r.ucid));
          pages++;
          const link = res.headers.link as string | undefined;
          if (link) expect(link).not.toContain('apiKey');
          path = link ? /^<\/api([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
        }
        expect(pages).toBe(3);
        expect(seen).toEqual([...ucids].reverse());
        for (const bad of ['limit=0', 'limit=10001', 'cursor=!!', `cursor=${Buffer.from('x').toString('base64url')}`]) {
          expect((await s.api(`/domains/${s.domain.id}/consents?${bad}`)).statusCode).toBe(400);
        }
      });
    });

    describe('GET /api/domains/:domainId/consents/:consentId', () => {
      it('applies the prefix rules: unique, full, case-insensitive, collision, no match', async () => {
        const s = await setup(ctx);
        const a = `aaaa${hex(30)}`;
        const b = `aaab${hex(30)}`;
        const c = `c0${hex(31)}`;
        await s.consent(a);
        await s.consent(b);
        await s.consent(c, { consent: false });
        await s.consent(c); // c's history: two records
        const get = async (id: string) => (await s.api(`/domains/${s.domain.id}/consents/${id}`)).json<Rec[]>();
        expect((await get('aaab')).map((r) => r.ucid)).toEqual([b]);
        expect((await get(a)).map((r) => r.ucid)).toEqual([a]);
        expect((await get(a.toUpperCase())).map((r) => r.ucid)).toEqual([a]);
        expect((await get('C0')).map((r) => [r.ucid, r.consent])).toEqual([[c, true], [c, false]]);
        expect(await get('aaa')).toEqual([]); // a and b both start with it
        expect(await get('a')).toEqual([]);
        expect(await get('fff')).toEqual([]);
        expect(await get(`${a}0`.slice(0, 64).replace(/.$/, a.endsWith('0') ? '1' : '0'))).toEqual([]);
        expect((await s.api(`/domains/${s.domain.id}/consents/xyz`)).statusCode).toBe(400);
        expect((await s.api(`/domains/${s.domain.id}/consents/${'a'.repeat(65)}`)).statusCode).toBe(400);
      });

      it('returns a history longer than one read in full, and [] when another ucid follows it', async () => {
        const s = await setup(ctx);
        const long = `dd${hex(31)}`;
        const record = (ucid: string, i: number) => ({
          domainId: s.domain.id, ucid, ts: 1_700_000_000 + i, snapshot: null,
          text: canonicalRecordJson({
            consent: i % 2 === 0, ucid, timestamp: 1_700_000_000 + i, purposes: {}, embeddings: {}, manipulationPrevention: false,
            button: 'api', lang: 'en', revision: 1, legalRevision: 1, themeId: null, gpc: null, dnt: null, v: 1,
          }),
        });
        await appendRecords(ctx.database.db, dialect, 100_000, Array.from({ length: 60 }, (_, i) => record(long, i)), 1_700_000_000);
        const history = (await s.api(`/domains/${s.domain.id}/consents/dd`)).json<Rec[]>();
        expect(history.map((r) => r.timestamp)).toEqual(Array.from({ length: 60 }, (_, i) => 1_700_000_059 - i));
        await appendRecords(ctx.database.db, dialect, 100_000, [record(`dd${'f'.repeat(62)}`, 99)], 1_700_000_000);
        expect((await s.api(`/domains/${s.domain.id}/consents/dd`)).json()).toEqual([]);
        expect((await s.api(`/domains/${s.domain.id}/consents/${long}`)).json()).toHaveLength(60);
      });

      it('looks in the current block only', async () => {
        const s = await setup(ctx);
        const old = await s.consent();
        await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${s.client.id}/domain/${s.domain.id}/consent-log/archive` });
        expect((await s.api(`/domains/${s.domain.id}/consents/${old}`)).json()).toEqual([]);
        await s.consent(old);
        expect((await s.api(`/domains/${s.domain.id}/consents/${old}`)).json()).toHaveLength(1);
      });
    });
  });
}
