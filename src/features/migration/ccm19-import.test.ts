import bcrypt from 'bcryptjs';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, depsOf, useApp, type TestContext } from '../../../test/helper.js';
import { importCcm19, type ImportReport } from './ccm19-import.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const fixture = (): Json => JSON.parse(readFileSync(new URL('../../../test/fixtures/ccm19-export.json', import.meta.url), 'utf8'));

/** The fields of an exported object a recreated one must carry: everything but ids, counters and children. */
const READ_ONLY = ['id', 'domainCount', 'whitelabelCount', 'widgetDisplayCount', 'passwordHash', 'domains', 'embeddings', 'locales', 'themes', 'placeholders'];
const writable = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => !READ_ONLY.includes(k)));
const byName = (items: Json[], name: string): Json => items.find((i) => i.name === name) ?? {};
const refs = (items: ImportReport['created']) => items.map((i) => `${i.type}: ${i.ref}`).sort();

async function get(ctx: TestContext, url: string) {
  const res = await ctx.hosting({ method: 'GET', url: `/hosting/api${url}` });
  expect(res.statusCode, url).toBe(200);
  return res.json();
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: npm run import:ccm19`, () => {
    const ctx = useApp(dialect);

    it('recreates a fixture agency field by field, reports what it could not map, and skips everything on a second run', async () => {
      // Another client already holds the domain id the export's third client wants.
      const other = await createClient(ctx);
      await createDomain(ctx, other.id, { id: 'dddd000', name: 'someone-else.example' });
      const data = fixture();
      const report = await importCcm19(depsOf(ctx), data);

      expect(refs(report.created)).toEqual([
        'client: client agency-one',
        'client: client clashing-client',
        'client: client no-hash-client',
        'domain: client agency-one / domain blog.baeckerei.example',
        'domain: client agency-one / domain www.baeckerei.example/shop/',
        'domain: client clashing-client / domain ok.clash.example',
        'domain: client no-hash-client / domain nohash.example',
        'embedding: client agency-one / domain www.baeckerei.example/shop/ / embedding Matomo',
        'embedding: client agency-one / domain www.baeckerei.example/shop/ / embedding YouTube',
        'locale: client agency-one / domain www.baeckerei.example/shop/ / locale de_DE',
        'locale: client agency-one / domain www.baeckerei.example/shop/ / locale en_US',
        'placeholder: client agency-one / domain www.baeckerei.example/shop/ / placeholder Firma_Ort',
        'placeholder: client agency-one / domain www.baeckerei.example/shop/ / placeholder {FIRMA}',
        'theme: client agency-one / domain www.baeckerei.example/shop/ / theme Corporate',
        'theme: client agency-one / domain www.baeckerei.example/shop/ / theme Dark',
      ]);
      expect(report.skipped).toEqual([]);
      expect(report.couldNotMap.map((i) => [i.type, i.ref, i.details?.map((d) => d.field)])).toEqual([
        ['client', 'client no-hash-client', ['passwordHash']],
        ['embedding', 'client no-hash-client / domain nohash.example / embedding Broken', ['body.purpose']],
        ['domain', 'client clashing-client / domain clash.example', ['id']],
        ['client', 'client (no username)', ['body.username', 'body.emailAddress']],
      ]);

      // Client: every writable field, the given apiKey, the bcrypt hash as exported.
      const one = data.clients[0];
      const client = await get(ctx, `/client/by-apiKey/${one.apiKey}`);
      expect(client).toMatchObject({ ...writable(one), features: { ...client.features, ...one.features } });
      expect(client.features).toMatchObject({ canUseABTests: false, canUseIAB: false, canUseScripts: true, canUseAnalytics: true });
      const row = await ctx.database.db.selectFrom('clients').select('password_hash').where('id', '=', client.id).executeTakeFirstOrThrow();
      expect(row.password_hash).toBe(one.passwordHash);

      // Domains: the given ids, host and path apart, every setting.
      const [shop, blog] = one.domains;
      const domain = await get(ctx, `/client/${client.id}/domain/${shop.id}`);
      // Placet's own settings the export cannot have keep their defaults.
      expect(domain).toEqual({ ...writable(shop), id: shop.id, strictBlocking: false, strictAllowedHosts: [], useAccountTheme: true, offerBuiltinLanguages: true, tcfStacks: 'auto', tcfPublisherRestrictions: [] });
      expect(await get(ctx, `/client/${client.id}/domain/${blog.id}`)).toMatchObject({ ...writable(blog), id: blog.id });
      const base = `/client/${client.id}/domain/${shop.id}`;

      // Embeddings with their assets (new ids: only client keys and domain ids travel in snippets).
      const embeddings = await get(ctx, `${base}/embedding`);
      expect(embeddings).toHaveLength(2);
      for (const exported of shop.embeddings) {
        const got = byName(embeddings, exported.name);
        const { id: _id, assets, ...fields } = exported;
        expect(got).toMatchObject(fields);
        expect(got.assets).toHaveLength(assets.length);
        for (const asset of assets) {
          const { id: _assetId, ...assetFields } = asset;
          expect(byName(got.assets, asset.name)).toMatchObject(assetFields);
        }
      }

      // Locales, placeholders (braces are not part of the name), themes (the export's default replaces Placet's).
      for (const locale of shop.locales) expect(await get(ctx, `${base}/locale/${locale.name}`)).toMatchObject(locale);
      expect(await get(ctx, `${base}/placeholder`)).toEqual([
        { name: 'FIRMA', value: 'Bäckerei Mustermann GmbH' },
        { name: 'Firma_Ort', value: 'Musterstadt' },
      ]);
      const themes = await get(ctx, `${base}/theme`);
      expect(themes.map((t: Json) => t.name).sort()).toEqual(['Corporate', 'Dark']);
      for (const exported of shop.themes) {
        const { id: _id, ...fields } = exported;
        expect(byName(themes, exported.name)).toMatchObject(fields);
      }

      // The client without a hash exists, inactive, with a password nobody knows; its valid domain is there.
      const noHash = await get(ctx, `/client/by-apiKey/${data.clients[1].apiKey}`);
      expect(noHash).toMatchObject({ username: 'no-hash-client', active: false, domainCount: 1 });
      const hash = await ctx.database.db.selectFrom('clients').select('password_hash').where('id', '=', noHash.id).executeTakeFirstOrThrow();
      expect(await bcrypt.compare('', hash.password_hash)).toBe(false);
      expect(await get(ctx, `/client/${noHash.id}/domain/b0b0b0b/embedding`)).toEqual([]);

      // The clashing domain id stayed with its owner.
      expect(await get(ctx, `/client/${other.id}/domain/dddd000`)).toMatchObject({ name: 'someone-else.example' });

      // Idempotent: a second run creates nothing and skips what the first created.
      const again = await importCcm19(depsOf(ctx), fixture());
      expect(again.created).toEqual([]);
      expect(refs(again.skipped)).toEqual(refs(report.created));
      expect(again.couldNotMap.map((i) => i.ref)).toEqual([
        'client no-hash-client / domain nohash.example / embedding Broken',
        'client clashing-client / domain clash.example',
        'client (no username)',
      ]);
      expect(await get(ctx, `${base}/theme`)).toHaveLength(2);
      expect(await get(ctx, `${base}/embedding`)).toHaveLength(2);
    });

    it('does not take over a client whose username matches but whose apiKey differs', async () => {
      const existing = await createClient(ctx);
      const report = await importCcm19(depsOf(ctx), [
        { username: existing.username, emailAddress: 'x@example.com', passwordHash: '$2b$12$' + 'Q'.repeat(53), apiKey: 'ab'.repeat(24), domains: [{ name: 'taken-over.example' }] },
      ]);
      expect(report.created).toEqual([]);
      expect(report.couldNotMap).toHaveLength(1);
      expect(report.couldNotMap[0]!.reason).toMatch(/another apiKey/);
      expect(await get(ctx, `/client/${existing.id}/domain`)).toEqual([]);
    });

    it('imports content a feature flag of the client gates, then gives the client its flags', async () => {
      const username = `flags-${Date.now().toString(36)}`;
      const report = await importCcm19(depsOf(ctx), [{
        username, emailAddress: 'f@example.com', passwordHash: '$2b$12$' + 'Q'.repeat(53),
        features: { canUseScripts: false, canUseIndCSS: false, canUseMultiDom: false },
        domains: [
          { name: 'one.flags.example', embeddings: [{ name: 'GA', purpose: 'a717ff5', scriptMarkers: ['gtag/js'] }], themes: [{ name: 'Own', customCss: 'p{}' }] },
          { name: 'two.flags.example' },
        ],
      }]);
      expect(report.couldNotMap).toEqual([]);
      const client = await get(ctx, `/client/by-username/${username}`);
      expect(client.features).toMatchObject({ canUseScripts: false, canUseIndCSS: false, canUseMultiDom: false, canUseDomAPI: true });
      const domains = await get(ctx, `/client/${client.id}/domain`);
      expect(domains).toHaveLength(2);
      const one = domains.find((d: Json) => d.name === 'one.flags.example');
      expect((await get(ctx, `/client/${client.id}/domain/${one.id}/embedding`))[0].scriptMarkers).toEqual(['gtag/js']);
      expect((await get(ctx, `/client/${client.id}/domain/${one.id}/theme`)).map((t: Json) => t.customCss)).toContain('p{}');
    });

    it('refuses a file that is not an export', async () => {
      await expect(importCcm19(depsOf(ctx), { something: 'else' })).rejects.toThrow(/clients/);
    });
  });
}
