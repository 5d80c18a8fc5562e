import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const lt: LocaleTexts = {
  widgetTitle: 'Privatumo nustatymai',
  widgetIntroText:
    'Šioje svetainėje naudojame slapukus ir panašias technologijas. Kai kurie iš jų būtini, kad svetainė veiktų. Kiti padeda mums analizuoti, kaip svetainė naudojama, pritaikyti turinį arba įterpti išorines paslaugas; juos naudojame tik gavę jūsų sutikimą. Savo sutikimą galite bet kada pakeisti arba atšaukti nustatymuose. Daugiau informacijos rasite nustatymuose ir mūsų privatumo politikoje.',
  widgetDeclineButtonText: 'Atmesti visus',
  widgetFullConsentButtonText: 'Priimti visus',
  widgetSettingsButtonText: 'Nustatymai',
  checkAllButtonText: 'Pažymėti visus',
  uncheckAllButtonText: 'Atžymėti visus',
  imprint: 'Teisinė informacija',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Privatumo politika',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Prieinamumas',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Pasirinkite, ką leidžiate',
  categoriesCancelButtonText: 'Atgal',
  categoriesFullConsentButtonText: 'Priimti visus',
  categoriesSaveButtonText: 'Išsaugoti pasirinkimą',
  detailsTitle: 'Išsami informacija apie paslaugas',
  detailsCloseButtonText: 'Uždaryti',
  embeddingVendorLabel: 'Paslaugų teikėjas',
  embeddingDescriptionLabel: 'Aprašymas',
  embeddingPrivacyPolicyUrlLabel: 'Paslaugų teikėjo privatumo politika',
  embeddingLifetimeLabel: 'Saugojimo laikotarpis',
  embeddingWhichDataIsCollectedLabel: 'Renkami duomenys',
  embeddingPurposeOfDataCollectionLabel: 'Tvarkymo tikslas',
  embeddingLegalBasisLabel: 'Teisinis pagrindas',
  embeddingPlaceOfProcessingLabel: 'Tvarkymo vieta',
  embeddingAssetNameLabel: 'Pavadinimas',
  embeddingAssetLifetimeLabel: 'Galiojimas',
  embeddingAssetDescriptionLabel: 'Aprašymas',
  blockedContentTitle: 'Užblokuotas turinys',
  blockedContentDisclaimer:
    'Šį turinį teikia išorinė paslauga. Jei jį įkelsite, jūsų IP adresas ir galbūt kiti duomenys bus perduoti paslaugų teikėjui, kuris taip pat gali įrašyti slapukus.',
  blockedContentConsentButtonText: 'Įkelti turinį',
  blockedContentConsentSwitchShowExternalContent: 'Visada rodyti išorinį turinį',
  blockedContentConsentSwitchAllowEmbedding: 'Visada leisti šią paslaugą',
  blockedContentConsentSwitchProviderDetails: 'Informacija apie paslaugų teikėją',
  changeConsentText: 'Keisti slapukų nustatymus',
  moreInformationLabel: 'Daugiau informacijos',
  questionMarkButtonText: 'Išsamiau',
  languageLabel: 'Kalba',
  tcfVendorIntroText:
    'Bendradarbiaujame su čia nurodytais partneriais. Jie gali saugoti informaciją jūsų įrenginyje arba ja naudotis ir tvarkyti asmens duomenis nurodytais tikslais. Kai kurie partneriai vietoj sutikimo remiasi teisėtu interesu; čia galite tam nepritarti.',
  tcfPurposeLabel: 'Tikslai',
  tcfSpecialPurposeLabel: 'Specialieji tikslai',
  tcfFeaturesLabel: 'Funkcijos',
  tcfSpecialFeaturesLabel: 'Specialiosios funkcijos',
  tcfOptedInRemark: 'Tik gavus jūsų aiškų sutikimą',
  tcfThirdPartiesLabel: 'Trečiųjų šalių tiekėjai',
  nonTcfPurposesLabel: 'Kiti tikslai',
  nonTcfVendorsLabel: 'Kiti paslaugų teikėjai',
  tcfVendorUsesNonCookieStorageText:
    'Šis tiekėjas naudoja ir kitus saugojimo būdus, pavyzdžiui, jūsų naršyklės vietinę saugyklą.',
  tcfSpecialFeaturesHandledGloballyText:
    'Specialiosios funkcijos taikomos visiems tiekėjams ir gali būti leidžiamos arba atmetamos tik visiems kartu.',
  tcfStacksListText: 'Tai apima šiuos tikslus:',
  tcfCookieRefreshText: 'Saugojimo laikotarpis gali prasidėti iš naujo kiekvieno jūsų apsilankymo metu.',
  tcfExtendedDisclosureText: 'Išsami informacija apie saugojimą ir prieigą',
  tcfAssetTypeLabel: 'Tipas',
  tcfAssetPurposesLabel: 'Tikslai',
  purposeNames: {
    '41ba25c': 'Būtinieji',
    'cdcbd7c': 'Rinkodaros',
    'a717ff5': 'Analitiniai',
    '7c19e32': 'Personalizavimo',
    '6cd2721': 'Socialinių tinklų',
    '15c61c3': 'Kiti',
  },
  purposeDescriptions: {
    '41ba25c':
      'Reikalingi pagrindinėms funkcijoms, tokioms kaip naršymas svetainėje, saugumas ir jūsų privatumo nustatymų išsaugojimas. Jų išjungti negalima.',
    'cdcbd7c':
      'Naudojami jūsų pomėgius atitinkančiai reklamai rodyti ir kampanijų veiksmingumui matuoti, taip pat kitose svetainėse.',
    'a717ff5':
      'Padeda mums suprasti, kaip lankytojai naudojasi svetaine, pavyzdžiui, kurie puslapiai peržiūrimi dažniausiai, kad galėtume ją tobulinti.',
    '7c19e32':
      'Įsimena jūsų nuostatas ir pasirinkimus, kad turinį ir funkcijas būtų galima pritaikyti jums.',
    '6cd2721':
      'Leidžia įterpti socialinių tinklų turinį ir juo dalytis. Socialiniai tinklai duomenis gali naudoti ir savo tikslais.',
    '15c61c3':
      'Paslaugos, kurios nepriskiriamos jokiai kitai kategorijai. Informaciją apie kiekvieną paslaugą rasite nustatymuose.',
  },
};
