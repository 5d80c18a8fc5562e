import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const sv: LocaleTexts = {
  widgetTitle: 'Integritetsinställningar',
  widgetIntroText:
    'Vi använder cookies och liknande tekniker på den här webbplatsen. Vissa av dem är nödvändiga för att webbplatsen ska fungera. Andra hjälper oss att analysera hur webbplatsen används, anpassa innehåll eller bädda in externa tjänster; dem använder vi bara om du samtycker. Du kan när som helst ändra eller återkalla ditt samtycke i inställningarna. Mer information finns i inställningarna och i vår integritetspolicy.',
  widgetDeclineButtonText: 'Avvisa alla',
  widgetFullConsentButtonText: 'Godkänn alla',
  widgetSettingsButtonText: 'Inställningar',
  checkAllButtonText: 'Markera alla',
  uncheckAllButtonText: 'Avmarkera alla',
  imprint: 'Juridisk information',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Integritetspolicy',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Tillgänglighet',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Välj vad du tillåter',
  categoriesCancelButtonText: 'Tillbaka',
  categoriesFullConsentButtonText: 'Godkänn alla',
  categoriesSaveButtonText: 'Spara val',
  detailsTitle: 'Tjänsterna i detalj',
  detailsCloseButtonText: 'Stäng',
  embeddingVendorLabel: 'Leverantör',
  embeddingDescriptionLabel: 'Beskrivning',
  embeddingPrivacyPolicyUrlLabel: 'Leverantörens integritetspolicy',
  embeddingLifetimeLabel: 'Lagringstid',
  embeddingWhichDataIsCollectedLabel: 'Uppgifter som samlas in',
  embeddingPurposeOfDataCollectionLabel: 'Ändamål med behandlingen',
  embeddingLegalBasisLabel: 'Rättslig grund',
  embeddingPlaceOfProcessingLabel: 'Plats för behandlingen',
  embeddingAssetNameLabel: 'Namn',
  embeddingAssetLifetimeLabel: 'Giltighet',
  embeddingAssetDescriptionLabel: 'Beskrivning',
  blockedContentTitle: 'Blockerat innehåll',
  blockedContentDisclaimer:
    'Det här innehållet tillhandahålls av en extern tjänst. Om du laddar det skickas din IP-adress och eventuellt andra uppgifter till leverantören, som också kan sätta cookies.',
  blockedContentConsentButtonText: 'Ladda innehåll',
  blockedContentConsentSwitchShowExternalContent: 'Visa alltid externt innehåll',
  blockedContentConsentSwitchAllowEmbedding: 'Tillåt alltid den här tjänsten',
  blockedContentConsentSwitchProviderDetails: 'Uppgifter om leverantören',
  changeConsentText: 'Ändra cookieinställningar',
  moreInformationLabel: 'Mer information',
  questionMarkButtonText: 'Detaljer',
  languageLabel: 'Språk',
  tcfVendorIntroText:
    'Vi samarbetar med partnerna som listas här. De kan lagra eller komma åt information på din enhet och behandla personuppgifter för de ändamål som visas. Vissa partner stöder sig på berättigat intresse i stället för samtycke; du kan invända mot det här.',
  tcfPurposeLabel: 'Ändamål',
  tcfSpecialPurposeLabel: 'Särskilda ändamål',
  tcfFeaturesLabel: 'Funktioner',
  tcfSpecialFeaturesLabel: 'Särskilda funktioner',
  tcfOptedInRemark: 'Endast med ditt uttryckliga samtycke',
  tcfThirdPartiesLabel: 'Tredjepartsleverantörer',
  nonTcfPurposesLabel: 'Övriga ändamål',
  nonTcfVendorsLabel: 'Övriga leverantörer',
  tcfVendorUsesNonCookieStorageText:
    'Den här leverantören använder även andra lagringsmetoder, till exempel webbläsarens lokala lagring.',
  tcfSpecialFeaturesHandledGloballyText:
    'Särskilda funktioner gäller alla leverantörer och kan bara tillåtas eller avvisas för alla tillsammans.',
  tcfStacksListText: 'Detta omfattar följande ändamål:',
  tcfCookieRefreshText: 'Lagringstiden kan börja om vid varje besök.',
  tcfExtendedDisclosureText: 'Detaljerad information om lagring och åtkomst',
  tcfAssetTypeLabel: 'Typ',
  tcfAssetPurposesLabel: 'Ändamål',
  purposeNames: {
    '41ba25c': 'Nödvändiga',
    'cdcbd7c': 'Marknadsföring',
    'a717ff5': 'Statistik',
    '7c19e32': 'Preferenser',
    '6cd2721': 'Sociala medier',
    '15c61c3': 'Övrigt',
  },
  purposeDescriptions: {
    '41ba25c':
      'Behövs för grundläggande funktioner som navigering, säkerhet och att spara dina integritetsinställningar. De kan inte stängas av.',
    'cdcbd7c':
      'Används för att visa annonser som passar dina intressen och för att mäta hur väl kampanjer fungerar, även på andra webbplatser.',
    'a717ff5':
      'Hjälper oss att förstå hur besökare använder webbplatsen, till exempel vilka sidor som visas mest, så att vi kan förbättra den.',
    '7c19e32':
      'Kommer ihåg dina preferenser och val så att innehåll och funktioner kan anpassas efter dig.',
    '6cd2721':
      'Gör det möjligt att bädda in och dela innehåll från sociala nätverk. Nätverken kan även använda uppgifterna för egna ändamål.',
    '15c61c3':
      'Tjänster som inte passar in i någon av de andra kategorierna. Information om varje tjänst finns i inställningarna.',
  },
};
