import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp, type TestContext } from '../../../test/helper.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';
import type { Asset } from './assets.schemas.js';

const HEX7 = /^[0-9a-f]{7}$/;
const ANALYTICS = 'a717ff5';
const STORAGE_TYPES = ['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other'];

const embeddingsUrl = (c: string, d: string) => `/hosting/api/client/${c}/domain/${d}/embedding`;

interface Scope {
  clientId: string;
  domainId: string;
  embeddingId: string;
  /** …/embedding/{embeddingId}/asset */
  url: string;
  embedding: Embedding;
}

async function embeddingIn(
  ctx: TestContext,
  clientId: string,
  domainId: string,
  body: Record<string, unknown> = {},
): Promise<Scope> {
  const res = await ctx.hosting({
    method: 'POST',
    url: embeddingsUrl(clientId, domainId),
    payload: { name: 'Google Analytics', purpose: ANALYTICS, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create embedding: ${res.statusCode} ${res.body}`);
  const embedding = res.json<Embedding>();
  return {
    clientId,
    domainId,
    embeddingId: embedding.id,
    url: `${embeddingsUrl(clientId, domainId)}/${embedding.id}/asset`,
    embedding,
  };
}

async function scope(ctx: TestContext, body: Record<string, unknown> = {}): Promise<Scope> {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  return embeddingIn(ctx, client.id, domain.id, body);
}

async function createAsset(ctx: TestContext, s: Scope, body: Record<string, unknown> = {}): Promise<Asset> {
  const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '_ga', ...body } });
  if (res.statusCode !== 201) throw new Error(`createAsset: ${res.statusCode} ${res.body}`);
  return res.json<Asset>();
}

async function listAssets(ctx: TestContext, s: Scope): Promise<Asset[]> {
  const res = await ctx.hosting({ method: 'GET', url: s.url });
  expect(res.statusCode).toBe(200);
  return res.json<Asset[]>();
}

async function revisions(ctx: TestContext, domainId: string) {
  const row = await ctx.database.db
    .selectFrom('domains')
    .select(['config_revision', 'legal_revision'])
    .where('id', '=', domainId)
    .executeTakeFirstOrThrow();
  return { config: Number(row.config_revision), legal: Number(row.legal_revision) };
}

async function assetRowCount(ctx: TestContext, embeddingId: string): Promise<number> {
  const rows = await ctx.database.db.selectFrom('assets').select('id').where('embedding_id', '=', embeddingId).execute();
  return rows.length;
}

function expectValidationError(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.code).toBe('VALIDATION_FAILED');
  const fields = ((res.json().error.details ?? []) as { field?: string }[]).map((d) => d.field ?? '');
  expect(fields.some((f) => f.startsWith(`body.${field}`)), `details ${JSON.stringify(fields)}`).toBe(true);
}

const INVALID: [string, unknown][] = [
  ['name', ''],
  ['name', 'x'.repeat(201)],
  ['name', 5],
  ['dynamic', 'yes'],
  ['storageType', 'cookieStore'],
  ['storageType', 'Cookie'],
  ['lifetime', 'x'.repeat(201)],
  ['lifetime', 365],
  ['description', 'x'.repeat(5001)],
  ['translations', { german: { lifetime: '2 Jahre' } }],
  ['translations', { 'de-DE': { lifetime: '2 Jahre' } }],
  ['translations', { de_DE: '2 Jahre' }],
  ['translations', { de_DE: { lifetime: 2 } }],
  ['translations', { de_DE: { description: ['Kennung'] } }],
  ['translations', []],
];

for (const dialect of DIALECTS) {
  describe(`${dialect}: assets`, () => {
    const ctx = useApp(dialect);

    describe('POST …/embedding/:embeddingId/asset', () => {
      it('creates an asset with a 7-hex id and the given fields', async () => {
        const s = await scope(ctx);
        const body = {
          name: '_ga',
          storageType: 'cookie',
          lifetime: '2 years',
          description: 'Distinguishes users',
          translations: { de_DE: { lifetime: '2 Jahre', description: 'Unterscheidet Nutzer' }, fr: { lifetime: '2 ans' } },
        };
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: body });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({ id: expect.stringMatching(HEX7), dynamic: false, ...body });
        const read = await ctx.hosting({ method: 'GET', url: `${s.url}/${res.json().id}` });
        expect(read.statusCode).toBe(200);
        expect(read.json()).toEqual(res.json());
      });

      it('fills in the defaults', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '_gid' } });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({
          id: expect.stringMatching(HEX7),
          name: '_gid',
          dynamic: false,
          storageType: 'cookie',
          lifetime: '',
          description: '',
          translations: {},
        });
      });

      it('makes a * name dynamic by default, keeps an explicit dynamic true, and refuses dynamic false', async () => {
        const s = await scope(ctx);
        expect((await createAsset(ctx, s, { name: '_pk_id.*' })).dynamic).toBe(true);
        expect((await createAsset(ctx, s, { name: '_pk_ses.*', dynamic: true })).dynamic).toBe(true);
        expect((await createAsset(ctx, s, { name: '_hj', dynamic: true })).dynamic).toBe(true);
        const r0 = await revisions(ctx, s.domainId);
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '_ga_*', dynamic: false } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(res.json().error.details).toEqual([{ field: 'body.dynamic', message: expect.any(String) }]);
        expect((await listAssets(ctx, s)).map((a) => a.name)).toEqual(['_pk_id.*', '_pk_ses.*', '_hj']);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it.each(STORAGE_TYPES)('accepts the storage type %s', async (storageType) => {
        const s = await scope(ctx);
        expect((await createAsset(ctx, s, { storageType })).storageType).toBe(storageType);
      });

      it.each(INVALID)('rejects %s = %j with a detail naming the field and stores nothing', async (field, value) => {
        const s = await scope(ctx, { assets: [{ name: '_existing' }] });
        const r0 = await revisions(ctx, s.domainId);
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '_ga', [field]: value } });
        expectValidationError(res, field);
        expect(await listAssets(ctx, s)).toEqual(s.embedding.assets);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it('requires a name', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { storageType: 'cookie' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details).toEqual([{ field: 'body.name', message: 'is required' }]);
        expect(await listAssets(ctx, s)).toEqual([]);
      });

      it('answers 404 EMBEDDING_NOT_FOUND for an unknown embedding', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: `${embeddingsUrl(s.clientId, s.domainId)}/0000000/asset`,
          payload: { name: '_ga' },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('EMBEDDING_NOT_FOUND');
      });

      it('requires the Hosting API key', async () => {
        const s = await scope(ctx);
        const res = await ctx.app.inject({ method: 'POST', url: s.url, payload: { name: '_ga' } });
        expect(res.statusCode).toBe(401);
        expect(await listAssets(ctx, s)).toEqual([]);
      });
    });

    describe('GET', () => {
      it('lists the embedding\'s assets in written order, after those created with the embedding', async () => {
        const s = await scope(ctx, { assets: [{ name: '_first' }, { name: '_second' }] });
        const other = await embeddingIn(ctx, s.clientId, s.domainId, { assets: [{ name: '_other' }] });
        const third = await createAsset(ctx, s, { name: '_third' });
        const fourth = await createAsset(ctx, s, { name: '_fourth' });
        const list = await listAssets(ctx, s);
        expect(list).toEqual([...s.embedding.assets, third, fourth]);
        expect(await listAssets(ctx, other)).toEqual(other.embedding.assets);
        const embedding = await ctx.hosting({ method: 'GET', url: `${embeddingsUrl(s.clientId, s.domainId)}/${s.embeddingId}` });
        expect(embedding.json().assets).toEqual(list);
      });

      it('lists nothing for an embedding without assets, and 404 for an unknown embedding', async () => {
        const s = await scope(ctx);
        expect(await listAssets(ctx, s)).toEqual([]);
        const res = await ctx.hosting({ method: 'GET', url: `${embeddingsUrl(s.clientId, s.domainId)}/0000000/asset` });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('EMBEDDING_NOT_FOUND');
        const noDomain = await ctx.hosting({ method: 'GET', url: `${embeddingsUrl(s.clientId, '0000000')}/${s.embeddingId}/asset` });
        expect(noDomain.statusCode).toBe(404);
      });

      it('reads one asset, and answers 404 ASSET_NOT_FOUND for an unknown one', async () => {
        const s = await scope(ctx);
        const asset = await createAsset(ctx, s, { name: '_ga', translations: { de_DE: { lifetime: '2 Jahre', description: 'Kennung' } } });
        const read = await ctx.hosting({ method: 'GET', url: `${s.url}/${asset.id}` });
        expect(read.statusCode).toBe(200);
        expect(read.json()).toEqual(asset);
        expect(read.json().translations).toEqual({ de_DE: { lifetime: '2 Jahre', description: 'Kennung' } });
        const missing = await ctx.hosting({ method: 'GET', url: `${s.url}/0000000` });
        expect(missing.statusCode).toBe(404);
        expect(missing.json().error.code).toBe('ASSET_NOT_FOUND');
      });
    });

    describe('PUT', () => {
      it('merges: omitted fields keep their value', async () => {
        const s = await scope(ctx);
        const asset = await createAsset(ctx, s, {
          name: '_ga',
          lifetime: '2 years',
          description: 'Distinguishes users',
          storageType: 'cookie',
          translations: { de_DE: { lifetime: '2 Jahre', description: 'Unterscheidet Nutzer' } },
        });
        const url = `${s.url}/${asset.id}`;
        const res = await ctx.hosting({ method: 'PUT', url, payload: { lifetime: '13 months' } });
        expect(res.statusCode).toBe(200);
        const expected = { ...asset, lifetime: '13 months' };
        expect(res.json()).toEqual(expected);
        expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual(expected);
      });

      it('replaces the translations map as a whole and renames', async () => {
        const s = await scope(ctx);
        const asset = await createAsset(ctx, s, { translations: { de_DE: { lifetime: '2 Jahre' }, fr: { lifetime: '2 ans' } } });
        const url = `${s.url}/${asset.id}`;
        const res = await ctx.hosting({
          method: 'PUT',
          url,
          payload: { name: '_ga_*', dynamic: true, translations: { en_US: { lifetime: '2 years', description: 'Id' } } },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          ...asset,
          name: '_ga_*',
          dynamic: true,
          translations: { en_US: { lifetime: '2 years', description: 'Id' } },
        });
        expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual(res.json());
      });

      it('keeps the asset\'s place in the list', async () => {
        const s = await scope(ctx, { assets: [{ name: '_a' }, { name: '_b' }, { name: '_c' }] });
        const b = s.embedding.assets[1]!;
        await ctx.hosting({ method: 'PUT', url: `${s.url}/${b.id}`, payload: { description: 'changed' } });
        expect((await listAssets(ctx, s)).map((a) => a.name)).toEqual(['_a', '_b', '_c']);
      });

      it('refuses dynamic false for a * name and changes nothing', async () => {
        const s = await scope(ctx);
        const asset = await createAsset(ctx, s, { name: '_pk_id.*' });
        const url = `${s.url}/${asset.id}`;
        const res = await ctx.hosting({ method: 'PUT', url, payload: { dynamic: false, description: 'x' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details).toEqual([{ field: 'body.dynamic', message: expect.any(String) }]);
        expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual(asset);
      });

      it.each(INVALID)('rejects %s = %j and changes nothing', async (field, value) => {
        const s = await scope(ctx);
        const asset = await createAsset(ctx, s, { description: 'kept' });
        const r0 = await revisions(ctx, s.domainId);
        const url = `${s.url}/${asset.id}`;
        const res = await ctx.hosting({ method: 'PUT', url, payload: { description: 'changed', [field]: value } });
        expectValidationError(res, field);
        expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual(asset);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it('answers 404 ASSET_NOT_FOUND for an unknown asset and EMBEDDING_NOT_FOUND for an unknown embedding', async () => {
        const s = await scope(ctx);
        const asset = await createAsset(ctx, s);
        const res = await ctx.hosting({ method: 'PUT', url: `${s.url}/0000000`, payload: { description: 'x' } });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('ASSET_NOT_FOUND');
        const noEmbedding = await ctx.hosting({
          method: 'PUT',
          url: `${embeddingsUrl(s.clientId, s.domainId)}/0000000/asset/${asset.id}`,
          payload: { description: 'x' },
        });
        expect(noEmbedding.statusCode).toBe(404);
        expect(noEmbedding.json().error.code).toBe('EMBEDDING_NOT_FOUND');
      });
    });

    describe('DELETE', () => {
      it('deletes an asset, then answers 404', async () => {
        const s = await scope(ctx, { assets: [{ name: '_keep1' }, { name: '_gone' }, { name: '_keep2' }] });
        const [keep1, gone, keep2] = s.embedding.assets;
        const url = `${s.url}/${gone!.id}`;
        const res = await ctx.hosting({ method: 'DELETE', url });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        const read = await ctx.hosting({ method: 'GET', url });
        expect(read.statusCode).toBe(404);
        expect(read.json().error.code).toBe('ASSET_NOT_FOUND');
        const again = await ctx.hosting({ method: 'DELETE', url });
        expect(again.statusCode).toBe(404);
        expect(again.json().error.code).toBe('ASSET_NOT_FOUND');
        expect(await listAssets(ctx, s)).toEqual([keep1, keep2]);
        expect(await assetRowCount(ctx, s.embeddingId)).toBe(2);
        const added = await createAsset(ctx, s, { name: '_new' });
        expect(await listAssets(ctx, s)).toEqual([keep1, keep2, added]);
      });
    });

    describe('tenant isolation', () => {
      it('never shows or changes the assets of client B\'s domain under client A', async () => {
        const a = await scope(ctx);
        const b = await scope(ctx, { assets: [{ name: '_b_only', description: 'b-only secret' }] });
        const bAsset = b.embedding.assets[0]!;
        const rb = await revisions(ctx, b.domainId);
        const foreign = `${embeddingsUrl(a.clientId, b.domainId)}/${b.embeddingId}/asset`;
        const planted = `${embeddingsUrl(a.clientId, a.domainId)}/${b.embeddingId}/asset`;
        for (const base of [foreign, planted]) {
          const url = `${base}/${bAsset.id}`;
          for (const res of [
            await ctx.hosting({ method: 'GET', url: base }),
            await ctx.hosting({ method: 'POST', url: base, payload: { name: '_planted' } }),
            await ctx.hosting({ method: 'GET', url }),
            await ctx.hosting({ method: 'PUT', url, payload: { description: 'hijacked' } }),
            await ctx.hosting({ method: 'DELETE', url }),
          ]) {
            expect(res.statusCode).toBe(404);
            expect(res.body).not.toContain('b-only');
            expect(res.body).not.toContain('_b_only');
          }
        }
        // A's own embedding with B's asset id.
        const own = `${a.url}/${bAsset.id}`;
        for (const res of [
          await ctx.hosting({ method: 'GET', url: own }),
          await ctx.hosting({ method: 'PUT', url: own, payload: { description: 'hijacked' } }),
          await ctx.hosting({ method: 'DELETE', url: own }),
        ]) {
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('ASSET_NOT_FOUND');
        }
        expect(await listAssets(ctx, b)).toEqual([bAsset]);
        expect(await listAssets(ctx, a)).toEqual([]);
        expect(await revisions(ctx, b.domainId)).toEqual(rb);
      });

      it('answers 404 EMBEDDING_NOT_FOUND for an embedding of domain X under domain Y of the same client', async () => {
        const x = await scope(ctx, { assets: [{ name: '_x_only' }] });
        const yDomain = await createDomain(ctx, x.clientId);
        const y = await embeddingIn(ctx, x.clientId, yDomain.id);
        const xAsset = x.embedding.assets[0]!;
        const rx = await revisions(ctx, x.domainId);
        const ry = await revisions(ctx, y.domainId);
        const base = `${embeddingsUrl(x.clientId, y.domainId)}/${x.embeddingId}/asset`;
        const url = `${base}/${xAsset.id}`;
        for (const res of [
          await ctx.hosting({ method: 'GET', url: base }),
          await ctx.hosting({ method: 'POST', url: base, payload: { name: '_planted' } }),
          await ctx.hosting({ method: 'PUT', url, payload: { description: 'moved' } }),
          await ctx.hosting({ method: 'DELETE', url }),
        ]) {
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('EMBEDDING_NOT_FOUND');
          expect(res.body).not.toContain('_x_only');
        }
        const get = await ctx.hosting({ method: 'GET', url });
        expect(get.statusCode).toBe(404);
        expect(get.body).not.toContain('_x_only');
        expect(await listAssets(ctx, x)).toEqual([xAsset]);
        expect(await listAssets(ctx, y)).toEqual([]);
        expect(await revisions(ctx, x.domainId)).toEqual(rx);
        expect(await revisions(ctx, y.domainId)).toEqual(ry);
      });

      it('answers 404 ASSET_NOT_FOUND for an asset of embedding E1 under embedding E2', async () => {
        const e1 = await scope(ctx, { assets: [{ name: '_e1_only', description: 'first' }] });
        const e2 = await embeddingIn(ctx, e1.clientId, e1.domainId, { name: 'Other', assets: [{ name: '_e2' }] });
        const e1Asset = e1.embedding.assets[0]!;
        const r0 = await revisions(ctx, e1.domainId);
        const url = `${e2.url}/${e1Asset.id}`;
        for (const res of [
          await ctx.hosting({ method: 'GET', url }),
          await ctx.hosting({ method: 'PUT', url, payload: { description: 'moved' } }),
          await ctx.hosting({ method: 'DELETE', url }),
        ]) {
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('ASSET_NOT_FOUND');
          expect(res.body).not.toContain('_e1_only');
        }
        expect(await listAssets(ctx, e1)).toEqual([e1Asset]);
        expect(await listAssets(ctx, e2)).toEqual(e2.embedding.assets);
        expect(await revisions(ctx, e1.domainId)).toEqual(r0);
      });
    });

    describe('revisions', () => {
      const delta = async (s: Scope, action: () => Promise<LightMyRequestResponse>) => {
        const r0 = await revisions(ctx, s.domainId);
        const res = await action();
        expect(res.statusCode, res.body).toBeLessThan(300);
        const r1 = await revisions(ctx, s.domainId);
        return { config: r1.config - r0.config, legal: r1.legal - r0.legal };
      };
      const post = (s: Scope, payload: Record<string, unknown>) => () =>
        ctx.hosting({ method: 'POST', url: s.url, payload });
      const put = (s: Scope, id: string, payload: Record<string, unknown>) => () =>
        ctx.hosting({ method: 'PUT', url: `${s.url}/${id}`, payload });
      const del = (s: Scope, id: string) => () => ctx.hosting({ method: 'DELETE', url: `${s.url}/${id}` });

      it('adding or deleting an asset of an active embedding raises the legal revision', async () => {
        const s = await scope(ctx);
        expect(await delta(s, post(s, { name: '_ga' }))).toEqual({ config: 1, legal: 1 });
        const [asset] = await listAssets(ctx, s);
        expect(await delta(s, del(s, asset!.id))).toEqual({ config: 1, legal: 1 });
      });

      it('adding or deleting an asset of an inactive embedding raises the configuration revision only', async () => {
        const s = await scope(ctx, { active: false });
        expect(await delta(s, post(s, { name: '_ga' }))).toEqual({ config: 1, legal: 0 });
        const [asset] = await listAssets(ctx, s);
        expect(await delta(s, del(s, asset!.id))).toEqual({ config: 1, legal: 0 });
      });

      it.each([
        ['name', '_ga_new'],
        ['description', 'Distinguishes users'],
        ['storageType', 'localStorage'],
        ['lifetime', '2 years'],
        ['translations', { de_DE: { lifetime: '2 Jahre' } }],
        ['translations', { de_DE: { description: 'Kennung' } }],
      ])('editing %s of an asset of an active embedding raises the legal revision', async (field, value) => {
        const s = await scope(ctx, { assets: [{ name: '_ga' }] });
        const asset = s.embedding.assets[0]!;
        expect(await delta(s, put(s, asset.id, { [field]: value }))).toEqual({ config: 1, legal: 1 });
      });

      it('editing only dynamic of an asset of an active embedding raises the configuration revision only', async () => {
        const s = await scope(ctx, { assets: [{ name: '_ga' }] });
        expect(await delta(s, put(s, s.embedding.assets[0]!.id, { dynamic: true }))).toEqual({ config: 1, legal: 0 });
      });

      it.each([
        ['description', 'Distinguishes users'],
        ['name', '_ga_new'],
        ['lifetime', '2 years'],
      ])('editing %s of an asset of an inactive embedding raises the configuration revision only', async (field, value) => {
        const s = await scope(ctx, { active: false, assets: [{ name: '_ga' }] });
        expect(await delta(s, put(s, s.embedding.assets[0]!.id, { [field]: value }))).toEqual({ config: 1, legal: 0 });
      });

      it('an edit that changes nothing raises no revision', async () => {
        const s = await scope(ctx, {
          assets: [{ name: '_ga', lifetime: '2 years', translations: { de_DE: { lifetime: '2 Jahre', description: 'Id' } } }],
        });
        const asset = s.embedding.assets[0]!;
        expect(await delta(s, put(s, asset.id, {}))).toEqual({ config: 0, legal: 0 });
        const { id: _id, ...same } = asset;
        expect(await delta(s, put(s, asset.id, same))).toEqual({ config: 0, legal: 0 });
        expect(
          await delta(s, put(s, asset.id, { translations: { de_DE: { description: 'Id', lifetime: '2 Jahre' } } })),
        ).toEqual({ config: 0, legal: 0 });
      });

      it('a refused or unknown change raises no revision', async () => {
        const s = await scope(ctx, { assets: [{ name: '_ga' }] });
        const r0 = await revisions(ctx, s.domainId);
        await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '' } });
        await ctx.hosting({ method: 'PUT', url: `${s.url}/${s.embedding.assets[0]!.id}`, payload: { storageType: 'x' } });
        await ctx.hosting({ method: 'PUT', url: `${s.url}/0000000`, payload: { description: 'x' } });
        await ctx.hosting({ method: 'DELETE', url: `${s.url}/0000000` });
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });
    });

    describe('limits', () => {
      it('refuses the 201st asset of an embedding with RESOURCE_LIMIT_REACHED', async () => {
        const names = Array.from({ length: 200 }, (_, i) => `_c${i}`);
        const s = await scope(ctx, { assets: names.map((name) => ({ name })) });
        expect(s.embedding.assets).toHaveLength(200);
        const r0 = await revisions(ctx, s.domainId);
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '_one_too_many' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('RESOURCE_LIMIT_REACHED');
        expect(await assetRowCount(ctx, s.embeddingId)).toBe(200);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
        await ctx.hosting({ method: 'DELETE', url: `${s.url}/${s.embedding.assets[0]!.id}` });
        await createAsset(ctx, s, { name: '_fits_again' });
        expect(await assetRowCount(ctx, s.embeddingId)).toBe(200);
      });

      it('holds the limit under concurrent creation', async () => {
        const s = await scope(ctx, { assets: Array.from({ length: 198 }, (_, i) => ({ name: `_c${i}` })) });
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) => ctx.hosting({ method: 'POST', url: s.url, payload: { name: `_race${i}` } })),
        );
        expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
        expect(results.filter((r) => r.statusCode === 400)).toHaveLength(4);
        expect(await assetRowCount(ctx, s.embeddingId)).toBe(200);
      });
    });
  });
}
