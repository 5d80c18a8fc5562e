import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp, type TestContext } from './helper.js';

async function fillDomain(ctx: TestContext, clientId: string, domainId: string) {
  const base = `/hosting/api/client/${clientId}/domain/${domainId}`;
  const embedding = await ctx.hosting({
    method: 'POST',
    url: `${base}/embedding`,
    payload: { name: 'Analytics', purpose: 'a717ff5', assets: [{ name: '_ga' }, { name: '_ga_*' }] },
  });
  expect(embedding.statusCode).toBe(201);
  expect((await ctx.hosting({ method: 'POST', url: `${base}/placeholder`, payload: { name: 'A', value: 'b' } })).statusCode).toBe(201);
  expect((await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'de_DE' } })).statusCode).toBe(201);
  expect((await ctx.hosting({ method: 'POST', url: `${base}/theme`, payload: { name: 'Second' } })).statusCode).toBe(201);
}

async function countsFor(ctx: TestContext, domainId: string) {
  const db = ctx.database.db;
  const count = async (table: 'embeddings' | 'placeholders' | 'locales' | 'themes') =>
    (await db.selectFrom(table).select('domain_id').where('domain_id', '=', domainId).execute()).length;
  const assets = (
    await db
      .selectFrom('assets')
      .innerJoin('embeddings', 'embeddings.id', 'assets.embedding_id')
      .select('assets.id')
      .where('embeddings.domain_id', '=', domainId)
      .execute()
  ).length;
  return {
    embeddings: await count('embeddings'),
    assets,
    placeholders: await count('placeholders'),
    locales: await count('locales'),
    themes: await count('themes'),
  };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: domain content lifecycle`, () => {
    const ctx = useApp(dialect);

    it('deleting a domain deletes its embeddings, assets, placeholders, locales and themes', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      await fillDomain(ctx, client.id, domain.id);
      expect(await countsFor(ctx, domain.id)).toEqual({ embeddings: 1, assets: 2, placeholders: 1, locales: 1, themes: 2 });
      const res = await ctx.hosting({ method: 'DELETE', url: `/hosting/api/client/${client.id}/domain/${domain.id}` });
      expect(res.statusCode).toBe(204);
      expect(await countsFor(ctx, domain.id)).toEqual({ embeddings: 0, assets: 0, placeholders: 0, locales: 0, themes: 0 });
    });

    it('deleting a client deletes all of it, and leaves other clients alone', async () => {
      const client = await createClient(ctx);
      const other = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const kept = await createDomain(ctx, other.id);
      await fillDomain(ctx, client.id, domain.id);
      await fillDomain(ctx, other.id, kept.id);
      expect((await ctx.hosting({ method: 'DELETE', url: `/hosting/api/client/${client.id}` })).statusCode).toBe(204);
      expect(await countsFor(ctx, domain.id)).toEqual({ embeddings: 0, assets: 0, placeholders: 0, locales: 0, themes: 0 });
      expect(await countsFor(ctx, kept.id)).toEqual({ embeddings: 1, assets: 2, placeholders: 1, locales: 1, themes: 2 });
    });

    it('documents every domain-content route in the OpenAPI document', async () => {
      const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const d = '/hosting/api/client/{clientId}/domain/{domainId}';
      for (const path of [
        `${d}/embedding`,
        `${d}/embedding/{embeddingId}`,
        `${d}/embedding/{embeddingId}/asset`,
        `${d}/embedding/{embeddingId}/asset/{assetId}`,
        `${d}/placeholder`,
        `${d}/placeholder/{placeholderName}`,
        `${d}/locale`,
        `${d}/locale/{localeName}`,
        `${d}/theme`,
        `${d}/theme/{themeId}`,
      ]) {
        expect(doc.paths[path], path).toBeDefined();
      }
      expect(Object.keys(doc.paths[`${d}/placeholder`])).toEqual(expect.arrayContaining(['post', 'put', 'get']));
    });
  });
}
