import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp } from '../../../test/helper.js';
import { BUILTIN_TEXTS } from '../locales/builtin-texts.js';
import { autonym } from './widget-config.js';
import { namedTexts } from '../../../widget/src/text-fields.js';

type Bundle = { n: string; t: string[]; pu: Record<string, [string, string]>; e: Record<string, unknown[]> };
type Served = { loc: Record<string, Bundle>; dl: string; fl: string };

/** The configuration object inlined into a served widget (as `JSON.parse("…")`). */
function inlinedConfig(body: string): Served {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  expect(match).not.toBeNull();
  return JSON.parse(JSON.parse(match![1]!)) as Served;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: languages offered (offerBuiltinLanguages)`, () => {
    const ctx = useApp(dialect);
    const setup = async (domain: Record<string, unknown> = {}, client: Record<string, unknown> = {}) => {
      const c = await createClient(ctx, client);
      const d = await createDomain(ctx, c.id, { name: 'shop.example', ...domain });
      const base = `/hosting/api/client/${c.id}/domain/${d.id}`;
      const call = (method: 'POST' | 'PUT', path: string, payload: Record<string, unknown>) =>
        ctx.hosting({ method, url: `${base}${path}`, payload });
      const widget = async (acceptLanguage?: string, query = '') => {
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/public/app.js?apiKey=${c.apiKey}&domain=${d.id}${query}`,
          headers: { referer: 'https://shop.example/', ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
        });
        expect(res.statusCode).toBe(200);
        return inlinedConfig(res.body);
      };
      return { client: c, domain: d, call, widget };
    };

    it('is on by default for a new domain', async () => {
      const { domain } = await setup();
      expect(domain).toMatchObject({ offerBuiltinLanguages: true });
    });

    it('offers the built-in language an English browser reads beside a German-only domain, with the site\'s legal links', async () => {
      const { call, widget } = await setup();
      const de = {
        name: 'de_DE',
        widgetTitle: 'Datenschutz bei Acme',
        privacyPolicyUrl: 'https://shop.example/datenschutz',
        imprintUrl: 'https://shop.example/impressum',
        imprintHtmlCode: '<p>Acme GmbH</p>',
      };
      expect((await call('POST', '/locale', de)).statusCode).toBe(201);
      const served = await widget('en-US,en;q=0.9');
      expect(Object.keys(served.loc)).toEqual(['de_DE', 'en']);
      expect(served.dl).toBe('de_DE');
      // Words in English (the built-in texts), never the domain's German ones …
      expect(namedTexts(served.loc.en!.t).widgetTitle).toBe(BUILTIN_TEXTS.en.widgetTitle);
      expect(namedTexts(served.loc.en!.t).widgetFullConsentButtonText).toBe(BUILTIN_TEXTS.en.widgetFullConsentButtonText);
      expect(served.loc.en!.pu['a717ff5']![0]).toBe(BUILTIN_TEXTS.en.purposeNames['a717ff5']);
      // … the site's legal pages from its default locale.
      expect(namedTexts(served.loc.en!.t)).toMatchObject({
        privacyPolicyUrl: de.privacyPolicyUrl,
        imprintUrl: de.imprintUrl,
        imprintHtmlCode: de.imprintHtmlCode,
      });
      expect(namedTexts(served.loc.de_DE!.t).widgetTitle).toBe(de.widgetTitle);
    });

    it('adds nothing when the browser prefers a language the domain has, or one without built-in texts before it', async () => {
      const { call, widget } = await setup();
      await call('POST', '/locale', { name: 'de_DE' });
      await call('POST', '/locale', { name: 'ja_JP' });
      expect(Object.keys((await widget('de-AT, en;q=0.5')).loc)).toEqual(['de_DE', 'ja_JP']);
      expect(Object.keys((await widget('ja, en;q=0.5')).loc)).toEqual(['de_DE', 'ja_JP']);
      expect(Object.keys((await widget('zh, ja;q=0.9, en;q=0.5')).loc)).toEqual(['de_DE', 'ja_JP']);
      expect(Object.keys((await widget('zh, pl;q=0.9, de;q=0.5')).loc)).toEqual(['de_DE', 'ja_JP', 'pl']);
      expect(Object.keys((await widget()).loc)).toEqual(['de_DE', 'ja_JP']);
    });

    it('embedding texts follow the embedding\'s translation of that language, else its own', async () => {
      const { call, widget } = await setup();
      await call('POST', '/locale', { name: 'de_DE' });
      const emb = (
        await call('POST', '/embedding', {
          name: 'Karten',
          purpose: '15c61c3',
          description: 'Zeigt Karten',
          translations: { en: { name: 'Maps', description: 'Shows maps' } },
        })
      ).json<{ id: string }>();
      const served = await widget('en');
      expect(served.loc.en!.e[emb.id]!.slice(0, 3)).toEqual(['Maps', '', 'Shows maps']);
      expect((await widget('fr')).loc.fr!.e[emb.id]![0]).toBe('Karten');
    });

    it('serves the four locale fields the reference model places in the details layer and the iframe blocker', async () => {
      const { call, widget } = await setup();
      await call('POST', '/locale', { name: 'de_DE', moreInformationLabel: 'Mehr dazu' });
      const emb = (
        await call('POST', '/embedding', {
          name: 'Stats',
          purpose: 'a717ff5',
          assets: [
            { name: '_ga', storageType: 'cookie', lifetime: '2 Jahre', translations: { en: { lifetime: '2 years', description: '' } } },
            { name: '_gid', storageType: 'cookie', lifetime: '1 Tag' },
            { name: '_gat', storageType: 'cookie', lifetime: '1 Tag' },
          ],
        })
      ).json<{ id: string }>();
      const served = await widget('en');
      expect(namedTexts(served.loc.de_DE!.t)).toMatchObject({
        embeddingLifetimeLabel: BUILTIN_TEXTS.de.embeddingLifetimeLabel,
        blockedContentConsentSwitchShowExternalContent: BUILTIN_TEXTS.de.blockedContentConsentSwitchShowExternalContent,
        blockedContentConsentSwitchProviderDetails: BUILTIN_TEXTS.de.blockedContentConsentSwitchProviderDetails,
        moreInformationLabel: 'Mehr dazu',
      });
      expect(namedTexts(served.loc.en!.t).moreInformationLabel).toBe(BUILTIN_TEXTS.en.moreInformationLabel);
      // The embedding's storage period: its assets' lifetimes, each once, in the locale's translation.
      expect(served.loc.de_DE!.e[emb.id]![12]).toBe('2 Jahre, 1 Tag');
      expect(served.loc.en!.e[emb.id]![12]).toBe('2 years, 1 Tag');
    });

    it('names each offered language in itself for the switcher, and labels the switcher in the locale\'s language', async () => {
      const { call, widget } = await setup();
      await call('POST', '/locale', { name: 'de_DE' });
      const served = await widget('fr');
      expect(Object.fromEntries(Object.entries(served.loc).map(([k, b]) => [k, b.n]))).toEqual({ de_DE: 'Deutsch', fr: 'Français' });
      expect(namedTexts(served.loc.fr!.t).languageLabel).toBe('Langue');
      expect(namedTexts(served.loc.de_DE!.t).languageLabel).toBe('Sprache');
    });

    it('off: offers only the domain\'s locales; a domain without any still gets the browser\'s built-in language', async () => {
      const { call, widget } = await setup({ offerBuiltinLanguages: false });
      expect(Object.keys((await widget('fr-FR')).loc)).toEqual(['fr']);
      await call('POST', '/locale', { name: 'de_DE' });
      expect(Object.keys((await widget('fr-FR')).loc)).toEqual(['de_DE']);
      expect((await call('PUT', '', { offerBuiltinLanguages: true })).statusCode).toBe(200);
      expect(Object.keys((await widget('fr-FR')).loc)).toEqual(['de_DE', 'fr']);
    });

    it('keeps a forced lang working beside the offered language', async () => {
      const { call, widget } = await setup();
      await call('POST', '/locale', { name: 'de_DE' });
      const forced = await widget('en', '&lang=fr');
      expect(Object.keys(forced.loc)).toEqual(['de_DE', 'en', 'fr']);
      expect(forced.fl).toBe('fr');
      const own = await widget('en', '&lang=de_DE');
      expect(own).toMatchObject({ fl: 'de_DE', dl: 'de_DE' });
    });

    it('without moreThan2Lang: still at most two languages, the domain\'s first', async () => {
      const { call, widget } = await setup({}, { features: { moreThan2Lang: false } });
      await call('POST', '/locale', { name: 'de_DE' });
      expect(Object.keys((await widget('en')).loc)).toEqual(['de_DE', 'en']);
      await call('POST', '/locale', { name: 'it_IT' });
      expect(Object.keys((await widget('en')).loc)).toEqual(['de_DE', 'it_IT']);
    });
  });
}

describe('autonym', () => {
  it('names a language in itself, with the region only where two offered locales share the language', () => {
    expect(autonym('el', ['de_DE', 'el'])).toBe('Ελληνικά');
    expect(autonym('pt_PT', ['pt_PT'])).toBe('Português');
    expect(autonym('de_AT', ['de_DE', 'de_AT'])).toBe('Österreichisches Deutsch');
    expect(autonym('de_DE', ['de_DE', 'de_AT'])).toBe('Deutsch (Deutschland)');
    expect(autonym('qq_ZZZ', ['qq_ZZZ'])).toMatch(/^qq/i);
  });
});
