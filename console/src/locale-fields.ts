/**
 * Every text of a locale (Hosting API `Locale`), grouped as the widget shows them, with a label per language.
 * The help under each field is the text the widget shows while the field is empty (the built-in text).
 */
type Label = [en: string, de: string];
export interface LocaleGroup {
  title: Label;
  fields: [key: string, label: Label][];
}

export const LOCALE_GROUPS: LocaleGroup[] = [
  {
    title: ['Banner', 'Banner'], fields: [
      ['widgetTitle', ['Title', 'Titel']],
      ['widgetIntroText', ['Introduction', 'Einleitung']],
      ['widgetFullConsentButtonText', ['Accept-all button', 'Knopf „Alle akzeptieren“']],
      ['widgetDeclineButtonText', ['Decline button', 'Knopf „Ablehnen“']],
      ['widgetSettingsButtonText', ['Settings button', 'Knopf „Einstellungen“']],
      ['checkAllButtonText', ['Select-all button', 'Knopf „Alle auswählen“']],
      ['uncheckAllButtonText', ['Deselect-all button', 'Knopf „Alle abwählen“']],
    ],
  },
  {
    title: ['Legal pages', 'Rechtliche Seiten'], fields: [
      ['imprint', ['Imprint: link text', 'Impressum: Linktext']],
      ['imprintUrl', ['Imprint: address', 'Impressum: Adresse']],
      ['imprintHtmlCode', ['Imprint: text shown in the banner (HTML)', 'Impressum: Text im Banner (HTML)']],
      ['privacyPolicy', ['Privacy policy: link text', 'Datenschutzerklärung: Linktext']],
      ['privacyPolicyUrl', ['Privacy policy: address', 'Datenschutzerklärung: Adresse']],
      ['privacyPolicyHtmlCode', ['Privacy policy: text shown in the banner (HTML)', 'Datenschutzerklärung: Text im Banner (HTML)']],
      ['accessibility', ['Accessibility statement: link text', 'Barrierefreiheitserklärung: Linktext']],
      ['accessibilityUrl', ['Accessibility statement: address', 'Barrierefreiheitserklärung: Adresse']],
      ['accessibilityHtmlCode', ['Accessibility statement: text shown in the banner (HTML)', 'Barrierefreiheitserklärung: Text im Banner (HTML)']],
    ],
  },
  {
    title: ['Settings layer', 'Einstellungsebene'], fields: [
      ['categoriesTitle', ['Title', 'Titel']],
      ['categoriesFullConsentButtonText', ['Accept-all button', 'Knopf „Alle akzeptieren“']],
      ['categoriesSaveButtonText', ['Save button', 'Knopf „Speichern“']],
      ['categoriesCancelButtonText', ['Back button', 'Knopf „Zurück“']],
    ],
  },
  {
    title: ['Details layer', 'Detailebene'], fields: [
      ['detailsTitle', ['Title', 'Titel']],
      ['detailsCloseButtonText', ['Close button', 'Knopf „Schließen“']],
      ['embeddingVendorLabel', ['Label: vendor', 'Beschriftung: Anbieter']],
      ['embeddingDescriptionLabel', ['Label: description', 'Beschriftung: Beschreibung']],
      ['embeddingPrivacyPolicyUrlLabel', ['Label: privacy policy', 'Beschriftung: Datenschutzerklärung']],
      ['embeddingLifetimeLabel', ['Label: lifetime', 'Beschriftung: Laufzeit']],
      ['embeddingWhichDataIsCollectedLabel', ['Label: data collected', 'Beschriftung: erhobene Daten']],
      ['embeddingPurposeOfDataCollectionLabel', ['Label: purpose of the collection', 'Beschriftung: Zweck der Erhebung']],
      ['embeddingLegalBasisLabel', ['Label: legal basis', 'Beschriftung: Rechtsgrundlage']],
      ['embeddingPlaceOfProcessingLabel', ['Label: place of processing', 'Beschriftung: Ort der Verarbeitung']],
      ['embeddingAssetNameLabel', ['Label: cookie name', 'Beschriftung: Cookie-Name']],
      ['embeddingAssetLifetimeLabel', ['Label: cookie lifetime', 'Beschriftung: Cookie-Laufzeit']],
      ['embeddingAssetDescriptionLabel', ['Label: cookie description', 'Beschriftung: Cookie-Beschreibung']],
    ],
  },
  {
    title: ['Blocked iframes', 'Blockierte Iframes'], fields: [
      ['blockedContentTitle', ['Title', 'Titel']],
      ['blockedContentDisclaimer', ['Text', 'Text']],
      ['blockedContentConsentButtonText', ['Load button', 'Knopf „Laden“']],
      ['blockedContentConsentSwitchShowExternalContent', ['Switch: show external content', 'Schalter: externe Inhalte zeigen']],
      ['blockedContentConsentSwitchAllowEmbedding', ['Switch: allow this service', 'Schalter: diesen Dienst erlauben']],
      ['blockedContentConsentSwitchProviderDetails', ['Switch: vendor details', 'Schalter: Anbieterdetails']],
    ],
  },
  {
    title: ['Other texts', 'Weitere Texte'], fields: [
      ['changeConsentText', ['"Change your consent" link', 'Link „Einwilligung ändern“']],
      ['moreInformationLabel', ['"More information"', '„Weitere Informationen“']],
      ['questionMarkButtonText', ['Question-mark button', 'Fragezeichen-Knopf']],
    ],
  },
  {
    title: ['IAB TCF (stored; TCF is not implemented yet)', 'IAB TCF (gespeichert; TCF ist noch nicht umgesetzt)'], fields: [
      ['tcfVendorIntroText', ['Vendor introduction', 'Einleitung Anbieter']],
      ['tcfPurposeLabel', ['Label: purposes', 'Beschriftung: Zwecke']],
      ['tcfSpecialPurposeLabel', ['Label: special purposes', 'Beschriftung: besondere Zwecke']],
      ['tcfFeaturesLabel', ['Label: features', 'Beschriftung: Merkmale']],
      ['tcfSpecialFeaturesLabel', ['Label: special features', 'Beschriftung: Sondermerkmale']],
      ['tcfOptedInRemark', ['Opted-in remark', 'Hinweis Opt-in']],
      ['tcfThirdPartiesLabel', ['Label: third parties', 'Beschriftung: Dritte']],
      ['nonTcfPurposesLabel', ['Label: other purposes', 'Beschriftung: weitere Zwecke']],
      ['nonTcfVendorsLabel', ['Label: other vendors', 'Beschriftung: weitere Anbieter']],
      ['tcfVendorUsesNonCookieStorageText', ['Non-cookie storage text', 'Text Speicher ohne Cookies']],
      ['tcfSpecialFeaturesHandledGloballyText', ['Special features handled globally', 'Sondermerkmale global behandelt']],
      ['tcfStacksListText', ['Stacks list', 'Liste der Stapel']],
      ['tcfCookieRefreshText', ['Cookie refresh', 'Cookie-Auffrischung']],
      ['tcfExtendedDisclosureText', ['Extended disclosure', 'Erweiterte Offenlegung']],
      ['tcfAssetTypeLabel', ['Label: storage type', 'Beschriftung: Speicherart']],
      ['tcfAssetPurposesLabel', ['Label: storage purposes', 'Beschriftung: Speicherzwecke']],
    ],
  },
];

/** Purpose ids and their names in the console (the widget's names come from the locale). */
export const PURPOSE_LABELS: [id: string, label: Label][] = [
  ['41ba25c', ['Necessary', 'Notwendig']],
  ['a717ff5', ['Analytics', 'Statistik']],
  ['cdcbd7c', ['Advertising', 'Werbung']],
  ['7c19e32', ['Personalisation', 'Personalisierung']],
  ['6cd2721', ['Social media', 'Soziale Medien']],
  ['15c61c3', ['Other', 'Sonstige']],
];

export const LONG_TEXT = new Set(['widgetIntroText', 'imprintHtmlCode', 'privacyPolicyHtmlCode', 'accessibilityHtmlCode', 'blockedContentDisclaimer', 'tcfVendorIntroText']);
