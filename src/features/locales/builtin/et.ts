import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const et: LocaleTexts = {
  widgetTitle: 'Privaatsusseaded',
  widgetIntroText:
    'Kasutame sellel veebisaidil küpsiseid ja sarnaseid tehnoloogiaid. Mõned neist on vajalikud saidi toimimiseks. Teised aitavad meil analüüsida saidi kasutamist, sisu isikupärastada või kaasata väliseid teenuseid; neid kasutame ainult teie nõusolekul. Saate oma nõusolekut igal ajal seadetes muuta või selle tagasi võtta. Üksikasjad leiate seadetest ja meie privaatsuspoliitikast.',
  widgetDeclineButtonText: 'Keeldu kõigist',
  widgetFullConsentButtonText: 'Nõustu kõigiga',
  widgetSettingsButtonText: 'Seaded',
  checkAllButtonText: 'Vali kõik',
  uncheckAllButtonText: 'Tühista valik',
  imprint: 'Õiguslik teave',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Privaatsuspoliitika',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Ligipääsetavus',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Valige, mida lubate',
  categoriesCancelButtonText: 'Tagasi',
  categoriesFullConsentButtonText: 'Nõustu kõigiga',
  categoriesSaveButtonText: 'Salvesta valik',
  detailsTitle: 'Teenuste üksikasjad',
  detailsCloseButtonText: 'Sulge',
  embeddingVendorLabel: 'Teenusepakkuja',
  embeddingDescriptionLabel: 'Kirjeldus',
  embeddingPrivacyPolicyUrlLabel: 'Teenusepakkuja privaatsuspoliitika',
  embeddingLifetimeLabel: 'Säilitamisaeg',
  embeddingWhichDataIsCollectedLabel: 'Kogutavad andmed',
  embeddingPurposeOfDataCollectionLabel: 'Töötlemise eesmärk',
  embeddingLegalBasisLabel: 'Õiguslik alus',
  embeddingPlaceOfProcessingLabel: 'Töötlemise koht',
  embeddingAssetNameLabel: 'Nimi',
  embeddingAssetLifetimeLabel: 'Kehtivus',
  embeddingAssetDescriptionLabel: 'Kirjeldus',
  blockedContentTitle: 'Blokeeritud sisu',
  blockedContentDisclaimer:
    'Selle sisu pakub väline teenus. Kui selle laadite, edastatakse teie IP-aadress ja võimalik, et ka muud andmed teenusepakkujale, kes võib samuti küpsiseid salvestada.',
  blockedContentConsentButtonText: 'Laadi sisu',
  blockedContentConsentSwitchShowExternalContent: 'Näita välist sisu alati',
  blockedContentConsentSwitchAllowEmbedding: 'Luba see teenus alati',
  blockedContentConsentSwitchProviderDetails: 'Teenusepakkuja andmed',
  changeConsentText: 'Muuda küpsiste seadeid',
  moreInformationLabel: 'Lisateave',
  questionMarkButtonText: 'Üksikasjad',
  languageLabel: 'Keel',
  tcfVendorIntroText:
    'Teeme koostööd siin loetletud partneritega. Nad võivad salvestada teie seadmesse teavet või sellele juurde pääseda ning töödelda isikuandmeid näidatud eesmärkidel. Mõned partnerid tuginevad nõusoleku asemel õigustatud huvile; sellele saate siin vastuväite esitada.',
  tcfPurposeLabel: 'Eesmärgid',
  tcfSpecialPurposeLabel: 'Erieesmärgid',
  tcfFeaturesLabel: 'Funktsioonid',
  tcfSpecialFeaturesLabel: 'Erifunktsioonid',
  tcfOptedInRemark: 'Ainult teie selgesõnalisel nõusolekul',
  tcfThirdPartiesLabel: 'Kolmandatest isikutest teenusepakkujad',
  nonTcfPurposesLabel: 'Muud eesmärgid',
  nonTcfVendorsLabel: 'Muud teenusepakkujad',
  tcfVendorUsesNonCookieStorageText:
    'See teenusepakkuja kasutab ka muid salvestusviise, näiteks teie brauseri kohalikku salvestusruumi.',
  tcfSpecialFeaturesHandledGloballyText:
    'Erifunktsioonid kehtivad kõigile teenusepakkujatele ning neid saab lubada või keelata ainult kõigile korraga.',
  tcfStacksListText: 'See hõlmab järgmisi eesmärke:',
  tcfCookieRefreshText: 'Säilitamisaeg võib iga külastusega uuesti alata.',
  tcfExtendedDisclosureText: 'Üksikasjalik teave salvestamise ja juurdepääsu kohta',
  tcfAssetTypeLabel: 'Tüüp',
  tcfAssetPurposesLabel: 'Eesmärgid',
  purposeNames: {
    '41ba25c': 'Tehniliselt vajalikud',
    'cdcbd7c': 'Turundus',
    'a717ff5': 'Analüütika',
    '7c19e32': 'Isikupärastamine',
    '6cd2721': 'Sotsiaalmeedia',
    '15c61c3': 'Muu',
  },
  purposeDescriptions: {
    '41ba25c':
      'Vajalikud põhifunktsioonide jaoks, nagu lehtedel liikumine, turvalisus ja teie privaatsusseadete salvestamine. Neid ei saa välja lülitada.',
    'cdcbd7c':
      'Kasutatakse teie huvidele vastavate reklaamide näitamiseks ja kampaaniate tõhususe mõõtmiseks, ka teistel veebisaitidel.',
    'a717ff5':
      'Aitab meil mõista, kuidas külastajad veebisaiti kasutavad, näiteks milliseid lehti vaadatakse kõige rohkem, et saaksime seda parandada.',
    '7c19e32':
      'Jätab meelde teie eelistused ja valikud, et sisu ja funktsioone saaks teile kohandada.',
    '6cd2721':
      'Võimaldab kaasata ja jagada sotsiaalvõrgustike sisu. Võrgustikud võivad andmeid kasutada ka oma eesmärkidel.',
    '15c61c3':
      'Teenused, mis ei sobi ühtegi teise kategooriasse. Iga teenuse üksikasjad leiate seadetest.',
  },
};
