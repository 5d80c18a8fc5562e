import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const hu: LocaleTexts = {
  widgetTitle: 'Adatvédelmi beállítások',
  widgetIntroText:
    'Weboldalunkon sütiket és hasonló technológiákat használunk. Ezek egy része az oldal működéséhez szükséges. Mások segítenek elemezni az oldal használatát, személyre szabni a tartalmat vagy külső szolgáltatásokat beágyazni; ezeket csak az Ön hozzájárulásával használjuk. Hozzájárulását a beállításokban bármikor módosíthatja vagy visszavonhatja. További részleteket a beállításokban és adatkezelési tájékoztatónkban talál.',
  widgetDeclineButtonText: 'Összes elutasítása',
  widgetFullConsentButtonText: 'Összes elfogadása',
  widgetSettingsButtonText: 'Beállítások',
  checkAllButtonText: 'Összes kijelölése',
  uncheckAllButtonText: 'Kijelölés megszüntetése',
  imprint: 'Impresszum',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Adatkezelési tájékoztató',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Akadálymentesség',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Válassza ki, mit engedélyez',
  categoriesCancelButtonText: 'Vissza',
  categoriesFullConsentButtonText: 'Összes elfogadása',
  categoriesSaveButtonText: 'Kiválasztottak mentése',
  detailsTitle: 'A szolgáltatások részletei',
  detailsCloseButtonText: 'Bezárás',
  embeddingVendorLabel: 'Szolgáltató',
  embeddingDescriptionLabel: 'Leírás',
  embeddingPrivacyPolicyUrlLabel: 'A szolgáltató adatkezelési tájékoztatója',
  embeddingLifetimeLabel: 'Tárolási időtartam',
  embeddingWhichDataIsCollectedLabel: 'Gyűjtött adatok',
  embeddingPurposeOfDataCollectionLabel: 'Az adatkezelés célja',
  embeddingLegalBasisLabel: 'Jogalap',
  embeddingPlaceOfProcessingLabel: 'Az adatkezelés helye',
  embeddingAssetNameLabel: 'Név',
  embeddingAssetLifetimeLabel: 'Lejárat',
  embeddingAssetDescriptionLabel: 'Leírás',
  blockedContentTitle: 'Letiltott tartalom',
  blockedContentDisclaimer:
    'Ezt a tartalmat egy külső szolgáltatás biztosítja. Ha betölti, az Ön IP-címe és esetleg más adatai továbbításra kerülnek a szolgáltatóhoz, amely sütiket is elhelyezhet.',
  blockedContentConsentButtonText: 'Tartalom betöltése',
  blockedContentConsentSwitchShowExternalContent: 'Külső tartalom mindig megjelenítése',
  blockedContentConsentSwitchAllowEmbedding: 'Ez a szolgáltatás mindig engedélyezett',
  blockedContentConsentSwitchProviderDetails: 'A szolgáltató adatai',
  changeConsentText: 'Sütibeállítások módosítása',
  moreInformationLabel: 'További információ',
  questionMarkButtonText: 'Részletek',
  languageLabel: 'Nyelv',
  tcfVendorIntroText:
    'Az itt felsorolt partnerekkel dolgozunk együtt. Ezek információkat tárolhatnak az Ön eszközén vagy hozzáférhetnek azokhoz, és személyes adatokat kezelhetnek a feltüntetett célokra. Egyes partnerek hozzájárulás helyett jogos érdekre hivatkoznak; ez ellen itt tiltakozhat.',
  tcfPurposeLabel: 'Célok',
  tcfSpecialPurposeLabel: 'Különleges célok',
  tcfFeaturesLabel: 'Funkciók',
  tcfSpecialFeaturesLabel: 'Különleges funkciók',
  tcfOptedInRemark: 'Csak az Ön kifejezett hozzájárulásával',
  tcfThirdPartiesLabel: 'Harmadik fél szolgáltatók',
  nonTcfPurposesLabel: 'Egyéb célok',
  nonTcfVendorsLabel: 'Egyéb szolgáltatók',
  tcfVendorUsesNonCookieStorageText:
    'Ez a szolgáltató más tárolási módokat is használ, például a böngészője helyi tárolóját.',
  tcfSpecialFeaturesHandledGloballyText:
    'A különleges funkciók minden szolgáltatóra vonatkoznak, és csak mindegyikük számára együtt engedélyezhetők vagy utasíthatók el.',
  tcfStacksListText: 'Ez a következő célokat foglalja magában:',
  tcfCookieRefreshText: 'A tárolási időtartam minden látogatásakor újraindulhat.',
  tcfExtendedDisclosureText: 'Részletes információ a tárolásról és a hozzáférésről',
  tcfAssetTypeLabel: 'Típus',
  tcfAssetPurposesLabel: 'Célok',
  purposeNames: {
    '41ba25c': 'Feltétlenül szükséges',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Statisztika',
    '7c19e32': 'Személyre szabás',
    '6cd2721': 'Közösségi média',
    '15c61c3': 'Egyéb',
  },
  purposeDescriptions: {
    '41ba25c':
      'Az alapvető funkciókhoz szükségesek, például a navigációhoz, a biztonsághoz és az adatvédelmi beállításai mentéséhez. Nem kapcsolhatók ki.',
    'cdcbd7c':
      'Az érdeklődésének megfelelő hirdetések megjelenítésére és a kampányok hatékonyságának mérésére szolgálnak, más weboldalakon is.',
    'a717ff5':
      'Segítenek megérteni, hogyan használják a látogatók a weboldalt, például mely oldalakat nézik meg a legtöbben, hogy fejleszthessük azt.',
    '7c19e32':
      'Megjegyzik a preferenciáit és választásait, hogy a tartalom és a funkciók Önhöz igazodhassanak.',
    '6cd2721':
      'Lehetővé teszik közösségi hálózatok tartalmainak beágyazását és megosztását. A hálózatok az adatokat saját céljaikra is felhasználhatják.',
    '15c61c3':
      'Olyan szolgáltatások, amelyek egyik másik kategóriába sem tartoznak. Az egyes szolgáltatások részleteit a beállításokban találja.',
  },
};
