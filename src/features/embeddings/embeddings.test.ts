import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp, type TestContext } from '../../../test/helper.js';
import type { Embedding } from './embeddings.schemas.js';

const HEX7 = /^[0-9a-f]{7}$/;
const ANALYTICS = 'a717ff5';
const PURPOSE_IDS = ['41ba25c', 'cdcbd7c', 'a717ff5', '7c19e32', '6cd2721', '15c61c3'];
const GOOGLE_CONSENT_TYPES = [
  'ad_storage',
  'analytics_storage',
  'ad_user_data',
  'ad_personalization',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
];

const embeddingsUrl = (c: string, d: string) => `/hosting/api/client/${c}/domain/${d}/embedding`;
const assetsUrl = (c: string, d: string, e: string) => `${embeddingsUrl(c, d)}/${e}/asset`;

interface Scope {
  clientId: string;
  domainId: string;
  url: string;
}

async function scope(ctx: TestContext): Promise<Scope> {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  return { clientId: client.id, domainId: domain.id, url: embeddingsUrl(client.id, domain.id) };
}

async function createEmbedding(ctx: TestContext, s: Scope, body: Record<string, unknown> = {}): Promise<Embedding> {
  const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: 'Matomo', purpose: ANALYTICS, ...body } });
  if (res.statusCode !== 201) throw new Error(`createEmbedding: ${res.statusCode} ${res.body}`);
  return res.json<Embedding>();
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

async function allAssetCount(ctx: TestContext): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('assets')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function fieldsOf(res: LightMyRequestResponse): string[] {
  return ((res.json().error?.details ?? []) as { field?: string }[]).map((d) => d.field ?? '');
}

function expectValidationError(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.code).toBe('VALIDATION_FAILED');
  const fields = fieldsOf(res);
  expect(fields.some((f) => f.startsWith(`body.${field}`)), `details ${JSON.stringify(fields)}`).toBe(true);
}

/** Invalid values for create and update, each refused with a detail naming its field. */
const INVALID: [string, unknown][] = [
  ['purpose', 'abcdef0'],
  ['purpose', 'analytics'],
  ['purpose', ''],
  ['name', 'x'.repeat(201)],
  ['name', ''],
  ['active', 'true'],
  ['googleConsentMode', ['ad_storage', 'wait_for_update']],
  ['googleConsentMode', ['ad_storage', 'ad_storage']],
  ['googleConsentMode', 'ad_storage'],
  ['translations', { german: { description: 'Beschreibung' } }],
  ['translations', { 'de-DE': { description: 'Beschreibung' } }],
  ['translations', { de_DE: { description: 5 } }],
  ['translations', { de_DE: 'Beschreibung' }],
  ['translations', { de_DE: { privacyPolicyUrl: 'ftp://example.com/privacy' } }],
  ['privacyPolicyUrl', 'ftp://example.com/privacy'],
  ['privacyPolicyUrl', 'javascript:alert(1)'],
  ['privacyPolicyUrl', 'example.com/privacy'],
  ['scriptMarkers', Array.from({ length: 101 }, (_, i) => `marker${i}`)],
  ['scriptMarkers', ['']],
  ['scriptLoaderGroup', 'has space'],
  ['hideIframesUntilConsent', 1],
  ['excludeUrlsMode', 'only'],
  ['tcfVendor', '755'],
  ['tcfVendor', 0],
  ['tcfPurposes', ['1']],
  ['assets', [{ name: '_ga', storageType: 'cookieStore' }]],
  ['assets', [{ name: '' }]],
  ['assets', [{ storageType: 'cookie' }]],
  ['assets', [{ name: '_ga', dynamic: 'no' }]],
  ['assets', 'none'],
];

