import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { CreateEmbeddingBody } from '../embeddings/embeddings.schemas.js';
import { catalogueFileProblems, checkCatalogue } from './catalogue-rules.js';
import { presetToEmbedding } from './onboarding.service.js';
import { catalogueFile, presetCatalogue, presetTranslations, projectRoot, type Preset } from './preset-catalogue.js';

const text = readFileSync(catalogueFile(), 'utf8');
const presets = JSON.parse(text) as Preset[];
const clone = (): Preset[] => JSON.parse(text) as Preset[];

describe('preset catalogue (data/presets.json)', () => {
  it('has at least 80 services', () => {
    expect(presets.length).toBeGreaterThanOrEqual(80);
  });

  it('passes every catalogue rule', () => {
    expect(catalogueFileProblems(text)).toEqual([]);
    expect(checkCatalogue(presets).problems).toEqual([]);
  });

  it('is accepted by the dependency-free checker too', () => {
    const out = execFileSync(process.execPath, [path.join(projectRoot(), 'scripts/check-presets.mjs')], { encoding: 'utf8' });
    expect(out).toContain(`presets: ${presets.length} entries OK`);
  });

  it('gives every service English and German texts', () => {
    for (const p of presets) {
      expect(Object.keys(p.texts)).toEqual(expect.arrayContaining(['en', 'de']));
      for (const a of p.assets) expect(Object.keys(a.description)).toEqual(expect.arrayContaining(['en', 'de']));
    }
  });

  it('turns every preset into a valid embedding', () => {
    const validate = new Ajv.default({ allErrors: true, strict: false }).compile(CreateEmbeddingBody);
    for (const p of presets) {
      const ok = validate(presetToEmbedding(p, false));
      expect(ok, `${p.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('lists translations as en_US and de_DE', () => {
    const ga = presetCatalogue().byId.get(1)!;
    expect(presetTranslations(ga)).toEqual({
      en_US: { name: ga.texts.en.name, description: ga.texts.en.description },
      de_DE: { name: ga.texts.de.name, description: ga.texts.de.description },
    });
  });

  it('finds the project root from src/ and from a compiled dist/src/ folder alike', () => {
    const root = projectRoot();
    expect(projectRoot(path.join(root, 'src/features/onboarding'))).toBe(root);
    const fake = mkdtempSync(path.join(os.tmpdir(), 'placet-root-'));
    mkdirSync(path.join(fake, 'dist/src/features/onboarding'), { recursive: true });
    writeFileSync(path.join(fake, 'package.json'), '{}');
    expect(projectRoot(path.join(fake, 'dist/src/features/onboarding'))).toBe(fake);
  });
});

describe("the catalogue's markers against the addresses vendors hand out", () => {
  // As the widget matches: a marker is a lower-case substring of the script's address or inline text.
  const claims = (name: string, script: string) => presets.find((p) => p.name === name)!.scriptMarkers.some((m) => script.toLowerCase().includes(m));

  it("Facebook Social Plugins claims Meta's JavaScript SDK in each locale of the EU and the EEA and in its classic loader, and not Meta Pixel's script", () => {
    // Meta's locales for the official languages of the EU and the EEA (and the variants sites there use).
    const locales = ['bg_BG', 'cs_CZ', 'da_DK', 'de_DE', 'el_GR', 'en_GB', 'en_US', 'es_ES', 'et_EE', 'fi_FI', 'fr_FR', 'ga_IE', 'hr_HR', 'hu_HU',
      'is_IS', 'it_IT', 'lt_LT', 'lv_LV', 'mt_MT', 'nb_NO', 'nl_NL', 'nl_BE', 'nn_NO', 'pl_PL', 'pt_PT', 'pt_BR', 'ro_RO', 'sk_SK', 'sl_SI', 'sv_SE'];
    for (const locale of locales) {
      // The JavaScript SDK quickstart's tag (no `#xfbml` to go by), and the Customer Chat plugin's.
      expect(claims('Facebook Social Plugins', `https://connect.facebook.net/${locale}/sdk.js`), locale).toBe(true);
      expect(claims('Facebook Social Plugins', `https://connect.facebook.net/${locale}/sdk/xfbml.customerchat.js`), locale).toBe(true);
    }
    // The quickstart's init function, which the SDK calls once it has loaded.
    expect(claims('Facebook Social Plugins', "window.fbAsyncInit = function() {\n    FB.init({ appId: '1234567890123456', xfbml: true, version: 'v21.0' });\n  };")).toBe(true);
    // The loader of Meta's older social plugin code, whatever locale it names.
    const classic = `(function(d, s, id) {
  var js, fjs = d.getElementsByTagName(s)[0];
  if (d.getElementById(id)) return;
  js = d.createElement(s); js.id = id;
  js.src = "https://connect.facebook.net/ga_IE/sdk.js";
  fjs.parentNode.insertBefore(js, fjs);
}(document, 'script', 'facebook-jssdk'));`;
    expect(claims('Facebook Social Plugins', classic)).toBe(true);
    // The pixel's script and its base code are Meta Pixel's alone: claimed by both, it would wait for both.
    expect(claims('Facebook Social Plugins', 'https://connect.facebook.net/en_US/fbevents.js')).toBe(false);
    expect(claims('Meta Pixel', 'https://connect.facebook.net/fr_FR/sdk.js')).toBe(false);
    // A site's own or another vendor's `sdk.js` is not claimed.
    expect(claims('Facebook Social Plugins', 'https://www.example.com/js/sdk.js')).toBe(false);
  });

  it("Google Ads Conversion Tracking claims its tag through Site Kit's Google tag gateway, as Google Analytics 4 claims its own", () => {
    const gateway = (tag: string) => `https://shop.example/wp-content/plugins/google-site-kit/gtg/measurement.php?id=${tag}&s=/gtag/js`;
    expect(claims('Google Ads Conversion Tracking', gateway('AW-123456789'))).toBe(true);
    expect(claims('Google Analytics 4', gateway('AW-123456789'))).toBe(false);
    expect(claims('Google Ads Conversion Tracking', gateway('G-ABCDEF1234'))).toBe(false);
  });
});

describe('catalogue rules', () => {
  const broken: [string, (c: Preset[]) => void, RegExp][] = [
    ['a duplicate id', (c) => void (c[1]!.id = c[0]!.id), /id: 1 is already used/],
    ['a duplicate name', (c) => void (c[1]!.name = c[0]!.name.toUpperCase()), /name: .* is already used/],
    ['an unknown purpose', (c) => void (c[0]!.purpose = 'abcdef0' as Preset['purpose']), /purpose: "abcdef0"/],
    ['a plain-http privacy URL', (c) => void (c[0]!.privacyPolicyUrl = 'http://example.com'), /must start with https/],
    ['an upper-case marker', (c) => void (c[0]!.scriptMarkers = ['GoogleTagManager.com']), /must be lowercase/],
    ['a marker with a scheme', (c) => void (c[0]!.scriptMarkers = ['https://x.example']), /without scheme/],
    ['an unknown Consent Mode type', (c) => void (c[0]!.googleConsentMode = ['cookie_storage' as never]), /not a Consent Mode type/],
    ['a missing German text', (c) => void delete (c[0]!.texts as Record<string, unknown>).de, /missing locale "de"/],
    ['HTML in a text', (c) => void (c[0]!.texts.en.description = 'See <a href="x">here</a>'), /plain text/],
    ['a wildcard that is not dynamic', (c) => void (c[0]!.assets[1]!.dynamic = false), /contains \* so dynamic must be true/],
    ['a dynamic exact name', (c) => void (c[0]!.assets[0]!.dynamic = true), /has no \* so dynamic must be false/],
    ['a wildcard too short', (c) => void (c[0]!.assets[0] = { ...c[0]!.assets[0]!, name: 'a*', dynamic: true }), /needs at least 3 characters/],
    ['an unknown storage type', (c) => void (c[0]!.assets[0]!.storageType = 'cache' as never), /storageType: "cache"/],
    ['an extra key', (c) => void ((c[0] as unknown as Record<string, unknown>).tags = []), /unexpected key "tags"/],
    ['a missing lifetime translation', (c) => void delete (c[0]!.assets[0]!.lifetime as Record<string, unknown>).de, /lifetime: missing "de"/],
  ];
  it.each(broken)('reports %s', (_name, breakIt, message) => {
    const catalogue = clone();
    breakIt(catalogue);
    const { problems } = checkCatalogue(catalogue);
    expect(problems.some((p) => message.test(p)), problems.join('\n')).toBe(true);
  });

  it('reports a file that is not formatted with 2-space indentation', () => {
    expect(catalogueFileProblems(JSON.stringify(presets))).toEqual([expect.stringMatching(/2-space indentation/)]);
    expect(catalogueFileProblems(`\uFEFF${text}`)).toEqual([expect.stringMatching(/byte order mark/)]);
  });

  it('warns, without failing, when an exact name belongs to two presets', () => {
    const catalogue = clone();
    catalogue[1]!.assets.push({ ...catalogue[0]!.assets[0]! });
    const report = checkCatalogue(catalogue);
    expect(report.problems).toEqual([]);
    expect(report.warnings).toEqual([expect.stringContaining('cookie _ga appears in several presets')]);
  });
});
