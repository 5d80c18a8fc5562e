import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, servedSnapshot, useApp, type TestContext } from '../../../test/helper.js';
import { buildApp } from '../../app.js';
import { checkOrigin, prepareRecord, type ConsentRequest } from './consent-ingest.service.js';
import type { DomainSnapshot } from './consent-ingest.lookups.js';
import { canonicalRecordJson, type ConsentRecord } from '../consent-log/consent-log.record.js';
import { ConsentTokens, loadConsentTokens } from './consent-token.js';

const ucid = () => randomBytes(32).toString('hex');

async function setup(ctx: TestContext, domainName?: string) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id, domainName ? { name: domainName } : {});
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const embedding = async (body: Record<string, unknown>) => {
    const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: body });
    if (res.statusCode !== 201) throw new Error(`embedding: ${res.body}`);
    return res.json<{ id: string }>().id;
  };
  const snapshot = await servedSnapshot(ctx, domain.id);
  const body = (over: Record<string, unknown> = {}) => ({
    apiKey: client.apiKey,
    domain: domain.id,
    ucid: ucid(),
    consent: true,
    embeddings: [],
    manipulationPrevention: true,
    button: 'acceptAll',
    lang: 'en',
    revision: 1,
    legalRevision: 1,
    snapshot,
    ...over,
  });
  const tokens = await loadConsentTokens(ctx.database.db, ctx.config);
  /** Adds the widget token a served widget would carry, unless the body sets `token` itself. */
  const withToken = (payload: unknown) => {
    if (typeof payload !== 'object' || payload === null || 'token' in payload) return payload;
    const p = payload as { domain?: unknown; revision?: unknown };
    if (typeof p.domain !== 'string' || typeof p.revision !== 'number') return payload;
    return { ...payload, token: tokens.mint(p.domain, p.revision, ConsentTokens.issueTime(Math.floor(Date.now() / 1000))) };
  };
  const send = (payload: unknown, headers: Record<string, string> = { origin: `https://${domain.name}` }) =>
    ctx.app.inject({
      method: 'POST',
      url: '/public/consent',
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(withToken(payload)),
    });
  const records = async () =>
    (
      await ctx.database.db
        .selectFrom('consent_records')
        .select('record')
        .where('domain_id', '=', domain.id)
        .orderBy('seq')
        .execute()
    ).map((r) => JSON.parse(r.record) as Record<string, unknown>);
  const themeId = (await ctx.database.db.selectFrom('themes').select('id').where('domain_id', '=', domain.id).executeTakeFirstOrThrow()).id;
  return { client, domain, base, embedding, body, send, records, tokens, withToken, themeId };
}

describe('checkOrigin', () => {
  it.each([
    ['shop.example', 'https://shop.example', undefined, true],
    ['shop.example', 'https://SHOP.example', undefined, true],
    ['shop.example', undefined, 'https://shop.example/cart?x=1', true],
    ['shop.example:8443', 'https://shop.example:8443', undefined, true],
    ['shop.example:443', 'https://shop.example', undefined, true],
    ['shop.example', 'https://shop.example:8443', undefined, false],
    ['shop.example', 'https://www.shop.example', undefined, false],
    ['shop.example', 'https://shop.example.evil.test', undefined, false],
    ['shop.example', 'null', undefined, false],
    ['shop.example', 'ftp://shop.example', undefined, false],
    ['shop.example', undefined, undefined, false],
  ])('%s with Origin %s, Referer %s → %s', (name, origin, referer, ok) => {
    expect(typeof checkOrigin(name, [], origin, referer) === 'object').toBe(ok);
  });

  it.each([
    ['https://www.shop.example', true],
    ['https://shop.example:8443', true],
    ['https://blog.shop.example', true],
    ['https://shop-de.example', true],
    ['https://a.b.shop-de.example', true],
    ['https://evilshop.example', false],
    ['https://shop.example.evil.test', false],
    ['https://other.example', false],
  ])('with consentSharingDomains, Origin %s → %s', (origin, ok) => {
    expect(typeof checkOrigin('www.shop.example', ['shop.example', '.Shop-DE.example'], origin, undefined) === 'object').toBe(ok);
  });
});

