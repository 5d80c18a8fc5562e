// Placet's own built-in banner texts: the fields a locale has, and, one module per language under
// builtin/, the texts used whenever a domain's locale leaves a field empty. All 24 official EU languages.

import { en } from './builtin/en.js';
import { de } from './builtin/de.js';
import { fr } from './builtin/fr.js';
import { es } from './builtin/es.js';
import { it } from './builtin/it.js';
import { nl } from './builtin/nl.js';
import { pl } from './builtin/pl.js';
import { bg } from './builtin/bg.js';
import { hr } from './builtin/hr.js';
import { cs } from './builtin/cs.js';
import { da } from './builtin/da.js';
import { et } from './builtin/et.js';
import { fi } from './builtin/fi.js';
import { el } from './builtin/el.js';
import { hu } from './builtin/hu.js';
import { ga } from './builtin/ga.js';
import { lv } from './builtin/lv.js';
import { lt } from './builtin/lt.js';
import { mt } from './builtin/mt.js';
import { pt } from './builtin/pt.js';
import { ro } from './builtin/ro.js';
import { sk } from './builtin/sk.js';
import { sl } from './builtin/sl.js';
import { sv } from './builtin/sv.js';

export const PURPOSE_IDS = [
  '41ba25c',
  'cdcbd7c',
  'a717ff5',
  '7c19e32',
  '6cd2721',
  '15c61c3',
] as const;
export type PurposeId = (typeof PURPOSE_IDS)[number];

export const LOCALE_TEXT_FIELDS = [
  // Banner
  'widgetTitle',
  'widgetIntroText',
  'widgetDeclineButtonText',
  'widgetFullConsentButtonText',
  'widgetSettingsButtonText',
  'checkAllButtonText',
  'uncheckAllButtonText',
  // Legal pages (link labels; HTML and URLs are site-specific)
  'imprint',
  'imprintHtmlCode',
  'imprintUrl',
  'privacyPolicy',
  'privacyPolicyHtmlCode',
  'privacyPolicyUrl',
  'accessibility',
  'accessibilityHtmlCode',
  'accessibilityUrl',
  // Settings layer
  'categoriesTitle',
  'categoriesCancelButtonText',
  'categoriesFullConsentButtonText',
  'categoriesSaveButtonText',
  // Details layer
  'detailsTitle',
  'detailsCloseButtonText',
  'embeddingVendorLabel',
  'embeddingDescriptionLabel',
  'embeddingPrivacyPolicyUrlLabel',
  'embeddingLifetimeLabel',
  'embeddingWhichDataIsCollectedLabel',
  'embeddingPurposeOfDataCollectionLabel',
  'embeddingLegalBasisLabel',
  'embeddingPlaceOfProcessingLabel',
  'embeddingAssetNameLabel',
  'embeddingAssetLifetimeLabel',
  'embeddingAssetDescriptionLabel',
  // Blocked iframe overlay
  'blockedContentTitle',
  'blockedContentDisclaimer',
  'blockedContentConsentButtonText',
  'blockedContentConsentSwitchShowExternalContent',
  'blockedContentConsentSwitchAllowEmbedding',
  'blockedContentConsentSwitchProviderDetails',
  // Misc
  'changeConsentText',
  'moreInformationLabel',
  'questionMarkButtonText',
  // Placet extension: the accessible name of the widget's language switcher
  'languageLabel',
  // IAB TCF
  'tcfVendorIntroText',
  'tcfPurposeLabel',
  'tcfSpecialPurposeLabel',
  'tcfFeaturesLabel',
  'tcfSpecialFeaturesLabel',
  'tcfOptedInRemark',
  'tcfThirdPartiesLabel',
  'nonTcfPurposesLabel',
  'nonTcfVendorsLabel',
  'tcfVendorUsesNonCookieStorageText',
  'tcfSpecialFeaturesHandledGloballyText',
  'tcfStacksListText',
  'tcfCookieRefreshText',
  'tcfExtendedDisclosureText',
  'tcfAssetTypeLabel',
  'tcfAssetPurposesLabel',
] as const;
export type LocaleTextField = (typeof LOCALE_TEXT_FIELDS)[number];

export type LocaleTexts = Record<LocaleTextField, string> & {
  purposeNames: Record<PurposeId, string>;
  purposeDescriptions: Record<PurposeId, string>;
};

/** The languages with built-in texts: English first (the last fallback), then the 23 other official EU languages. */
export const BUILTIN_LANGUAGES = [
  'en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'bg', 'hr', 'cs', 'da', 'et',
  'fi', 'el', 'hu', 'ga', 'lv', 'lt', 'mt', 'pt', 'ro', 'sk', 'sl', 'sv',
] as const;
export type BuiltinLanguage = (typeof BUILTIN_LANGUAGES)[number];

/**
 * The built-in languages whose texts were written with machine assistance and not yet reviewed by a native
 * speaker (all added for issue #19; en, de, fr, es, it, nl and pl predate them). A site owner who serves
 * visitors in one of these should read the texts once, or override them with a locale; docs/widget.md,
 * "Languages". Remove a language from this list when a native speaker has reviewed it.
 */
export const MACHINE_ASSISTED_LANGUAGES: readonly BuiltinLanguage[] = [
  'bg', 'hr', 'cs', 'da', 'et', 'fi', 'el', 'hu', 'ga', 'lv', 'lt', 'mt', 'pt', 'ro', 'sk', 'sl', 'sv',
];

export const BUILTIN_TEXTS: Readonly<Record<BuiltinLanguage, LocaleTexts>> = {
  en, de, fr, es, it, nl, pl, bg, hr, cs, da, et, fi, el, hu, ga, lv, lt, mt, pt, ro, sk, sl, sv,
};

/** Fields that hold HTML and are not escaped by the widget; every other text is escaped. */
export const HTML_TEXT_FIELDS: readonly LocaleTextField[] = [
  'imprintHtmlCode',
  'privacyPolicyHtmlCode',
  'accessibilityHtmlCode',
];

/** Fields that belong to the site (its legal pages) and have no built-in value in any language. */
export const SITE_TEXT_FIELDS: readonly LocaleTextField[] = [
  'imprintUrl',
  'privacyPolicyUrl',
  'accessibilityUrl',
  ...HTML_TEXT_FIELDS,
];
