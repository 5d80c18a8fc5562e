import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const da: LocaleTexts = {
  widgetTitle: 'Privatlivsindstillinger',
  widgetIntroText:
    'Vi bruger cookies og lignende teknologier på dette website. Nogle af dem er nødvendige for, at sitet kan fungere. Andre hjælper os med at analysere brugen af sitet, tilpasse indhold eller indlejre eksterne tjenester; dem bruger vi kun, hvis du giver dit samtykke. Du kan til enhver tid ændre eller trække dit samtykke tilbage i indstillingerne. Du finder flere oplysninger i indstillingerne og i vores privatlivspolitik.',
  widgetDeclineButtonText: 'Afvis alle',
  widgetFullConsentButtonText: 'Accepter alle',
  widgetSettingsButtonText: 'Indstillinger',
  checkAllButtonText: 'Vælg alle',
  uncheckAllButtonText: 'Fravælg alle',
  imprint: 'Juridiske oplysninger',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Privatlivspolitik',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Tilgængelighed',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Vælg, hvad du tillader',
  categoriesCancelButtonText: 'Tilbage',
  categoriesFullConsentButtonText: 'Accepter alle',
  categoriesSaveButtonText: 'Gem valg',
  detailsTitle: 'Tjenester i detaljer',
  detailsCloseButtonText: 'Luk',
  embeddingVendorLabel: 'Udbyder',
  embeddingDescriptionLabel: 'Beskrivelse',
  embeddingPrivacyPolicyUrlLabel: 'Udbyderens privatlivspolitik',
  embeddingLifetimeLabel: 'Opbevaringsperiode',
  embeddingWhichDataIsCollectedLabel: 'Indsamlede data',
  embeddingPurposeOfDataCollectionLabel: 'Formål med behandlingen',
  embeddingLegalBasisLabel: 'Retsgrundlag',
  embeddingPlaceOfProcessingLabel: 'Sted for behandlingen',
  embeddingAssetNameLabel: 'Navn',
  embeddingAssetLifetimeLabel: 'Udløb',
  embeddingAssetDescriptionLabel: 'Beskrivelse',
  blockedContentTitle: 'Blokeret indhold',
  blockedContentDisclaimer:
    'Dette indhold leveres af en ekstern tjeneste. Hvis du indlæser det, sendes din IP-adresse og eventuelt andre data til udbyderen, som også kan sætte cookies.',
  blockedContentConsentButtonText: 'Indlæs indhold',
  blockedContentConsentSwitchShowExternalContent: 'Vis altid eksternt indhold',
  blockedContentConsentSwitchAllowEmbedding: 'Tillad altid denne tjeneste',
  blockedContentConsentSwitchProviderDetails: 'Oplysninger om udbyderen',
  changeConsentText: 'Skift cookieindstillinger',
  moreInformationLabel: 'Flere oplysninger',
  questionMarkButtonText: 'Detaljer',
  languageLabel: 'Sprog',
  tcfVendorIntroText:
    'Vi samarbejder med de partnere, der er anført her. De kan gemme eller tilgå oplysninger på din enhed og behandle personoplysninger til de viste formål. Nogle partnere baserer sig på legitim interesse i stedet for samtykke; det kan du gøre indsigelse mod her.',
  tcfPurposeLabel: 'Formål',
  tcfSpecialPurposeLabel: 'Særlige formål',
  tcfFeaturesLabel: 'Funktioner',
  tcfSpecialFeaturesLabel: 'Særlige funktioner',
  tcfOptedInRemark: 'Kun med dit udtrykkelige samtykke',
  tcfThirdPartiesLabel: 'Tredjepartsleverandører',
  nonTcfPurposesLabel: 'Andre formål',
  nonTcfVendorsLabel: 'Andre udbydere',
  tcfVendorUsesNonCookieStorageText:
    'Denne leverandør bruger også andre former for lagring, f.eks. din browsers lokale lager.',
  tcfSpecialFeaturesHandledGloballyText:
    'Særlige funktioner gælder for alle leverandører og kan kun tillades eller afvises for dem alle samlet.',
  tcfStacksListText: 'Det omfatter følgende formål:',
  tcfCookieRefreshText: 'Opbevaringsperioden kan starte forfra ved hvert besøg.',
  tcfExtendedDisclosureText: 'Detaljerede oplysninger om lagring og adgang',
  tcfAssetTypeLabel: 'Type',
  tcfAssetPurposesLabel: 'Formål',
  purposeNames: {
    '41ba25c': 'Teknisk nødvendige',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Statistik',
    '7c19e32': 'Præferencer',
    '6cd2721': 'Sociale medier',
    '15c61c3': 'Andet',
  },
  purposeDescriptions: {
    '41ba25c':
      'Nødvendige for grundlæggende funktioner som navigation, sikkerhed og lagring af dine privatlivsindstillinger. De kan ikke slås fra.',
    'cdcbd7c':
      'Bruges til at vise annoncer, der passer til dine interesser, og til at måle, hvor godt kampagner virker, også på andre websites.',
    'a717ff5':
      'Hjælper os med at forstå, hvordan besøgende bruger sitet, f.eks. hvilke sider der ses mest, så vi kan forbedre det.',
    '7c19e32':
      'Husker dine præferencer og valg, så indhold og funktioner kan tilpasses dig.',
    '6cd2721':
      'Gør det muligt at indlejre og dele indhold fra sociale netværk. Netværkene kan også bruge dataene til deres egne formål.',
    '15c61c3':
      'Tjenester, der ikke passer ind i nogen af de andre kategorier. Du finder oplysninger om hver tjeneste i indstillingerne.',
  },
};
