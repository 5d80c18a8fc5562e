import { describe, expect, it } from 'vitest';
import { legalField, namedTexts, T, TEXT_FIELDS } from '../../../widget/src/text-fields.js';
import type { ConsentRecord } from '../consent-log/consent-log.record.js';
import { shownOf } from '../domain-api/domain-api.shown.js';
import { WIDGET_TEXT_FIELDS } from './widget-config.js';

/** The list as it was first served (2026-11-28): every snapshot since reads back with it, so it may only grow. */
const FIRST_SERVED = [
  'widgetTitle', 'widgetIntroText', 'widgetDeclineButtonText', 'widgetFullConsentButtonText',
  'widgetSettingsButtonText', 'checkAllButtonText', 'uncheckAllButtonText', 'imprint', 'imprintUrl',
  'imprintHtmlCode', 'privacyPolicy', 'privacyPolicyUrl', 'privacyPolicyHtmlCode', 'accessibility',
  'accessibilityUrl', 'accessibilityHtmlCode', 'categoriesTitle', 'categoriesCancelButtonText',
  'categoriesFullConsentButtonText', 'categoriesSaveButtonText', 'detailsTitle', 'detailsCloseButtonText',
  'embeddingVendorLabel', 'embeddingDescriptionLabel', 'embeddingPrivacyPolicyUrlLabel',
  'embeddingWhichDataIsCollectedLabel', 'embeddingPurposeOfDataCollectionLabel', 'embeddingLegalBasisLabel',
  'embeddingPlaceOfProcessingLabel', 'embeddingAssetNameLabel', 'embeddingAssetLifetimeLabel',
  'embeddingAssetDescriptionLabel', 'blockedContentTitle', 'blockedContentDisclaimer',
  'blockedContentConsentButtonText', 'blockedContentConsentSwitchAllowEmbedding', 'changeConsentText',
  'questionMarkButtonText', 'embeddingLifetimeLabel', 'blockedContentConsentSwitchShowExternalContent',
  'blockedContentConsentSwitchProviderDetails', 'moreInformationLabel', 'languageLabel',
];

const record = (lang: string): ConsentRecord => ({
  consent: true, ucid: 'a'.repeat(64), timestamp: 1_795_600_000, purposes: {}, embeddings: {}, manipulationPrevention: true,
  button: 'acceptAll', lang, revision: 1, legalRevision: 1, themeId: null, gpc: null, dnt: null, snapshot: 'f'.repeat(64), v: 2,
});

describe('the order of a locale\'s texts in the served configuration', () => {
  it('only grows: what was served first keeps its positions, and the service serves this list', () => {
    expect(TEXT_FIELDS.slice(0, FIRST_SERVED.length)).toEqual(FIRST_SERVED);
    expect(WIDGET_TEXT_FIELDS).toBe(TEXT_FIELDS);
    expect(new Set(TEXT_FIELDS).size).toBe(TEXT_FIELDS.length);
  });

  it('the widget\'s positions (T) are the list\'s, name for name; a legal page\'s Url and HtmlCode follow its link text', () => {
    for (const [i, name] of TEXT_FIELDS.entries()) expect((T as unknown as Record<string, number>)[name], name).toBe(i);
    for (const f of ['imprint', 'privacyPolicy', 'accessibility'] as const) {
      const at = TEXT_FIELDS.indexOf(f);
      expect([TEXT_FIELDS[at + 1], TEXT_FIELDS[at + 2]]).toEqual([`${f}Url`, `${f}HtmlCode`]);
    }
  });

  it('"what the visitor saw" names the texts of a snapshot served as an array and of one served before, by field', () => {
    const texts = TEXT_FIELDS.map((f) => `text of ${f}`);
    const now = shownOf(record('de_DE'), {
      hash: 'f'.repeat(64), createdAt: 0,
      config: JSON.stringify({ dl: 'de_DE', loc: { de_DE: { t: texts, pu: {}, e: {} } }, lg: [[T.imprint, true, false], [T.privacyPolicy, false, true]] }),
    });
    expect(now.shown!.texts.widgetTitle).toBe('text of widgetTitle');
    expect(now.shown!.texts.languageLabel).toBe('text of languageLabel');
    expect(Object.keys(now.shown!.texts)).toEqual([...TEXT_FIELDS]);
    expect(now.shown!.legalLinks).toEqual([['imprint', true, false], ['privacyPolicy', false, true]]);
    const before = shownOf(record('de_DE'), {
      hash: 'e'.repeat(64), createdAt: 0,
      config: JSON.stringify({ dl: 'de_DE', loc: { de_DE: { t: { widgetTitle: 'Datenschutz', widgetIntroText: 'Wir verwenden Cookies' }, pu: {}, e: {} } }, lg: [['imprint', true, false]] }),
    });
    expect(before.shown!.texts).toEqual({ widgetTitle: 'Datenschutz', widgetIntroText: 'Wir verwenden Cookies' });
    expect(before.shown!.legalLinks).toEqual([['imprint', true, false]]);
    expect(namedTexts([]).widgetTitle).toBe('');
    expect(legalField(99)).toBe('99');
  });
});
