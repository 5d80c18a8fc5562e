import type { LocaleTexts } from '../builtin-texts.js';

export const nl: LocaleTexts = {
  widgetTitle: 'Privacyinstellingen',
  widgetIntroText:
    'Op deze website gebruiken we cookies en vergelijkbare technieken. Sommige zijn nodig om de website te laten werken. Andere helpen ons het gebruik te analyseren, content te personaliseren of externe diensten in te sluiten; die gebruiken we alleen met uw toestemming. U kunt uw toestemming op elk moment wijzigen of intrekken in de instellingen. Meer informatie vindt u in de instellingen en in onze privacyverklaring.',
  widgetDeclineButtonText: 'Alles weigeren',
  widgetFullConsentButtonText: 'Alles accepteren',
  widgetSettingsButtonText: 'Instellingen',
  checkAllButtonText: 'Alles selecteren',
  uncheckAllButtonText: 'Alles deselecteren',
  imprint: 'Colofon',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Privacyverklaring',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Toegankelijkheid',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Kies wat u toestaat',
  categoriesCancelButtonText: 'Terug',
  categoriesFullConsentButtonText: 'Alles accepteren',
  categoriesSaveButtonText: 'Selectie opslaan',
  detailsTitle: 'Diensten in detail',
  detailsCloseButtonText: 'Sluiten',
  embeddingVendorLabel: 'Aanbieder',
  embeddingDescriptionLabel: 'Beschrijving',
  embeddingPrivacyPolicyUrlLabel: 'Privacyverklaring van de aanbieder',
  embeddingLifetimeLabel: 'Bewaartermijn',
  embeddingWhichDataIsCollectedLabel: 'Verzamelde gegevens',
  embeddingPurposeOfDataCollectionLabel: 'Doel van de verwerking',
  embeddingLegalBasisLabel: 'Rechtsgrond',
  embeddingPlaceOfProcessingLabel: 'Plaats van verwerking',
  embeddingAssetNameLabel: 'Naam',
  embeddingAssetLifetimeLabel: 'Vervaltermijn',
  embeddingAssetDescriptionLabel: 'Beschrijving',
  blockedContentTitle: 'Geblokkeerde content',
  blockedContentDisclaimer:
    'Deze content wordt geleverd door een externe dienst. Als u deze laadt, worden uw IP-adres en mogelijk andere gegevens naar de aanbieder verzonden, die ook cookies kan plaatsen.',
  blockedContentConsentButtonText: 'Content laden',
  blockedContentConsentSwitchShowExternalContent: 'Externe content altijd tonen',
  blockedContentConsentSwitchAllowEmbedding: 'Deze dienst altijd toestaan',
  blockedContentConsentSwitchProviderDetails: 'Details van de aanbieder',
  changeConsentText: 'Cookie-instellingen wijzigen',
  moreInformationLabel: 'Meer informatie',
  questionMarkButtonText: 'Details',
  tcfVendorIntroText:
    'We werken samen met de hier vermelde partners. Zij kunnen informatie op uw apparaat opslaan of uitlezen en persoonsgegevens verwerken voor de aangegeven doeleinden. Sommige partners beroepen zich op een gerechtvaardigd belang in plaats van toestemming; daartegen kunt u hier bezwaar maken.',
  tcfPurposeLabel: 'Doeleinden',
  tcfSpecialPurposeLabel: 'Speciale doeleinden',
  tcfFeaturesLabel: 'Functies',
  tcfSpecialFeaturesLabel: 'Speciale functies',
  tcfOptedInRemark: 'Alleen met uw uitdrukkelijke toestemming',
  tcfThirdPartiesLabel: 'Externe partijen',
  nonTcfPurposesLabel: 'Overige doeleinden',
  nonTcfVendorsLabel: 'Overige aanbieders',
  tcfVendorUsesNonCookieStorageText:
    'Deze aanbieder gebruikt ook andere opslagmethoden, zoals de lokale opslag van uw browser.',
  tcfSpecialFeaturesHandledGloballyText:
    'Speciale functies gelden voor alle aanbieders en kunnen alleen voor alle aanbieders tegelijk worden toegestaan of geweigerd.',
  tcfStacksListText: 'Dit omvat de volgende doeleinden:',
  tcfCookieRefreshText: 'De bewaartermijn kan bij elk bezoek opnieuw beginnen.',
  tcfExtendedDisclosureText: 'Uitgebreide informatie over opslag en toegang',
  tcfAssetTypeLabel: 'Type',
  tcfAssetPurposesLabel: 'Doeleinden',
  purposeNames: {
    '41ba25c': 'Technisch noodzakelijk',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Statistieken',
    '7c19e32': 'Personalisatie',
    '6cd2721': 'Sociale media',
    '15c61c3': 'Overig',
  },
  purposeDescriptions: {
    '41ba25c':
      'Nodig voor basisfuncties zoals navigatie, beveiliging en het opslaan van uw privacyinstellingen. Deze kunnen niet worden uitgeschakeld.',
    'cdcbd7c':
      'Wordt gebruikt om advertenties te tonen die bij uw interesses passen en om het succes van campagnes te meten, ook op andere websites.',
    'a717ff5':
      'Helpt ons te begrijpen hoe bezoekers de website gebruiken, bijvoorbeeld welke pagina’s het vaakst worden bekeken, zodat we de website kunnen verbeteren.',
    '7c19e32':
      'Onthoudt uw voorkeuren en keuzes, zodat content en functies op u kunnen worden afgestemd.',
    '6cd2721':
      'Maakt het mogelijk content van sociale netwerken in te sluiten en te delen. Deze netwerken kunnen de gegevens ook voor eigen doeleinden gebruiken.',
    '15c61c3':
      'Diensten die in geen van de andere categorieën passen. De details van elke dienst vindt u in de instellingen.',
  },
};
