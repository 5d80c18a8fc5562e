import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, domainRevisions, useApp, type TestContext } from '../../../test/helper.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';
import { presetCatalogue } from './preset-catalogue.js';

// One file, one app per dialect: PostgreSQL suites migrating at the same moment in parallel workers trip
// over each other in Kysely's migrator, which looks for its lock table in every schema.

const GA4 = 1;
const MATOMO = 3;
const YOUTUBE = 67;
const PHP_SESSION = 123;
const HOTJAR = 11;

async function scope(ctx: TestContext) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  return {
    client,
    domain,
    presets: `${base}/onboarding/presets`,
    cookies: `${base}/onboarding/embeddingsFromCookies`,
    embeddings: `${base}/embedding`,
  };
}

const embeddingsOf = async (ctx: TestContext, url: string) => (await ctx.hosting({ method: 'GET', url })).json<Embedding[]>();

const post = (ctx: TestContext, url: string, payload: object) => ctx.hosting({ method: 'POST', url, payload });

for (const dialect of DIALECTS) {
  describe(`${dialect}: onboarding imports`, () => {
    const ctx = useApp(dialect);

    describe('POST …/onboarding/presets', () => {

      it('creates one inactive embedding per preset, with its assets, markers, Consent Mode types and German texts', async () => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: GA4 }, { id: YOUTUBE }] });
        expect(res.statusCode).toBe(201);
        const body = res.json<{ presetId: number; embeddingId: string; created: boolean }[]>();
        expect(body).toEqual([
          { presetId: GA4, embeddingId: expect.stringMatching(/^[0-9a-f]{7}$/), created: true },
          { presetId: YOUTUBE, embeddingId: expect.stringMatching(/^[0-9a-f]{7}$/), created: true },
        ]);
        const preset = presetCatalogue().byId.get(GA4)!;
        const embedding = (await ctx.hosting({ method: 'GET', url: `${s.embeddings}/${body[0]!.embeddingId}` })).json<Embedding>();
        expect(embedding).toMatchObject({
          name: preset.texts.en.name,
          active: false,
          purpose: 'a717ff5',
          vendor: preset.vendor,
          privacyPolicyUrl: preset.privacyPolicyUrl,
          description: preset.texts.en.description,
          legalBasis: preset.texts.en.legalBasis,
          scriptMarkers: preset.scriptMarkers,
          googleConsentMode: ['analytics_storage'],
          translations: { de_DE: preset.texts.de },
        });
        expect(embedding.assets).toEqual(
          preset.assets.map((a) => ({
            id: expect.any(String),
            name: a.name,
            dynamic: a.dynamic,
            storageType: a.storageType,
            lifetime: a.lifetime.en,
            description: a.description.en,
            translations: { de_DE: { lifetime: a.lifetime.de, description: a.description.de } },
          })),
        );
        const youtube = (await ctx.hosting({ method: 'GET', url: `${s.embeddings}/${body[1]!.embeddingId}` })).json<Embedding>();
        expect(youtube.iframeMarkers).toEqual(['youtube.com/embed', 'i.ytimg.com/vi/', 'img.youtube.com/vi/']);
      });

      it('creates active embeddings on request; only those change the legal revision', async () => {
        const s = await scope(ctx);
        const before = await domainRevisions(ctx, s.domain.id);
        await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: GA4, active: false }] });
        const inactive = await domainRevisions(ctx, s.domain.id);
        expect(Number(inactive.config_revision)).toBe(Number(before.config_revision) + 1);
        expect(Number(inactive.legal_revision)).toBe(Number(before.legal_revision));
        const res = await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: MATOMO, active: true }] });
        const embedding = (await ctx.hosting({ method: 'GET', url: `${s.embeddings}/${res.json()[0].embeddingId}` })).json<Embedding>();
        expect(embedding.active).toBe(true);
        expect(Number((await domainRevisions(ctx, s.domain.id)).legal_revision)).toBe(Number(before.legal_revision) + 1);
      });

      it('returns the existing embedding when a preset is imported again, also twice in one request', async () => {
        const s = await scope(ctx);
        const first = (await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: GA4 }] })).json();
        const again = await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: MATOMO }, { id: GA4, active: true }, { id: MATOMO }] });
        expect(again.statusCode).toBe(201);
        const body = again.json();
        expect(body[1]).toEqual({ presetId: GA4, embeddingId: first[0].embeddingId, created: false });
        expect(body[2]).toEqual({ presetId: MATOMO, embeddingId: body[0].embeddingId, created: false });
        const list = await embeddingsOf(ctx, s.embeddings);
        expect(list).toHaveLength(2);
        expect(list.find((e) => e.id === first[0].embeddingId)!.active).toBe(false);
      });

      it('creates the embedding afresh after the imported one was deleted', async () => {
        const s = await scope(ctx);
        const first = (await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: GA4 }] })).json();
        await ctx.hosting({ method: 'DELETE', url: `${s.embeddings}/${first[0].embeddingId}` });
        const again = (await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: GA4 }] })).json();
        expect(again[0].created).toBe(true);
        expect(again[0].embeddingId).not.toBe(first[0].embeddingId);
      });

      it('keeps imports of different domains apart', async () => {
        const a = await scope(ctx);
        const domainB = await createDomain(ctx, a.client.id);
        const one = (await ctx.hosting({ method: 'POST', url: a.presets, payload: [{ id: GA4 }] })).json();
        const other = await ctx.hosting({
          method: 'POST',
          url: `/hosting/api/client/${a.client.id}/domain/${domainB.id}/onboarding/presets`,
          payload: [{ id: GA4 }],
        });
        expect(other.json()[0]).toMatchObject({ created: true });
        expect(other.json()[0].embeddingId).not.toBe(one[0].embeddingId);
      });

      it('refuses unknown preset ids by name and creates nothing', async () => {
        const s = await scope(ctx);
        const before = await domainRevisions(ctx, s.domain.id);
        const res = await ctx.hosting({ method: 'POST', url: s.presets, payload: [{ id: GA4 }, { id: 999_999 }] });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({
          code: 'UNKNOWN_PRESET',
          message: 'No preset with id 999999 exists.',
          details: [{ field: 'body.1.id', message: 'no preset with id 999999' }],
        });
        expect(await embeddingsOf(ctx, s.embeddings)).toEqual([]);
        expect(await domainRevisions(ctx, s.domain.id)).toEqual(before);
      });

      it.each([
        ['a missing id', [{ active: true }]],
        ['a string id', [{ id: '1' }]],
        ['a fractional id', [{ id: 1.5 }]],
        ['id 0', [{ id: 0 }]],
        ['a non-boolean active', [{ id: 1, active: 'yes' }]],
        ['an object instead of an array', { id: 1 }],
        ['more than 500 items', Array.from({ length: 501 }, () => ({ id: 1 }))],
      ])('answers 400 VALIDATION_FAILED for %s', async (_label, payload) => {
        const s = await scope(ctx);
        const res = await ctx.hosting({ method: 'POST', url: s.presets, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
      });

      it('answers 404 for an unknown client or domain, and for another client\'s domain', async () => {
        const s = await scope(ctx);
        const stranger = await createClient(ctx);
        for (const url of [
          `/hosting/api/client/nope/domain/${s.domain.id}/onboarding/presets`,
          `/hosting/api/client/${s.client.id}/domain/nope/onboarding/presets`,
          `/hosting/api/client/${stranger.id}/domain/${s.domain.id}/onboarding/presets`,
        ]) {
          const res = await ctx.hosting({ method: 'POST', url, payload: [{ id: GA4 }] });
          expect(res.statusCode, url).toBe(404);
          expect(res.json().error.code).toBe('DOMAIN_NOT_FOUND');
        }
        expect(await embeddingsOf(ctx, s.embeddings)).toEqual([]);
      });

      it('requires the hosting key', async () => {
        const s = await scope(ctx);
        const res = await ctx.app.inject({ method: 'POST', url: s.presets, payload: [{ id: GA4 }] });
        expect(res.statusCode).toBe(401);
      });
    });

    describe('POST …/onboarding/embeddingsFromCookies', () => {

      it('creates preset embeddings for known items and one "other" embedding for the rest', async () => {
        const s = await scope(ctx);
        const res = await post(ctx, s.cookies, [
          { name: '_ga', storageType: 'cookie' },
          { name: '_ga_ABC123', storageType: 'cookie' },
          { name: 'PHPSESSID', storageType: 'cookie' },
          { name: '_hjRecordingEnabled', storageType: 'sessionStorage' },
          { name: 'site_lang', storageType: 'cookie' },
          { name: 'site_theme', storageType: 'localStorage' },
          { name: 'site_lang', storageType: 'cookie' },
        ]);
        expect(res.statusCode).toBe(201);
        const body = res.json();
        expect(body.map((e: { presetId: number | null }) => e.presetId)).toEqual([GA4, PHP_SESSION, HOTJAR, null]);
        expect(body[0]).toMatchObject({
          created: true,
          purpose: 'a717ff5',
          cookies: [{ name: '_ga', storageType: 'cookie' }, { name: '_ga_ABC123', storageType: 'cookie' }],
          addedAssets: [],
        });
        const other = body[3];
        expect(other).toMatchObject({
          created: true,
          name: 'Unrecognised cookies and storage',
          purpose: '15c61c3',
          addedAssets: [{ name: 'site_lang', storageType: 'cookie' }, { name: 'site_theme', storageType: 'localStorage' }],
        });
        const embeddings = await embeddingsOf(ctx, s.embeddings);
        expect(embeddings).toHaveLength(4);
        expect(embeddings.every((e) => !e.active)).toBe(true);
        const stored = embeddings.find((e) => e.id === other.embeddingId)!;
        expect(stored.translations.de_DE?.name).toBe('Nicht zugeordnete Cookies und Speichereinträge');
        expect(stored.assets.map((a) => [a.name, a.storageType, a.dynamic])).toEqual([
          ['site_lang', 'cookie', false],
          ['site_theme', 'localStorage', false],
        ]);
      });

      it('adds new unrecognised items to the same embedding and lists only what changed', async () => {
        const s = await scope(ctx);
        const first = (await post(ctx, s.cookies, [{ name: 'a_cookie', storageType: 'cookie' }])).json();
        const second = await post(ctx, s.cookies, [
          { name: 'a_cookie', storageType: 'cookie' },
          { name: 'b_key', storageType: 'localStorage' },
        ]);
        expect(second.statusCode).toBe(201);
        expect(second.json()).toEqual([
          {
            embeddingId: first[0].embeddingId,
            name: 'Unrecognised cookies and storage',
            purpose: '15c61c3',
            presetId: null,
            created: false,
            cookies: [{ name: 'b_key', storageType: 'localStorage' }],
            addedAssets: [{ name: 'b_key', storageType: 'localStorage' }],
          },
        ]);
        const third = await post(ctx, s.cookies, [{ name: 'a_cookie', storageType: 'cookie' }, { name: 'b_key', storageType: 'localStorage' }]);
        expect(third.json()).toEqual([]);
        const embeddings = await embeddingsOf(ctx, s.embeddings);
        expect(embeddings).toHaveLength(1);
        expect(embeddings[0]!.assets.map((a) => a.name)).toEqual(['a_cookie', 'b_key']);
      });

      it('reuses the embedding of a preset imported before', async () => {
        const s = await scope(ctx);
        const imported = (await post(ctx, s.presets, [{ id: GA4 }])).json();
        const res = await post(ctx, s.cookies, [{ name: '_ga', storageType: 'cookie' }]);
        expect(res.json()).toEqual([]);
        const embeddings = await embeddingsOf(ctx, s.embeddings);
        expect(embeddings.map((e) => e.id)).toEqual([imported[0].embeddingId]);
        // …and a later preset import finds the embedding made from cookies.
        const made = (await post(ctx, s.cookies, [{ name: 'PHPSESSID', storageType: 'cookie' }])).json();
        const again = (await post(ctx, s.presets, [{ id: PHP_SESSION }])).json();
        expect(again).toEqual([{ presetId: PHP_SESSION, embeddingId: made[0].embeddingId, created: false }]);
      });

      it('leaves items alone that an embedding of the domain already declares', async () => {
        const s = await scope(ctx);
        await ctx.hosting({
          method: 'POST',
          url: s.embeddings,
          payload: { name: 'Own analytics', purpose: 'a717ff5', assets: [{ name: 'own_*' }, { name: 'own_key', storageType: 'localStorage' }] },
        });
        const res = await post(ctx, s.cookies, [
          { name: 'own_visitor', storageType: 'cookie' },
          { name: 'own_key', storageType: 'localStorage' },
          { name: 'own_key', storageType: 'sessionStorage' },
        ]);
        expect(res.json()).toMatchObject([{ presetId: null, addedAssets: [{ name: 'own_key', storageType: 'sessionStorage' }] }]);
      });

      it('answers 201 with an empty list for an empty body', async () => {
        const s = await scope(ctx);
        const res = await post(ctx, s.cookies, []);
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual([]);
      });

      it.each([
        ['an unknown storage type', [{ name: 'x', storageType: 'indexedDb' }]],
        ['a missing storage type', [{ name: 'x' }]],
        ['an empty name', [{ name: '', storageType: 'cookie' }]],
        ['a name over 200 characters', [{ name: 'x'.repeat(201), storageType: 'cookie' }]],
        ['more than 500 items', Array.from({ length: 501 }, (_, i) => ({ name: `c${i}`, storageType: 'cookie' }))],
        ['an object instead of an array', { cookies: [] }],
      ])('answers 400 VALIDATION_FAILED for %s', async (_label, payload) => {
        const s = await scope(ctx);
        const res = await post(ctx, s.cookies, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(await embeddingsOf(ctx, s.embeddings)).toEqual([]);
      });

      it('refuses more unrecognised items than one embedding can hold, creating nothing', async () => {
        const s = await scope(ctx);
        const payload = Array.from({ length: 201 }, (_, i) => ({ name: `unknown_${i}`, storageType: 'cookie' }));
        const res = await post(ctx, s.cookies, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('RESOURCE_LIMIT_REACHED');
        expect(await embeddingsOf(ctx, s.embeddings)).toEqual([]);
      });

      it('answers 404 for an unknown client or domain', async () => {
        const s = await scope(ctx);
        const stranger = await createClient(ctx);
        const res = await post(ctx, `/hosting/api/client/${stranger.id}/domain/${s.domain.id}/onboarding/embeddingsFromCookies`, [
          { name: '_ga', storageType: 'cookie' },
        ]);
        expect(res.statusCode).toBe(404);
        expect(await embeddingsOf(ctx, s.embeddings)).toEqual([]);
      });
    });
  });
}
