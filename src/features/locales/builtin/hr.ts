import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const hr: LocaleTexts = {
  widgetTitle: 'Postavke privatnosti',
  widgetIntroText:
    'Na ovoj web-stranici koristimo kolačiće i slične tehnologije. Neki od njih nužni su za rad stranice. Drugi nam pomažu analizirati korištenje stranice, prilagoditi sadržaj ili ugraditi vanjske usluge; njih koristimo samo uz Vašu privolu. Privolu možete u bilo kojem trenutku promijeniti ili povući u postavkama. Pojedinosti ćete pronaći u postavkama i u našoj politici privatnosti.',
  widgetDeclineButtonText: 'Odbij sve',
  widgetFullConsentButtonText: 'Prihvati sve',
  widgetSettingsButtonText: 'Postavke',
  checkAllButtonText: 'Označi sve',
  uncheckAllButtonText: 'Poništi odabir',
  imprint: 'Impresum',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Politika privatnosti',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Pristupačnost',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Odaberite što dopuštate',
  categoriesCancelButtonText: 'Natrag',
  categoriesFullConsentButtonText: 'Prihvati sve',
  categoriesSaveButtonText: 'Spremi odabir',
  detailsTitle: 'Pojedinosti o uslugama',
  detailsCloseButtonText: 'Zatvori',
  embeddingVendorLabel: 'Pružatelj usluge',
  embeddingDescriptionLabel: 'Opis',
  embeddingPrivacyPolicyUrlLabel: 'Politika privatnosti pružatelja',
  embeddingLifetimeLabel: 'Razdoblje pohrane',
  embeddingWhichDataIsCollectedLabel: 'Prikupljeni podaci',
  embeddingPurposeOfDataCollectionLabel: 'Svrha obrade',
  embeddingLegalBasisLabel: 'Pravna osnova',
  embeddingPlaceOfProcessingLabel: 'Mjesto obrade',
  embeddingAssetNameLabel: 'Naziv',
  embeddingAssetLifetimeLabel: 'Istek',
  embeddingAssetDescriptionLabel: 'Opis',
  blockedContentTitle: 'Blokirani sadržaj',
  blockedContentDisclaimer:
    'Ovaj sadržaj pruža vanjska usluga. Ako ga učitate, Vaša IP adresa i eventualno drugi podaci bit će proslijeđeni pružatelju, koji može postaviti i kolačiće.',
  blockedContentConsentButtonText: 'Učitaj sadržaj',
  blockedContentConsentSwitchShowExternalContent: 'Uvijek prikaži vanjski sadržaj',
  blockedContentConsentSwitchAllowEmbedding: 'Uvijek dopusti ovu uslugu',
  blockedContentConsentSwitchProviderDetails: 'Podaci o pružatelju',
  changeConsentText: 'Promijeni postavke kolačića',
  moreInformationLabel: 'Više informacija',
  questionMarkButtonText: 'Pojedinosti',
  languageLabel: 'Jezik',
  tcfVendorIntroText:
    'Surađujemo s ovdje navedenim partnerima. Oni mogu pohranjivati informacije na Vašem uređaju ili im pristupati te obrađivati osobne podatke u prikazane svrhe. Neki se partneri umjesto na privolu pozivaju na legitimni interes; tome se ovdje možete usprotiviti.',
  tcfPurposeLabel: 'Svrhe',
  tcfSpecialPurposeLabel: 'Posebne svrhe',
  tcfFeaturesLabel: 'Značajke',
  tcfSpecialFeaturesLabel: 'Posebne značajke',
  tcfOptedInRemark: 'Samo uz Vašu izričitu privolu',
  tcfThirdPartiesLabel: 'Treće strane',
  nonTcfPurposesLabel: 'Ostale svrhe',
  nonTcfVendorsLabel: 'Ostali pružatelji',
  tcfVendorUsesNonCookieStorageText:
    'Ovaj pružatelj koristi i druge načine pohrane, primjerice lokalnu pohranu Vašeg preglednika.',
  tcfSpecialFeaturesHandledGloballyText:
    'Posebne značajke vrijede za sve pružatelje i mogu se dopustiti ili odbiti samo za sve zajedno.',
  tcfStacksListText: 'To uključuje sljedeće svrhe:',
  tcfCookieRefreshText: 'Razdoblje pohrane može započeti iznova pri svakom Vašem posjetu.',
  tcfExtendedDisclosureText: 'Detaljne informacije o pohrani i pristupu',
  tcfAssetTypeLabel: 'Vrsta',
  tcfAssetPurposesLabel: 'Svrhe',
  purposeNames: {
    '41ba25c': 'Tehnički nužni',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Analitika',
    '7c19e32': 'Personalizacija',
    '6cd2721': 'Društvene mreže',
    '15c61c3': 'Ostalo',
  },
  purposeDescriptions: {
    '41ba25c':
      'Potrebni za osnovne funkcije kao što su navigacija, sigurnost i spremanje Vaših postavki privatnosti. Ne mogu se isključiti.',
    'cdcbd7c':
      'Služe za prikaz oglasa prilagođenih Vašim interesima i za mjerenje uspješnosti kampanja, i na drugim web-stranicama.',
    'a717ff5':
      'Pomažu nam razumjeti kako posjetitelji koriste web-stranicu, primjerice koje se stranice najčešće pregledavaju, kako bismo je mogli poboljšati.',
    '7c19e32':
      'Pamte Vaše postavke i odabire kako bi se sadržaj i funkcije mogli prilagoditi Vama.',
    '6cd2721':
      'Omogućuju ugradnju i dijeljenje sadržaja s društvenih mreža. Mreže podatke mogu koristiti i u vlastite svrhe.',
    '15c61c3':
      'Usluge koje ne pripadaju nijednoj drugoj kategoriji. Pojedinosti o svakoj usluzi pronaći ćete u postavkama.',
  },
};