describe('prepareRecord: accepted maps kept per snapshot', () => {
  const names: Record<string, string> = { '41ba25c': 'Necessary', '15c61c3': 'Other', a717ff5: 'Statistics' };
  const snapshotWith = (mapsName: string) =>
    ({
      domainId: 'abcdef1', clientApiKey: 'a'.repeat(48), name: 'shop.example', scheme: 'https', revision: 1, legalRevision: 1,
      themeIds: new Set<string>(), activeLocales: new Set<string>(), sharingDomains: [],
      embeddings: new Map([
        ['e000001', { name: mapsName, purpose: '15c61c3', active: true, translatedNames: { de_DE: `${mapsName} (de)` } }],
        ['e000002', { name: 'Stats', purpose: 'a717ff5', active: false, translatedNames: {} }],
      ]),
      purposeNames: () => names,
    }) as unknown as DomainSnapshot;
  const request = (embeddings: string[], lang = 'en'): ConsentRequest => ({
    body: {
      apiKey: 'a'.repeat(48), domain: 'abcdef1', ucid: ucid(), consent: true, embeddings, manipulationPrevention: true,
      button: 'acceptAll', lang, revision: 1, legalRevision: 1, snapshot: 'f'.repeat(64),
    },
    origin: 'https://shop.example',
    referer: undefined,
    ts: 1_764_000_000,
  });
  const prepare = (snapshot: DomainSnapshot, req: ConsentRequest) => {
    const prepared = prepareRecord(snapshot, req, () => true);
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.error.details));
    return prepared.record;
  };

  it('gives each decision the text built from scratch, per language, and follows a new snapshot', () => {
    const snapshot = snapshotWith('Maps');
    for (const lang of ['en', 'de_DE', 'en']) {
      const req = request(['e000001'], lang);
      const record = prepare(snapshot, req);
      const maps = lang === 'de_DE' ? 'Maps (de)' : 'Maps';
      const expected: ConsentRecord = {
        consent: true, ucid: req.body.ucid, timestamp: req.ts,
        purposes: { '41ba25c': 'Necessary', '15c61c3': 'Other' }, embeddings: { e000001: maps },
        manipulationPrevention: true, button: 'acceptAll', lang, revision: 1, legalRevision: 1,
        themeId: null, gpc: null, dnt: null, snapshot: 'f'.repeat(64), v: 2,
      };
      expect(record.text).toBe(canonicalRecordJson(expected));
    }
    // A changed configuration is a new snapshot: nothing kept for the old one applies to it.
    expect(JSON.parse(prepare(snapshotWith('Karten'), request(['e000001'])).text).embeddings).toEqual({ e000001: 'Karten' });
  });

  it('refuses unknown and inactive ids every time, and shares frozen maps only between valid decisions', () => {
    const snapshot = snapshotWith('Maps');
    for (let i = 0; i < 2; i++) {
      const refused = prepareRecord(snapshot, request(['e000001', 'e000002', 'nope']), () => true);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.details?.map((d) => d.field)).toEqual(['body.embeddings.1', 'body.embeddings.2']);
    }
    const a = prepare(snapshot, request(['e000001']));
    const b = prepare(snapshot, request(['e000001']));
    expect(b.facts?.purposes).toBe(a.facts?.purposes);
    expect(Object.isFrozen(a.facts?.embeddings)).toBe(true);
    expect(prepare(snapshot, request([])).facts?.embeddings).toEqual({});
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: POST /public/consent`, () => {
    const ctx = useApp(dialect);

    it('logs a text/plain consent with 204, CORS for the page origin, and the derived record', async () => {
      const s = await setup(ctx);
      const maps = await s.embedding({ name: 'Maps', purpose: '15c61c3' });
      const stats = await s.embedding({ name: 'Stats', purpose: 'a717ff5' });
      const body = s.body({ embeddings: [maps, stats], button: 'save', themeId: s.themeId, gpc: false });
      const res = await s.send(body);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(`https://${s.domain.name}`);
      expect(res.headers.vary).toMatch(/Origin/);
      const [record] = await s.records();
      expect(Object.keys(record!).slice(0, 6)).toEqual(['consent', 'ucid', 'timestamp', 'purposes', 'embeddings', 'manipulationPrevention']);
      expect(record).toEqual({
        consent: true,
        ucid: body.ucid,
        timestamp: expect.any(Number),
        purposes: { '41ba25c': 'Technically necessary', '15c61c3': 'Other', a717ff5: 'Analytics' },
        embeddings: { [maps]: 'Maps', [stats]: 'Stats' },
        manipulationPrevention: true,
        button: 'save',
        lang: 'en',
        revision: 1,
        legalRevision: 1,
        themeId: s.themeId,
        gpc: false,
        dnt: null,
        snapshot: body.snapshot,
        v: 2,
      });
      expect(Math.abs((record!.timestamp as number) - Date.now() / 1000)).toBeLessThan(5);
    });

    it('accepts application/json and a Referer when there is no Origin', async () => {
      const s = await setup(ctx);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/public/consent',
        headers: { referer: `https://${s.domain.name}/page` },
        payload: s.withToken(s.body()) as Record<string, unknown>,
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(await s.records()).toHaveLength(1);
    });

    it('answers a CORS preflight', async () => {
      const res = await ctx.app.inject({
        method: 'OPTIONS',
        url: '/public/consent',
        headers: { origin: 'https://a.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('https://a.example');
      expect(res.headers['access-control-allow-methods']).toBe('POST');
      expect(res.headers['access-control-allow-headers']).toMatch(/content-type/i);
    });

    it('always includes "technically necessary" and names everything in the visitor language', async () => {
      const s = await setup(ctx);
      const ads = await s.embedding({
        name: 'Ads',
        purpose: 'cdcbd7c',
        translations: { de_DE: { name: 'Werbung GmbH' }, fr: { name: '' } },
      });
      await ctx.hosting({
        method: 'POST',
        url: `${s.base}/locale`,
        payload: { name: 'de_DE', purposeNames: { cdcbd7c: 'Reklame' } },
      });
      expect((await s.send(s.body({ consent: false, button: 'declineAll', lang: 'de_DE' }))).statusCode).toBe(204);
      expect((await s.send(s.body({ embeddings: [ads], lang: 'de_DE' }))).statusCode).toBe(204);
      expect((await s.send(s.body({ embeddings: [ads], lang: 'fr' }))).statusCode).toBe(204);
      const [declined, german, french] = await s.records();
      expect(declined).toMatchObject({ consent: false, purposes: { '41ba25c': 'Technisch notwendig' }, embeddings: {} });
      // Stored locale overrides one purpose name; the others fall back to the built-in German texts.
      expect(german).toMatchObject({
        purposes: { '41ba25c': 'Technisch notwendig', cdcbd7c: 'Reklame' },
        embeddings: { [ads]: 'Werbung GmbH' },
      });
      // No stored fr locale: built-in French purpose names; an empty translation falls back to the name.
      expect(french!.embeddings).toEqual({ [ads]: 'Ads' });
      expect(french!.purposes).toEqual({ '41ba25c': expect.not.stringMatching(/^Technically/), cdcbd7c: expect.any(String) });
    });

    it('logs a renamed embedding with its new name at once', async () => {
      const s = await setup(ctx);
      const id = await s.embedding({ name: 'Old name', purpose: '15c61c3' });
      expect((await s.send(s.body({ embeddings: [id] }))).statusCode).toBe(204);
      const put = await ctx.hosting({ method: 'PUT', url: `${s.base}/embedding/${id}`, payload: { name: 'New name' } });
      expect(put.statusCode).toBe(200);
      expect((await s.send(s.body({ embeddings: [id] }))).statusCode).toBe(204);
      expect((await s.records()).map((r) => (r.embeddings as Record<string, string>)[id])).toEqual(['Old name', 'New name']);
    });

    describe('rejects with a 400 JSON error and stores nothing', () => {
      const cases: [string, (s: Awaited<ReturnType<typeof setup>>) => [unknown, Record<string, string>?], string][] = [
        ['a foreign origin', (s) => [s.body(), { origin: 'https://evil.example' }], 'headers.origin'],
        ['a subdomain origin', (s) => [s.body(), { origin: `https://www.${s.domain.name}` }], 'headers.origin'],
        ['no Origin and no Referer', (s) => [s.body(), {}], 'headers.origin'],
        ['an unknown embedding', (s) => [s.body({ embeddings: ['0badbad'] })], 'body.embeddings.0'],
        ['an upper-case ucid', (s) => [s.body({ ucid: 'A'.repeat(64) })], 'body.ucid'],
        ['a short ucid', (s) => [s.body({ ucid: 'abc' })], 'body.ucid'],
        ['a wrong apiKey', (s) => [s.body({ apiKey: 'f'.repeat(48) })], 'body.domain'],
        ['an unknown domain', (s) => [s.body({ domain: 'fffffff' })], 'body.domain'],
        ['an unknown button', (s) => [s.body({ button: 'maybe' })], 'body.button'],
        ['a missing consent flag', (s) => [s.body({ consent: undefined })], 'body.consent'],
        ['too many embeddings', (s) => [s.body({ embeddings: Array(501).fill('abcdef0') })], 'body.embeddings'],
        ['an oversized body', (s) => [{ ...s.body(), pad: 'x'.repeat(17_000) }], 'body'],
        // The route skips the NUL guard (config.nulSafe): its own checks must keep NUL out.
        ['a NUL in an embedding id', (s) => [s.body({ embeddings: ['abc\u0000def'] })], 'body.embeddings.0'],
        ['a NUL in the language', (s) => [s.body({ lang: 'de\u0000' })], 'body.lang'],
        ['a NUL in the ucid', (s) => [s.body({ ucid: `${'a'.repeat(63)}\u0000` })], 'body.ucid'],
        ['malformed JSON', () => ['{"apiKey": '], ''],
        ['an empty body', () => [''], ''],
      ];
      it.each(cases)('%s', async (_name, make, field) => {
        const s = await setup(ctx);
        const [payload, headers] = make(s);
        const res = await s.send(payload, headers ?? { origin: `https://${s.domain.name}` });
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        const error = res.json<{ error: { code: string; details?: { field: string }[] } }>().error;
        if (field !== '') expect(error.details?.map((d) => d.field)).toContain(field);
        expect(await s.records()).toEqual([]);
      });

      it('names the unknown embedding and does not reveal whether the key or the domain was wrong', async () => {
        const s = await setup(ctx);
        const other = await setup(ctx);
        const known = await s.embedding({ name: 'Known', purpose: '15c61c3' });
        const foreign = await other.embedding({ name: 'Foreign', purpose: '15c61c3' });
        const res = await s.send(s.body({ embeddings: [known, foreign] }));
        // The origin was valid, so the page may read the error.
        expect(res.headers['access-control-allow-origin']).toBe(`https://${s.domain.name}`);
        expect(res.json().error).toMatchObject({
          code: 'CONSENT_INVALID',
          details: [{ field: 'body.embeddings.1', message: `unknown embedding "${foreign}"` }],
        });
        const wrongKey = await s.send(s.body({ apiKey: other.client.apiKey }));
        const wrongDomain = await s.send(s.body({ domain: other.domain.id }));
        expect(wrongKey.json()).toEqual(wrongDomain.json());
        expect(await s.records()).toEqual([]);
      });
    });

    it('chains 300 concurrent consents of two domains without gaps', async () => {
      const a = await setup(ctx);
      const b = await setup(ctx);
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? b : a)).map((s) => s.send(s.body())),
      );
      expect(results.every((r) => r.statusCode === 204)).toBe(true);
      for (const [s, n] of [[a, 200], [b, 100]] as const) {
        const seqs = await ctx.database.db
          .selectFrom('consent_records')
          .select('seq')
          .where('domain_id', '=', s.domain.id)
          .orderBy('seq')
          .execute();
        expect(seqs.map((r) => Number(r.seq))).toEqual(Array.from({ length: n }, (_, i) => i + 1));
        const verify = await ctx.hosting({ method: 'GET', url: `${s.base}/consent-log/verify` });
        expect(verify.json()).toMatchObject({ ok: true, checkedRecords: n, lastSeq: n, firstMismatch: null });
      }
    });

    it('keeps one gapless chain when two processes write to the same domain at once', async () => {
      const s = await setup(ctx);
      // A second app on the same database stands in for a second process: its own queue and head cache.
      const other = await buildApp({ config: ctx.config, database: ctx.database, migrate: false });
      try {
        const send = (app: typeof other, i: number) =>
          app.inject({
            method: 'POST',
            url: '/public/consent',
            headers: { 'content-type': 'text/plain', origin: `https://${s.domain.name}` },
            payload: JSON.stringify(s.withToken(s.body({ button: i % 2 === 0 ? 'acceptAll' : 'save' }))),
          });
        for (let round = 0; round < 3; round++) {
          const results = await Promise.all(Array.from({ length: 80 }, (_, i) => send(i % 2 === 0 ? ctx.app : other, i)));
          expect(results.map((r) => r.statusCode)).toEqual(Array(80).fill(204));
        }
        await ctx.hosting({ method: 'POST', url: `${s.base}/consent-log/archive` });
        expect((await send(other, 0)).statusCode).toBe(204);
        expect((await send(ctx.app, 1)).statusCode).toBe(204);
      } finally {
        await other.close();
      }
      const verify = await ctx.hosting({ method: 'GET', url: `${s.base}/consent-log/verify` });
      expect(verify.json()).toMatchObject({ ok: true, checkedRecords: 242, lastSeq: 242 });
    });
  });
}