for (const dialect of DIALECTS) {
  describe(`${dialect}: embeddings`, () => {
    const ctx = useApp(dialect);

    describe('POST /client/:clientId/domain/:domainId/embedding', () => {
      it('creates an active embedding with a 7-hex id, every default field and no assets', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: { name: 'Matomo', purpose: ANALYTICS } });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({
          id: expect.stringMatching(HEX7),
          name: 'Matomo',
          active: true,
          purpose: ANALYTICS,
          vendor: '',
          scriptHtmlCode: '',
          scriptLoaderGroup: '',
          scriptMarkers: [],
          iframeMarkers: [],
          hideIframesUntilConsent: false,
          excludeUrlsMode: 'exclude',
          excludeFromUrls: [],
          description: '',
          privacyPolicyUrl: '',
          whatDataIsCollected: '',
          purposeOfDataCollection: '',
          legalBasis: '',
          placeOfProcessing: '',
          translations: {},
          tcfVendor: null,
          tcfPurposes: [],
          tcfSpecialFeatures: [],
          googleConsentMode: [],
          assets: [],
        });
        const read = await ctx.hosting({ method: 'GET', url: `${s.url}/${res.json().id}` });
        expect(read.statusCode).toBe(200);
        expect(read.json()).toEqual(res.json());
      });

      it('stores every given field and reads it back', async () => {
        const s = await scope(ctx);
        const body = {
          name: 'YouTube',
          purpose: '6cd2721',
          active: false,
          vendor: 'Google Ireland Ltd.',
          scriptHtmlCode: '<script src="https://www.youtube.com/iframe_api"></script>',
          scriptLoaderGroup: 'yt:video_1',
          scriptMarkers: ['youtube.com/iframe_api'],
          iframeMarkers: ['youtube.com', 'youtube-nocookie.com'],
          hideIframesUntilConsent: true,
          excludeUrlsMode: 'include',
          excludeFromUrls: ['https://site.example/videos/*'],
          description: 'Video platform',
          privacyPolicyUrl: 'https://policies.google.com/privacy',
          whatDataIsCollected: 'IP address',
          purposeOfDataCollection: 'Showing videos',
          legalBasis: 'Art. 6 (1) a GDPR',
          placeOfProcessing: 'Ireland',
          translations: {
            de_DE: { name: 'YouTube-Videos', description: 'Videoplattform', blockedContentTitle: 'Video gesperrt' },
            fr: { description: 'Plateforme vidéo' },
            zh_Hans: { privacyPolicyUrl: 'https://policies.google.com/privacy?hl=zh' },
          },
          tcfVendor: 755,
          tcfPurposes: [1, 3, 4],
          tcfSpecialFeatures: [1],
          googleConsentMode: ['ad_storage', 'ad_user_data'],
        };
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload: body });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({ id: expect.stringMatching(HEX7), ...body, assets: [] });
        const read = await ctx.hosting({ method: 'GET', url: `${s.url}/${res.json().id}` });
        expect(read.json()).toEqual(res.json());
      });

      it.each(PURPOSE_IDS)('accepts the purpose id %s', async (purpose) => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { purpose });
        expect(created.purpose).toBe(purpose);
      });

      it('accepts all seven current Google Consent Mode types', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { googleConsentMode: GOOGLE_CONSENT_TYPES });
        expect(created.googleConsentMode).toEqual(GOOGLE_CONSENT_TYPES);
        const read = await ctx.hosting({ method: 'GET', url: `${s.url}/${created.id}` });
        expect(read.json().googleConsentMode).toEqual(GOOGLE_CONSENT_TYPES);
      });

      it('creates the given assets in order, with 7-hex ids and dynamic true for a * name by default', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: {
            name: 'Matomo',
            purpose: ANALYTICS,
            assets: [
              { name: '_pk_id.*', lifetime: '13 months', description: 'Visitor id' },
              { name: '_pk_ses.*', storageType: 'cookie', lifetime: '30 minutes' },
              {
                name: 'matomo_sessid',
                storageType: 'sessionStorage',
                translations: { de_DE: { lifetime: 'Sitzung', description: 'Sitzungs-ID' } },
              },
              { name: 'mtm_consent', dynamic: true, storageType: 'localStorage' },
            ],
          },
        });
        expect(res.statusCode).toBe(201);
        const created = res.json<Embedding>();
        expect(created.assets).toEqual([
          {
            id: expect.stringMatching(HEX7),
            name: '_pk_id.*',
            dynamic: true,
            storageType: 'cookie',
            lifetime: '13 months',
            description: 'Visitor id',
            translations: {},
          },
          {
            id: expect.stringMatching(HEX7),
            name: '_pk_ses.*',
            dynamic: true,
            storageType: 'cookie',
            lifetime: '30 minutes',
            description: '',
            translations: {},
          },
          {
            id: expect.stringMatching(HEX7),
            name: 'matomo_sessid',
            dynamic: false,
            storageType: 'sessionStorage',
            lifetime: '',
            description: '',
            translations: { de_DE: { lifetime: 'Sitzung', description: 'Sitzungs-ID' } },
          },
          {
            id: expect.stringMatching(HEX7),
            name: 'mtm_consent',
            dynamic: true,
            storageType: 'localStorage',
            lifetime: '',
            description: '',
            translations: {},
          },
        ]);
        expect(new Set(created.assets.map((a) => a.id)).size).toBe(4);
        const read = await ctx.hosting({ method: 'GET', url: `${s.url}/${created.id}` });
        expect(read.json()).toEqual(created);
        const viaAssets = await ctx.hosting({ method: 'GET', url: assetsUrl(s.clientId, s.domainId, created.id) });
        expect(viaAssets.json()).toEqual(created.assets);
      });

      it('refuses dynamic false for a * name with a detail naming the asset, and stores nothing', async () => {
        const s = await scope(ctx);
        const r0 = await revisions(ctx, s.domainId);
        const assetsBefore = await allAssetCount(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: { name: 'Matomo', purpose: ANALYTICS, assets: [{ name: '_pk_id.*', dynamic: false }] },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        const fields = fieldsOf(res);
        expect(fields.some((f) => f.startsWith('body.assets') && f.endsWith('.dynamic')), JSON.stringify(fields)).toBe(true);
        expect((await ctx.hosting({ method: 'GET', url: s.url })).json()).toEqual([]);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
        expect(await allAssetCount(ctx)).toBe(assetsBefore);
      });

      it('names the index of the offending asset, as for a schema error in the same array', async () => {
        const s = await scope(ctx);
        const two = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: { name: 'Matomo', purpose: ANALYTICS, assets: [{ name: '_ga' }, { name: '_pk_id.*', dynamic: false }] },
        });
        expect(fieldsOf(two)).toEqual(['body.assets.1.dynamic']);
        const schemaError = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: { name: 'Matomo', purpose: ANALYTICS, assets: [{ name: '' }] },
        });
        expect(fieldsOf(schemaError)).toEqual(['body.assets.0.name']);
        const one = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: { name: 'Matomo', purpose: ANALYTICS, assets: [{ name: '_pk_id.*', dynamic: false }] },
        });
        expect(fieldsOf(one)).toEqual(['body.assets.0.dynamic']);
      });

      it.each(INVALID)('rejects %s = %j with a detail naming the field and stores nothing', async (field, value) => {
        const s = await scope(ctx);
        const r0 = await revisions(ctx, s.domainId);
        const res = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: { name: 'Matomo', purpose: ANALYTICS, [field]: value },
        });
        expectValidationError(res, field);
        expect((await ctx.hosting({ method: 'GET', url: s.url })).json()).toEqual([]);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it.each(['name', 'purpose'])('requires %s', async (field) => {
        const s = await scope(ctx);
        const payload: Record<string, unknown> = { name: 'Matomo', purpose: ANALYTICS };
        delete payload[field];
        const res = await ctx.hosting({ method: 'POST', url: s.url, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(res.json().error.details).toEqual([{ field: `body.${field}`, message: 'is required' }]);
        expect((await ctx.hosting({ method: 'GET', url: s.url })).json()).toEqual([]);
      });

      it('accepts a name of 200 characters', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { name: 'n'.repeat(200) });
        expect(created.name).toHaveLength(200);
      });

      it('answers 404 DOMAIN_NOT_FOUND for an unknown domain and stores nothing', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: embeddingsUrl(s.clientId, '0000000'),
          payload: { name: 'Matomo', purpose: ANALYTICS },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('DOMAIN_NOT_FOUND');
      });

      it('requires the Hosting API key', async () => {
        const s = await scope(ctx);
        const res = await ctx.app.inject({ method: 'POST', url: s.url, payload: { name: 'Matomo', purpose: ANALYTICS } });
        expect(res.statusCode).toBe(401);
        expect((await ctx.hosting({ method: 'GET', url: s.url })).json()).toEqual([]);
      });
    });

    describe('GET', () => {
      it('lists the domain\'s embeddings with their assets, and reads one', async () => {
        const s = await scope(ctx);
        const other = await createDomain(ctx, s.clientId);
        const a = await createEmbedding(ctx, s, { name: 'A', assets: [{ name: '_a1' }, { name: '_a2' }] });
        const b = await createEmbedding(ctx, s, { name: 'B', active: false });
        await createEmbedding(ctx, { ...s, domainId: other.id, url: embeddingsUrl(s.clientId, other.id) }, { name: 'C' });
        const list = await ctx.hosting({ method: 'GET', url: s.url });
        expect(list.statusCode).toBe(200);
        const byId = new Map(list.json<Embedding[]>().map((e) => [e.id, e]));
        expect([...byId.keys()].sort()).toEqual([a.id, b.id].sort());
        expect(byId.get(a.id)).toEqual(a);
        expect(byId.get(a.id)!.assets.map((x) => x.name)).toEqual(['_a1', '_a2']);
        expect(byId.get(b.id)).toEqual(b);
        const one = await ctx.hosting({ method: 'GET', url: `${s.url}/${a.id}` });
        expect(one.statusCode).toBe(200);
        expect(one.json()).toEqual(a);
      });

      it('lists nothing for a domain without embeddings', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'GET', url: s.url });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
      });

      it('answers 404 for an unknown domain or embedding', async () => {
        const s = await scope(ctx);
        const list = await ctx.hosting({ method: 'GET', url: embeddingsUrl(s.clientId, '0000000') });
        expect(list.statusCode).toBe(404);
        expect(list.json().error.code).toBe('DOMAIN_NOT_FOUND');
        const one = await ctx.hosting({ method: 'GET', url: `${s.url}/0000000` });
        expect(one.statusCode).toBe(404);
        expect(one.json().error.code).toBe('EMBEDDING_NOT_FOUND');
      });
    });

    describe('PUT', () => {
      it('merges: omitted fields keep their value', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, {
          vendor: 'InnoCraft',
          description: 'old',
          scriptMarkers: ['matomo.js'],
          googleConsentMode: ['analytics_storage'],
          translations: { de_DE: { description: 'alt' } },
          tcfVendor: 12,
          assets: [{ name: '_pk_id.*' }],
        });
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${s.url}/${created.id}`,
          payload: { description: 'new', active: false },
        });
        expect(res.statusCode).toBe(200);
        const expected = { ...created, description: 'new', active: false };
        expect(res.json()).toEqual(expected);
        expect((await ctx.hosting({ method: 'GET', url: `${s.url}/${created.id}` })).json()).toEqual(expected);
      });

      it('sets tcfVendor back to null and replaces list fields as a whole', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { tcfVendor: 12, iframeMarkers: ['a', 'b'] });
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${s.url}/${created.id}`,
          payload: { tcfVendor: null, iframeMarkers: ['c'] },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ tcfVendor: null, iframeMarkers: ['c'] });
      });

      it('accepts its own GET answer back unchanged', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { description: 'text', assets: [{ name: '_ga' }] });
        const r0 = await revisions(ctx, s.domainId);
        const { assets: _assets, ...body } = created;
        const res = await ctx.hosting({ method: 'PUT', url: `${s.url}/${created.id}`, payload: body });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(created);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it('replaces all assets in one go when assets is given; the old asset ids are gone', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { assets: [{ name: '_old1' }, { name: '_old2' }] });
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${s.url}/${created.id}`,
          payload: { assets: [{ name: '_new1', storageType: 'localStorage' }, { name: '_new2*' }] },
        });
        expect(res.statusCode).toBe(200);
        const updated = res.json<Embedding>();
        expect(updated.assets.map(({ name, dynamic, storageType }) => ({ name, dynamic, storageType }))).toEqual([
          { name: '_new1', dynamic: false, storageType: 'localStorage' },
          { name: '_new2*', dynamic: true, storageType: 'cookie' },
        ]);
        for (const a of updated.assets) expect(a.id).toMatch(HEX7);
        expect((await ctx.hosting({ method: 'GET', url: `${s.url}/${created.id}` })).json()).toEqual(updated);
        for (const old of created.assets) {
          const gone = await ctx.hosting({ method: 'GET', url: `${assetsUrl(s.clientId, s.domainId, created.id)}/${old.id}` });
          expect(gone.statusCode).toBe(404);
          expect(gone.json().error.code).toBe('ASSET_NOT_FOUND');
        }
        expect(await assetRowCount(ctx, created.id)).toBe(2);
      });

      it('removes all assets with assets = []', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { assets: [{ name: '_a' }] });
        const res = await ctx.hosting({ method: 'PUT', url: `${s.url}/${created.id}`, payload: { assets: [] } });
        expect(res.statusCode).toBe(200);
        expect(res.json().assets).toEqual([]);
        expect(await assetRowCount(ctx, created.id)).toBe(0);
      });

      it('keeps the old assets when the replacement is refused', async () => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { assets: [{ name: '_keep' }] });
        const r0 = await revisions(ctx, s.domainId);
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${s.url}/${created.id}`,
          payload: { description: 'changed', assets: [{ name: '_ok' }, { name: '_bad*', dynamic: false }] },
        });
        expect(res.statusCode).toBe(400);
        expect((await ctx.hosting({ method: 'GET', url: `${s.url}/${created.id}` })).json()).toEqual(created);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it.each(INVALID)('rejects %s = %j and changes nothing', async (field, value) => {
        const s = await scope(ctx);
        const created = await createEmbedding(ctx, s, { assets: [{ name: '_ga' }] });
        const r0 = await revisions(ctx, s.domainId);
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${s.url}/${created.id}`,
          payload: { description: 'changed', [field]: value },
        });
        expectValidationError(res, field);
        expect((await ctx.hosting({ method: 'GET', url: `${s.url}/${created.id}` })).json()).toEqual(created);
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });

      it('answers 404 EMBEDDING_NOT_FOUND for an unknown embedding', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'PUT', url: `${s.url}/0000000`, payload: { description: 'x' } });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('EMBEDDING_NOT_FOUND');
      });
    });

    describe('DELETE', () => {
      it('deletes an embedding with its assets, then answers 404', async () => {
        const s = await scope(ctx);
        const keep = await createEmbedding(ctx, s, { name: 'Keep', assets: [{ name: '_keep' }] });
        const created = await createEmbedding(ctx, s, { assets: [{ name: '_a' }, { name: '_b' }] });
        expect(await assetRowCount(ctx, created.id)).toBe(2);
        const url = `${s.url}/${created.id}`;
        const res = await ctx.hosting({ method: 'DELETE', url });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        const read = await ctx.hosting({ method: 'GET', url });
        expect(read.statusCode).toBe(404);
        expect(read.json().error.code).toBe('EMBEDDING_NOT_FOUND');
        const again = await ctx.hosting({ method: 'DELETE', url });
        expect(again.statusCode).toBe(404);
        expect(again.json().error.code).toBe('EMBEDDING_NOT_FOUND');
        expect(await assetRowCount(ctx, created.id)).toBe(0);
        const asset = await ctx.hosting({ method: 'GET', url: `${assetsUrl(s.clientId, s.domainId, created.id)}/${created.assets[0]!.id}` });
        expect(asset.statusCode).toBe(404);
        expect((await ctx.hosting({ method: 'GET', url: s.url })).json()).toEqual([keep]);
      });
    });

    describe('tenant isolation', () => {
      it('never shows or changes client B\'s embedding under client A', async () => {
        const a = await scope(ctx);
        const b = await scope(ctx);
        const bEmbedding = await createEmbedding(ctx, b, { name: 'b-only service', assets: [{ name: '_b_only' }] });
        const rb = await revisions(ctx, b.domainId);
        // B's domain under A, and B's embedding under A's own domain.
        for (const base of [embeddingsUrl(a.clientId, b.domainId), a.url]) {
          const url = `${base}/${bEmbedding.id}`;
          for (const res of [
            await ctx.hosting({ method: 'GET', url }),
            await ctx.hosting({ method: 'PUT', url, payload: { name: 'hijacked' } }),
            await ctx.hosting({ method: 'DELETE', url }),
          ]) {
            expect(res.statusCode).toBe(404);
            expect(res.body).not.toContain('b-only');
          }
        }
        const list = await ctx.hosting({ method: 'GET', url: embeddingsUrl(a.clientId, b.domainId) });
        expect(list.statusCode).toBe(404);
        expect(list.json().error.code).toBe('DOMAIN_NOT_FOUND');
        const post = await ctx.hosting({
          method: 'POST',
          url: embeddingsUrl(a.clientId, b.domainId),
          payload: { name: 'planted', purpose: ANALYTICS },
        });
        expect(post.statusCode).toBe(404);
        expect(post.json().error.code).toBe('DOMAIN_NOT_FOUND');
        expect((await ctx.hosting({ method: 'GET', url: b.url })).json()).toEqual([bEmbedding]);
        expect((await ctx.hosting({ method: 'GET', url: a.url })).json()).toEqual([]);
        expect(await revisions(ctx, b.domainId)).toEqual(rb);
      });

      it('answers 404 EMBEDDING_NOT_FOUND for an embedding of domain X under domain Y of the same client', async () => {
        const x = await scope(ctx);
        const yDomain = await createDomain(ctx, x.clientId);
        const y: Scope = { clientId: x.clientId, domainId: yDomain.id, url: embeddingsUrl(x.clientId, yDomain.id) };
        const xEmbedding = await createEmbedding(ctx, x, { name: 'x-only service' });
        const rx = await revisions(ctx, x.domainId);
        const ry = await revisions(ctx, y.domainId);
        const url = `${y.url}/${xEmbedding.id}`;
        for (const res of [
          await ctx.hosting({ method: 'GET', url }),
          await ctx.hosting({ method: 'PUT', url, payload: { name: 'moved' } }),
          await ctx.hosting({ method: 'DELETE', url }),
        ]) {
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('EMBEDDING_NOT_FOUND');
          expect(res.body).not.toContain('x-only');
        }
        expect((await ctx.hosting({ method: 'GET', url: `${x.url}/${xEmbedding.id}` })).json()).toEqual(xEmbedding);
        expect((await ctx.hosting({ method: 'GET', url: y.url })).json()).toEqual([]);
        expect(await revisions(ctx, x.domainId)).toEqual(rx);
        expect(await revisions(ctx, y.domainId)).toEqual(ry);
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
      const put = (s: Scope, id: string, payload: Record<string, unknown>) => () =>
        ctx.hosting({ method: 'PUT', url: `${s.url}/${id}`, payload });

      it('creating an active embedding raises the legal and the configuration revision', async () => {
        const s = await scope(ctx);
        const d = await delta(s, () =>
          ctx.hosting({ method: 'POST', url: s.url, payload: { name: 'Matomo', purpose: ANALYTICS } }),
        );
        expect(d).toEqual({ config: 1, legal: 1 });
      });

      it('creating an inactive embedding raises the configuration revision only', async () => {
        const s = await scope(ctx);
        const d = await delta(s, () =>
          ctx.hosting({
            method: 'POST',
            url: s.url,
            payload: { name: 'Matomo', purpose: ANALYTICS, active: false, assets: [{ name: '_ga' }] },
          }),
        );
        expect(d).toEqual({ config: 1, legal: 0 });
      });

      it.each([
        ['scriptHtmlCode', '<script>track()</script>'],
        ['scriptMarkers', ['matomo.js']],
        ['iframeMarkers', ['matomo.example']],
        ['hideIframesUntilConsent', true],
        ['scriptLoaderGroup', 'group1'],
        ['excludeUrlsMode', 'include'],
        ['excludeFromUrls', ['https://site.example/admin/*']],
      ])('changing %s of an active embedding raises the configuration revision only', async (field, value) => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s);
        expect(await delta(s, put(s, e.id, { [field]: value }))).toEqual({ config: 1, legal: 0 });
      });

      it.each([
        ['name', 'Matomo Analytics'],
        ['purpose', '15c61c3'],
        ['vendor', 'InnoCraft Ltd.'],
        ['tcfVendor', 42],
        ['description', 'Web analytics'],
        ['privacyPolicyUrl', 'https://matomo.example/privacy'],
        ['whatDataIsCollected', 'Pseudonymised IP'],
        ['purposeOfDataCollection', 'Statistics'],
        ['legalBasis', 'Art. 6 (1) a GDPR'],
        ['placeOfProcessing', 'Germany'],
        ['googleConsentMode', ['analytics_storage']],
        ['tcfPurposes', [1]],
        ['tcfSpecialFeatures', [2]],
        ['translations', { de_DE: { name: 'Matomo DE' } }],
        ['translations', { de_DE: { description: 'Webanalyse' } }],
        ['translations', { de_DE: { privacyPolicyUrl: 'https://matomo.example/datenschutz' } }],
        ['translations', { de_DE: { whatDataIsCollected: 'IP' } }],
        ['translations', { de_DE: { purposeOfDataCollection: 'Statistik' } }],
        ['translations', { de_DE: { legalBasis: 'Einwilligung' } }],
        ['translations', { de_DE: { placeOfProcessing: 'Deutschland' } }],
      ])('changing %s = %j of an active embedding raises the legal revision too', async (field, value) => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s);
        expect(await delta(s, put(s, e.id, { [field]: value }))).toEqual({ config: 1, legal: 1 });
      });

      it.each([
        ['description', 'Web analytics'],
        ['name', 'Other name'],
        ['translations', { de_DE: { description: 'Webanalyse' } }],
        ['assets', [{ name: '_ga' }]],
      ])('changing %s of an inactive embedding raises the configuration revision only', async (field, value) => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, { active: false });
        expect(await delta(s, put(s, e.id, { [field]: value }))).toEqual({ config: 1, legal: 0 });
      });

      it('a PUT that changes nothing raises no revision', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, {
          description: 'same',
          googleConsentMode: ['ad_storage', 'analytics_storage'],
          translations: { de_DE: { description: 'gleich' } },
        });
        expect(await delta(s, put(s, e.id, {}))).toEqual({ config: 0, legal: 0 });
        expect(
          await delta(
            s,
            put(s, e.id, {
              name: e.name,
              purpose: e.purpose,
              active: true,
              description: 'same',
              googleConsentMode: ['ad_storage', 'analytics_storage'],
              translations: { de_DE: { description: 'gleich' } },
              tcfVendor: null,
            }),
          ),
        ).toEqual({ config: 0, legal: 0 });
      });

      it('reordering googleConsentMode, tcfPurposes or tcfSpecialFeatures is not a legal change', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, {
          googleConsentMode: ['ad_storage', 'analytics_storage'],
          tcfPurposes: [1, 2],
          tcfSpecialFeatures: [1, 2],
        });
        expect(await delta(s, put(s, e.id, { googleConsentMode: ['analytics_storage', 'ad_storage'] }))).toEqual({
          config: 1,
          legal: 0,
        });
        expect(await delta(s, put(s, e.id, { tcfPurposes: [2, 1], tcfSpecialFeatures: [2, 1] }))).toEqual({
          config: 1,
          legal: 0,
        });
      });

      it('changing only the iframe-blocker texts of an existing translation is not a legal change', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, { translations: { de_DE: { description: 'Webanalyse' } } });
        const d = await delta(
          s,
          put(s, e.id, { translations: { de_DE: { description: 'Webanalyse', blockedContentTitle: 'Gesperrt' } } }),
        );
        expect(d).toEqual({ config: 1, legal: 0 });
      });

      it('adding a translation with only iframe-blocker texts is not a legal change', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s);
        const d = await delta(
          s,
          put(s, e.id, { translations: { de_DE: { blockedContentTitle: 'Gesperrt', blockedContentButtonText: 'Laden' } } }),
        );
        expect(d).toEqual({ config: 1, legal: 0 });
      });

      it('activating an inactive embedding raises the legal revision; deactivating the configuration revision only', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, { active: false });
        expect(await delta(s, put(s, e.id, { active: true }))).toEqual({ config: 1, legal: 1 });
        expect(await delta(s, put(s, e.id, { active: false }))).toEqual({ config: 1, legal: 0 });
      });

      it('replacing the assets with identical content, in any order, is not a legal change', async () => {
        const s = await scope(ctx);
        const assets = [
          { name: '_pk_id.*', lifetime: '13 months', description: 'Visitor id' },
          { name: '_pk_ses.*', lifetime: '30 minutes', translations: { de_DE: { lifetime: '30 Minuten' } } },
        ];
        const e = await createEmbedding(ctx, s, { assets });
        expect((await delta(s, put(s, e.id, { assets }))).legal).toBe(0);
        expect((await delta(s, put(s, e.id, { assets: [...assets].reverse() }))).legal).toBe(0);
      });

      it('replacing the assets with identical content written with its keys in another order is not a legal change', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, {
          assets: [{ name: '_ga', translations: { de_DE: { lifetime: '2 Jahre', description: 'Kennung' }, fr: { lifetime: '2 ans' } } }],
        });
        const d = await delta(
          s,
          put(s, e.id, {
            assets: [{ translations: { fr: { lifetime: '2 ans' }, de_DE: { description: 'Kennung', lifetime: '2 Jahre' } }, name: '_ga' }],
          }),
        );
        expect(d.legal).toBe(0);
      });

      it('replacing the assets with changed content of an active embedding is a legal change', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s, { assets: [{ name: '_ga', description: 'old' }] });
        expect(await delta(s, put(s, e.id, { assets: [{ name: '_ga', description: 'new' }] }))).toEqual({
          config: 1,
          legal: 1,
        });
        expect(await delta(s, put(s, e.id, { assets: [{ name: '_ga', description: 'new' }, { name: '_gid' }] }))).toEqual({
          config: 1,
          legal: 1,
        });
        expect(await delta(s, put(s, e.id, { assets: [] }))).toEqual({ config: 1, legal: 1 });
      });

      it('assets = [] on an embedding without assets changes nothing and raises no revision', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s);
        expect(await delta(s, put(s, e.id, { assets: [] }))).toEqual({ config: 0, legal: 0 });
      });

      it('deleting an embedding raises the configuration revision', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s);
        const d = await delta(s, () => ctx.hosting({ method: 'DELETE', url: `${s.url}/${e.id}` }));
        expect(d.config).toBe(1);
      });

      it('a refused or unknown change raises no revision', async () => {
        const s = await scope(ctx);
        const e = await createEmbedding(ctx, s);
        const r0 = await revisions(ctx, s.domainId);
        await ctx.hosting({ method: 'PUT', url: `${s.url}/${e.id}`, payload: { purpose: 'nope' } });
        await ctx.hosting({ method: 'PUT', url: `${s.url}/0000000`, payload: { description: 'x' } });
        await ctx.hosting({ method: 'DELETE', url: `${s.url}/0000000` });
        await ctx.hosting({ method: 'POST', url: s.url, payload: { name: '', purpose: ANALYTICS } });
        expect(await revisions(ctx, s.domainId)).toEqual(r0);
      });
    });

    describe('limits', () => {
      it('creates an embedding with 200 assets in order but refuses 201', async () => {
        const s = await scope(ctx);
        const names = Array.from({ length: 201 }, (_, i) => `_c${String(i).padStart(3, '0')}`);
        const tooMany = await ctx.hosting({
          method: 'POST',
          url: s.url,
          payload: { name: 'Many', purpose: ANALYTICS, assets: names.map((name) => ({ name })) },
        });
        expectValidationError(tooMany, 'assets');
        expect((await ctx.hosting({ method: 'GET', url: s.url })).json()).toEqual([]);
        const full = await createEmbedding(ctx, s, { assets: names.slice(0, 200).map((name) => ({ name })) });
        expect(full.assets.map((a) => a.name)).toEqual(names.slice(0, 200));
        expect(new Set(full.assets.map((a) => a.id)).size).toBe(200);
        const put = await ctx.hosting({
          method: 'PUT',
          url: `${s.url}/${full.id}`,
          payload: { assets: names.map((name) => ({ name })) },
        });
        expectValidationError(put, 'assets');
        expect(await assetRowCount(ctx, full.id)).toBe(200);
      });
    });
  });
}
