import type { LocaleTexts } from '../builtin-texts.js';

export const de: LocaleTexts = {
  widgetTitle: 'Datenschutzeinstellungen',
  widgetIntroText:
    'Wir verwenden auf dieser Website Cookies und ähnliche Technologien. Einige davon sind notwendig, damit die Website funktioniert. Andere helfen uns, die Nutzung zu analysieren, Inhalte zu personalisieren oder externe Dienste einzubinden; diese setzen wir nur mit Ihrer Einwilligung ein. Sie können Ihre Einwilligung jederzeit in den Einstellungen ändern oder widerrufen. Details finden Sie in den Einstellungen und in unserer Datenschutzerklärung.',
  widgetDeclineButtonText: 'Ablehnen',
  widgetFullConsentButtonText: 'Alle akzeptieren',
  widgetSettingsButtonText: 'Einstellungen',
  checkAllButtonText: 'Alle auswählen',
  uncheckAllButtonText: 'Auswahl aufheben',
  imprint: 'Impressum',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Datenschutzerklärung',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Barrierefreiheit',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Wählen Sie, was Sie erlauben',
  categoriesCancelButtonText: 'Zurück',
  categoriesFullConsentButtonText: 'Alle akzeptieren',
  categoriesSaveButtonText: 'Auswahl speichern',
  detailsTitle: 'Dienste im Detail',
  detailsCloseButtonText: 'Schließen',
  embeddingVendorLabel: 'Anbieter',
  embeddingDescriptionLabel: 'Beschreibung',
  embeddingPrivacyPolicyUrlLabel: 'Datenschutzerklärung des Anbieters',
  embeddingLifetimeLabel: 'Speicherdauer',
  embeddingWhichDataIsCollectedLabel: 'Erhobene Daten',
  embeddingPurposeOfDataCollectionLabel: 'Zweck der Verarbeitung',
  embeddingLegalBasisLabel: 'Rechtsgrundlage',
  embeddingPlaceOfProcessingLabel: 'Ort der Verarbeitung',
  embeddingAssetNameLabel: 'Name',
  embeddingAssetLifetimeLabel: 'Ablauf',
  embeddingAssetDescriptionLabel: 'Beschreibung',
  blockedContentTitle: 'Blockierter Inhalt',
  blockedContentDisclaimer:
    'Dieser Inhalt wird von einem externen Dienst bereitgestellt. Wenn Sie ihn laden, werden Ihre IP-Adresse und gegebenenfalls weitere Daten an den Anbieter übermittelt, der auch Cookies setzen kann.',
  blockedContentConsentButtonText: 'Inhalt laden',
  blockedContentConsentSwitchShowExternalContent: 'Externe Inhalte immer anzeigen',
  blockedContentConsentSwitchAllowEmbedding: 'Diesen Dienst immer erlauben',
  blockedContentConsentSwitchProviderDetails: 'Details zum Anbieter',
  changeConsentText: 'Cookie-Einstellungen ändern',
  moreInformationLabel: 'Weitere Informationen',
  questionMarkButtonText: 'Details',
  tcfVendorIntroText:
    'Wir arbeiten mit den hier aufgeführten Partnern zusammen. Sie können Informationen auf Ihrem Gerät speichern oder abrufen und personenbezogene Daten für die angegebenen Zwecke verarbeiten. Einige Partner berufen sich statt auf eine Einwilligung auf ein berechtigtes Interesse; dem können Sie hier widersprechen.',
  tcfPurposeLabel: 'Zwecke',
  tcfSpecialPurposeLabel: 'Besondere Zwecke',
  tcfFeaturesLabel: 'Funktionen',
  tcfSpecialFeaturesLabel: 'Besondere Funktionen',
  tcfOptedInRemark: 'Nur mit Ihrer ausdrücklichen Einwilligung',
  tcfThirdPartiesLabel: 'Drittanbieter',
  nonTcfPurposesLabel: 'Weitere Zwecke',
  nonTcfVendorsLabel: 'Weitere Anbieter',
  tcfVendorUsesNonCookieStorageText:
    'Dieser Anbieter nutzt auch andere Speichermethoden, zum Beispiel den lokalen Speicher Ihres Browsers.',
  tcfSpecialFeaturesHandledGloballyText:
    'Besondere Funktionen gelten für alle Anbieter und können nur für alle gemeinsam erlaubt oder abgelehnt werden.',
  tcfStacksListText: 'Dazu gehören folgende Zwecke:',
  tcfCookieRefreshText: 'Die Speicherdauer kann bei jedem Besuch neu beginnen.',
  tcfExtendedDisclosureText: 'Ausführliche Angaben zu Speicherung und Zugriff',
  tcfAssetTypeLabel: 'Typ',
  tcfAssetPurposesLabel: 'Zwecke',
  purposeNames: {
    '41ba25c': 'Technisch notwendig',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Statistik',
    '7c19e32': 'Personalisierung',
    '6cd2721': 'Soziale Medien',
    '15c61c3': 'Sonstiges',
  },
  purposeDescriptions: {
    '41ba25c':
      'Erforderlich für grundlegende Funktionen wie Seitennavigation, Sicherheit und das Speichern Ihrer Datenschutzeinstellungen. Diese können nicht deaktiviert werden.',
    'cdcbd7c':
      'Dient dazu, Werbung passend zu Ihren Interessen anzuzeigen und den Erfolg von Kampagnen zu messen, auch auf anderen Websites.',
    'a717ff5':
      'Hilft uns zu verstehen, wie Besucher die Website nutzen, zum Beispiel welche Seiten am häufigsten aufgerufen werden, damit wir sie verbessern können.',
    '7c19e32':
      'Speichert Ihre Vorlieben und Auswahlen, damit Inhalte und Funktionen an Sie angepasst werden können.',
    '6cd2721':
      'Ermöglicht es, Inhalte aus sozialen Netzwerken einzubinden und zu teilen. Die Netzwerke können die Daten auch für eigene Zwecke nutzen.',
    '15c61c3':
      'Dienste, die in keine der anderen Kategorien passen. Details zu jedem Dienst finden Sie in den Einstellungen.',
  },
};
