import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../../test/browser.js';
import { DIALECTS, createClient, createDomain, useApp, type TestContext } from '../../../test/helper.js';
import { startTestSites, type TestSites } from '../../../test/fixtures/onboarding/test-site.js';
import { testConfig } from '../../config.js';
import { recordFoundLegalLinks } from './onboarding.repository.js';
import { namedTexts } from '../../../widget/src/text-fields.js';

interface Bundle {
  t: string[];
}

/** The legal URLs per locale as the served widget carries them. */
async function bannerLinks(ctx: TestContext, apiKey: string, domain: { id: string; name: string }, lang?: string) {
  const origin = /^https?:\/\//.test(domain.name) ? domain.name : `https://${domain.name}`;
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/public/app.js?apiKey=${apiKey}&domain=${domain.id}${lang ? `&lang=${lang}` : ''}`,
    headers: { referer: `${origin}/` },
  });
  expect(res.statusCode).toBe(200);
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(res.body);
  expect(match, res.body.slice(0, 200)).not.toBeNull();
  const config = JSON.parse(JSON.parse(match![1]!)) as { r: number; loc: Record<string, Bundle> };
  return {
    revision: config.r,
    links: Object.fromEntries(
      Object.entries(config.loc).map(([name, b]) => [name, { imprintUrl: namedTexts(b.t).imprintUrl, privacyPolicyUrl: namedTexts(b.t).privacyPolicyUrl }]),
    ),
  };
}

const found = { imprintUrl: 'https://shop.example/impressum', privacyPolicyUrl: 'https://shop.example/datenschutz' };

for (const dialect of DIALECTS) {
  describe(`${dialect}: legal links from the scan`, () => {
    const ctx = useApp(dialect);
    const setup = async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      return { client, domain, base };
    };
    const importPresets = async (base: string, body: unknown = [{ id: 3 }]) => {
      const res = await ctx.hosting({ method: 'POST', url: `${base}/onboarding/presets`, payload: body as object });
      expect(res.statusCode, res.body).toBe(201);
    };

    it('the import after a scan puts the imprint and privacy links on the banner of a domain without locales', async () => {
      const { client, domain, base } = await setup();
      const before = await bannerLinks(ctx, client.apiKey, domain);
      expect(before.links.en).toEqual({ imprintUrl: '', privacyPolicyUrl: '' });
      await recordFoundLegalLinks(ctx.database.db, domain.id, found, new Date().toISOString());
      // Remembered by the scan, not shown before the admin imports.
      expect((await bannerLinks(ctx, client.apiKey, domain)).links.en).toEqual({ imprintUrl: '', privacyPolicyUrl: '' });
      await importPresets(base);
      const after = await bannerLinks(ctx, client.apiKey, domain);
      expect(after.revision).toBeGreaterThan(before.revision);
      expect(after.links.en).toEqual(found);
      // Every language the domain's banner can show gets them.
      expect((await bannerLinks(ctx, client.apiKey, domain, 'de')).links.de).toEqual(found);
      // The row goes with its domain.
      expect((await ctx.hosting({ method: 'DELETE', url: base })).statusCode).toBe(204);
      const left = await ctx.database.db.selectFrom('onboarding_legal_links').select('domain_id').where('domain_id', '=', domain.id).execute();
      expect(left).toEqual([]);
    });

    it('embeddingsFromCookies applies them as well', async () => {
      const { client, domain, base } = await setup();
      await recordFoundLegalLinks(ctx.database.db, domain.id, found, new Date().toISOString());
      const res = await ctx.hosting({ method: 'POST', url: `${base}/onboarding/embeddingsFromCookies`, payload: [{ name: '_ga', storageType: 'cookie' }] });
      expect(res.statusCode, res.body).toBe(201);
      expect((await bannerLinks(ctx, client.apiKey, domain)).links.en).toEqual(found);
    });

    it('a locale\'s own URL wins; a locale without one gets the scanned page', async () => {
      const { client, domain, base } = await setup();
      for (const locale of [{ name: 'de_DE', imprintUrl: 'https://shop.example/eigenes-impressum' }, { name: 'en_GB' }]) {
        const res = await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: locale });
        expect(res.statusCode, res.body).toBe(201);
      }
      await recordFoundLegalLinks(ctx.database.db, domain.id, found, new Date().toISOString());
      await importPresets(base);
      const { links } = await bannerLinks(ctx, client.apiKey, domain);
      expect(links.de_DE).toEqual({ imprintUrl: 'https://shop.example/eigenes-impressum', privacyPolicyUrl: found.privacyPolicyUrl });
      expect(links.en_GB).toEqual(found);
      // The locale's own fields are not written: the API shows what the admin set.
      const de = (await ctx.hosting({ method: 'GET', url: `${base}/locale/de_DE` })).json<Record<string, string>>();
      expect(de.privacyPolicyUrl).toBe('');
    });

    it('fills only empty links: a later scan that finds other pages does not replace applied ones', async () => {
      const { client, domain, base } = await setup();
      await recordFoundLegalLinks(ctx.database.db, domain.id, { imprintUrl: found.imprintUrl, privacyPolicyUrl: null }, new Date().toISOString());
      await importPresets(base);
      expect((await bannerLinks(ctx, client.apiKey, domain)).links.en).toEqual({ imprintUrl: found.imprintUrl, privacyPolicyUrl: '' });
      await recordFoundLegalLinks(ctx.database.db, domain.id, { imprintUrl: 'https://shop.example/legal', privacyPolicyUrl: found.privacyPolicyUrl }, new Date().toISOString());
      const revision = (await bannerLinks(ctx, client.apiKey, domain)).revision;
      await importPresets(base);
      const after = await bannerLinks(ctx, client.apiKey, domain);
      expect(after.links.en).toEqual(found);
      expect(after.revision).toBe(revision + 1);
      await importPresets(base); // nothing left to fill: no change at all
      expect((await bannerLinks(ctx, client.apiKey, domain)).revision).toBe(after.revision);
    });

    it('never applies anything but an http(s) URL', async () => {
      const { client, domain, base } = await setup();
      await recordFoundLegalLinks(ctx.database.db, domain.id, { imprintUrl: 'javascript:alert(1)', privacyPolicyUrl: 'data:text/html,x' }, new Date().toISOString());
      await importPresets(base);
      expect((await bannerLinks(ctx, client.apiKey, domain)).links.en).toEqual({ imprintUrl: '', privacyPolicyUrl: '' });
    });

    it('an import that fails changes nothing', async () => {
      const { client, domain, base } = await setup();
      await recordFoundLegalLinks(ctx.database.db, domain.id, found, new Date().toISOString());
      const res = await ctx.hosting({ method: 'POST', url: `${base}/onboarding/presets`, payload: [{ id: 999_999 }] });
      expect(res.statusCode).toBe(400);
      expect((await bannerLinks(ctx, client.apiKey, domain)).links.en).toEqual({ imprintUrl: '', privacyPolicyUrl: '' });
    });
  });
}

describe.skipIf(!CHROMIUM)('legal links: scan, then import, end to end', () => {
  const ctx = useApp('sqlite', { scan: { ...testConfig().scan, allowPrivateNetworks: true } });
  let sites: TestSites;
  beforeAll(async () => {
    sites = await startTestSites();
  });
  afterAll(async () => sites?.close());

  it('the banner links to the imprint and privacy pages the scan found', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: sites.siteUrl });
    const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const scan = await ctx.hosting({ method: 'GET', url: `${base}/onboarding/scan` });
    expect(scan.statusCode, scan.body).toBe(200);
    const res = await ctx.hosting({ method: 'POST', url: `${base}/onboarding/presets`, payload: [{ id: 3 }] });
    expect(res.statusCode, res.body).toBe(201);
    expect((await bannerLinks(ctx, client.apiKey, domain)).links.en).toEqual({
      imprintUrl: `${sites.siteUrl}/impressum`,
      privacyPolicyUrl: `${sites.siteUrl}/datenschutz`,
    });
  });
});
