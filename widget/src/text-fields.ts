/**
 * The order of a locale's texts in the served configuration (`LocaleBundle.t`, an array): the widget reads them by
 * position (`t(T.widgetTitle)`), so the 43 reference field names are not in its code or in every configuration.
 * Measured on 2026-11-28: 186 B of brotli off the base widget, the room for a frame whose address is set again while
 * it is held (iframes.ts). **Append only, never reorder:** stored consent snapshots are configurations as served,
 * and "what the visitor saw" (src/features/domain-api/domain-api.shown.ts) names their texts by this list.
 * `T` must match it position for position (src/features/widget/text-fields.test.ts checks that).
 */
export const TEXT_FIELDS = [
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
] as const;

export type TextField = (typeof TEXT_FIELDS)[number];

/**
 * Positions in TEXT_FIELDS: esbuild puts the numbers in the widget's code and drops the enum object (checked: the
 * same bytes as a const enum, which a test could not walk). A legal page's link text, `Url` and `HtmlCode` follow
 * each other.
 */
export enum T {
  widgetTitle, widgetIntroText, widgetDeclineButtonText, widgetFullConsentButtonText,
  widgetSettingsButtonText, checkAllButtonText, uncheckAllButtonText, imprint, imprintUrl,
  imprintHtmlCode, privacyPolicy, privacyPolicyUrl, privacyPolicyHtmlCode, accessibility,
  accessibilityUrl, accessibilityHtmlCode, categoriesTitle, categoriesCancelButtonText,
  categoriesFullConsentButtonText, categoriesSaveButtonText, detailsTitle, detailsCloseButtonText,
  embeddingVendorLabel, embeddingDescriptionLabel, embeddingPrivacyPolicyUrlLabel,
  embeddingWhichDataIsCollectedLabel, embeddingPurposeOfDataCollectionLabel, embeddingLegalBasisLabel,
  embeddingPlaceOfProcessingLabel, embeddingAssetNameLabel, embeddingAssetLifetimeLabel,
  embeddingAssetDescriptionLabel, blockedContentTitle, blockedContentDisclaimer,
  blockedContentConsentButtonText, blockedContentConsentSwitchAllowEmbedding, changeConsentText,
  questionMarkButtonText, embeddingLifetimeLabel, blockedContentConsentSwitchShowExternalContent,
  blockedContentConsentSwitchProviderDetails, moreInformationLabel, languageLabel,
}

/**
 * A served locale's texts by name (for the service and tests; the widget never calls it, so its build drops it).
 * Configurations served before 2026-11-28 (consent snapshots) have them as an object already.
 */
export const namedTexts = (t: readonly string[] | Record<string, string>): Record<string, string> =>
  Array.isArray(t) ? Object.fromEntries(TEXT_FIELDS.map((f, i) => [f, t[i] ?? ''])) : { ...(t as Record<string, string>) };

/** A legal link's field (`lg`): its name, from a position (served since 2026-11-28) or a name (before). */
export const legalField = (f: number | string): string => (typeof f == 'number' ? (TEXT_FIELDS[f] ?? String(f)) : f);
