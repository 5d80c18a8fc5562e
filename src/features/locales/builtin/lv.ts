import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const lv: LocaleTexts = {
  widgetTitle: 'Privātuma iestatījumi',
  widgetIntroText:
    'Šajā tīmekļa vietnē mēs izmantojam sīkdatnes un līdzīgas tehnoloģijas. Dažas no tām ir nepieciešamas vietnes darbībai. Citas palīdz mums analizēt vietnes lietošanu, personalizēt saturu vai iegult ārējus pakalpojumus; tās izmantojam tikai ar jūsu piekrišanu. Jūs jebkurā laikā varat mainīt vai atsaukt savu piekrišanu iestatījumos. Sīkāka informācija ir pieejama iestatījumos un mūsu privātuma politikā.',
  widgetDeclineButtonText: 'Noraidīt visas',
  widgetFullConsentButtonText: 'Pieņemt visas',
  widgetSettingsButtonText: 'Iestatījumi',
  checkAllButtonText: 'Atlasīt visas',
  uncheckAllButtonText: 'Noņemt atlasi',
  imprint: 'Juridiskā informācija',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Privātuma politika',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Piekļūstamība',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Izvēlieties, ko atļaujat',
  categoriesCancelButtonText: 'Atpakaļ',
  categoriesFullConsentButtonText: 'Pieņemt visas',
  categoriesSaveButtonText: 'Saglabāt izvēli',
  detailsTitle: 'Pakalpojumu informācija',
  detailsCloseButtonText: 'Aizvērt',
  embeddingVendorLabel: 'Pakalpojuma sniedzējs',
  embeddingDescriptionLabel: 'Apraksts',
  embeddingPrivacyPolicyUrlLabel: 'Pakalpojuma sniedzēja privātuma politika',
  embeddingLifetimeLabel: 'Glabāšanas laiks',
  embeddingWhichDataIsCollectedLabel: 'Vāktie dati',
  embeddingPurposeOfDataCollectionLabel: 'Apstrādes mērķis',
  embeddingLegalBasisLabel: 'Juridiskais pamats',
  embeddingPlaceOfProcessingLabel: 'Apstrādes vieta',
  embeddingAssetNameLabel: 'Nosaukums',
  embeddingAssetLifetimeLabel: 'Derīgums',
  embeddingAssetDescriptionLabel: 'Apraksts',
  blockedContentTitle: 'Bloķēts saturs',
  blockedContentDisclaimer:
    'Šo saturu nodrošina ārējs pakalpojums. Ja to ielādēsiet, jūsu IP adrese un, iespējams, citi dati tiks nosūtīti pakalpojuma sniedzējam, kas var arī saglabāt sīkdatnes.',
  blockedContentConsentButtonText: 'Ielādēt saturu',
  blockedContentConsentSwitchShowExternalContent: 'Vienmēr rādīt ārējo saturu',
  blockedContentConsentSwitchAllowEmbedding: 'Vienmēr atļaut šo pakalpojumu',
  blockedContentConsentSwitchProviderDetails: 'Informācija par pakalpojuma sniedzēju',
  changeConsentText: 'Mainīt sīkdatņu iestatījumus',
  moreInformationLabel: 'Vairāk informācijas',
  questionMarkButtonText: 'Sīkāk',
  languageLabel: 'Valoda',
  tcfVendorIntroText:
    'Mēs sadarbojamies ar šeit norādītajiem partneriem. Tie var glabāt informāciju jūsu ierīcē vai piekļūt tai un apstrādāt personas datus norādītajiem mērķiem. Daži partneri piekrišanas vietā balstās uz leģitīmajām interesēm; šeit varat iebilst pret to.',
  tcfPurposeLabel: 'Mērķi',
  tcfSpecialPurposeLabel: 'Īpašie mērķi',
  tcfFeaturesLabel: 'Funkcijas',
  tcfSpecialFeaturesLabel: 'Īpašās funkcijas',
  tcfOptedInRemark: 'Tikai ar jūsu nepārprotamu piekrišanu',
  tcfThirdPartiesLabel: 'Trešo pušu piegādātāji',
  nonTcfPurposesLabel: 'Citi mērķi',
  nonTcfVendorsLabel: 'Citi pakalpojumu sniedzēji',
  tcfVendorUsesNonCookieStorageText:
    'Šis piegādātājs izmanto arī citus glabāšanas veidus, piemēram, jūsu pārlūkprogrammas lokālo krātuvi.',
  tcfSpecialFeaturesHandledGloballyText:
    'Īpašās funkcijas attiecas uz visiem piegādātājiem, un tās var atļaut vai noraidīt tikai visiem kopā.',
  tcfStacksListText: 'Tas ietver šādus mērķus:',
  tcfCookieRefreshText: 'Glabāšanas laiks var sākties no jauna katrā jūsu apmeklējumā.',
  tcfExtendedDisclosureText: 'Sīkāka informācija par glabāšanu un piekļuvi',
  tcfAssetTypeLabel: 'Veids',
  tcfAssetPurposesLabel: 'Mērķi',
  purposeNames: {
    '41ba25c': 'Tehniski nepieciešamās',
    'cdcbd7c': 'Mārketings',
    'a717ff5': 'Analītika',
    '7c19e32': 'Personalizācija',
    '6cd2721': 'Sociālie mediji',
    '15c61c3': 'Citas',
  },
  purposeDescriptions: {
    '41ba25c':
      'Nepieciešamas tādām pamatfunkcijām kā navigācija, drošība un jūsu privātuma iestatījumu saglabāšana. Tās nevar izslēgt.',
    'cdcbd7c':
      'Tiek izmantotas, lai rādītu jūsu interesēm atbilstošas reklāmas un mērītu kampaņu efektivitāti, arī citās vietnēs.',
    'a717ff5':
      'Palīdz mums saprast, kā apmeklētāji lieto vietni, piemēram, kuras lapas tiek skatītas visvairāk, lai mēs to varētu uzlabot.',
    '7c19e32':
      'Atceras jūsu izvēles un iestatījumus, lai saturu un funkcijas varētu pielāgot jums.',
    '6cd2721':
      'Ļauj iegult un kopīgot saturu no sociālajiem tīkliem. Tīkli datus var izmantot arī saviem mērķiem.',
    '15c61c3':
      'Pakalpojumi, kas neietilpst nevienā citā kategorijā. Informāciju par katru pakalpojumu atradīsiet iestatījumos.',
  },
};
