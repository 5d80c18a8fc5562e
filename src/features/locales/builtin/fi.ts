import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const fi: LocaleTexts = {
  widgetTitle: 'Tietosuoja-asetukset',
  widgetIntroText:
    'Käytämme tällä verkkosivustolla evästeitä ja vastaavia tekniikoita. Osa niistä on välttämättömiä sivuston toiminnalle. Muiden avulla analysoimme sivuston käyttöä, mukautamme sisältöä tai upotamme ulkoisia palveluja; niitä käytämme vain suostumuksellasi. Voit muuttaa tai peruuttaa suostumuksesi milloin tahansa asetuksissa. Lisätietoja löydät asetuksista ja tietosuojaselosteestamme.',
  widgetDeclineButtonText: 'Hylkää kaikki',
  widgetFullConsentButtonText: 'Hyväksy kaikki',
  widgetSettingsButtonText: 'Asetukset',
  checkAllButtonText: 'Valitse kaikki',
  uncheckAllButtonText: 'Poista valinnat',
  imprint: 'Oikeudelliset tiedot',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Tietosuojaseloste',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Saavutettavuus',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Valitse, mitä sallit',
  categoriesCancelButtonText: 'Takaisin',
  categoriesFullConsentButtonText: 'Hyväksy kaikki',
  categoriesSaveButtonText: 'Tallenna valinnat',
  detailsTitle: 'Palvelujen tiedot',
  detailsCloseButtonText: 'Sulje',
  embeddingVendorLabel: 'Palveluntarjoaja',
  embeddingDescriptionLabel: 'Kuvaus',
  embeddingPrivacyPolicyUrlLabel: 'Palveluntarjoajan tietosuojaseloste',
  embeddingLifetimeLabel: 'Säilytysaika',
  embeddingWhichDataIsCollectedLabel: 'Kerättävät tiedot',
  embeddingPurposeOfDataCollectionLabel: 'Käsittelyn tarkoitus',
  embeddingLegalBasisLabel: 'Oikeusperuste',
  embeddingPlaceOfProcessingLabel: 'Käsittelypaikka',
  embeddingAssetNameLabel: 'Nimi',
  embeddingAssetLifetimeLabel: 'Voimassaolo',
  embeddingAssetDescriptionLabel: 'Kuvaus',
  blockedContentTitle: 'Estetty sisältö',
  blockedContentDisclaimer:
    'Tämän sisällön tarjoaa ulkoinen palvelu. Jos lataat sen, IP-osoitteesi ja mahdollisesti muita tietoja välitetään palveluntarjoajalle, joka voi myös tallentaa evästeitä.',
  blockedContentConsentButtonText: 'Lataa sisältö',
  blockedContentConsentSwitchShowExternalContent: 'Näytä ulkoinen sisältö aina',
  blockedContentConsentSwitchAllowEmbedding: 'Salli tämä palvelu aina',
  blockedContentConsentSwitchProviderDetails: 'Palveluntarjoajan tiedot',
  changeConsentText: 'Muuta evästeasetuksia',
  moreInformationLabel: 'Lisätietoja',
  questionMarkButtonText: 'Tiedot',
  languageLabel: 'Kieli',
  tcfVendorIntroText:
    'Teemme yhteistyötä tässä lueteltujen kumppanien kanssa. Ne voivat tallentaa tietoja laitteellesi tai käyttää niitä ja käsitellä henkilötietoja esitettyihin tarkoituksiin. Osa kumppaneista perustaa käsittelyn suostumuksen sijaan oikeutettuun etuun; voit vastustaa sitä täällä.',
  tcfPurposeLabel: 'Käyttötarkoitukset',
  tcfSpecialPurposeLabel: 'Erityiset käyttötarkoitukset',
  tcfFeaturesLabel: 'Ominaisuudet',
  tcfSpecialFeaturesLabel: 'Erityiset ominaisuudet',
  tcfOptedInRemark: 'Vain nimenomaisella suostumuksellasi',
  tcfThirdPartiesLabel: 'Kolmannen osapuolen toimittajat',
  nonTcfPurposesLabel: 'Muut käyttötarkoitukset',
  nonTcfVendorsLabel: 'Muut palveluntarjoajat',
  tcfVendorUsesNonCookieStorageText:
    'Tämä toimittaja käyttää myös muita tallennustapoja, kuten selaimesi paikallista tallennustilaa.',
  tcfSpecialFeaturesHandledGloballyText:
    'Erityiset ominaisuudet koskevat kaikkia toimittajia, ja ne voidaan sallia tai kieltää vain kaikille kerralla.',
  tcfStacksListText: 'Tähän sisältyvät seuraavat käyttötarkoitukset:',
  tcfCookieRefreshText: 'Säilytysaika voi alkaa alusta jokaisella käynnilläsi.',
  tcfExtendedDisclosureText: 'Yksityiskohtaiset tiedot tallennuksesta ja käytöstä',
  tcfAssetTypeLabel: 'Tyyppi',
  tcfAssetPurposesLabel: 'Käyttötarkoitukset',
  purposeNames: {
    '41ba25c': 'Välttämättömät',
    'cdcbd7c': 'Markkinointi',
    'a717ff5': 'Analytiikka',
    '7c19e32': 'Personointi',
    '6cd2721': 'Sosiaalinen media',
    '15c61c3': 'Muut',
  },
  purposeDescriptions: {
    '41ba25c':
      'Tarvitaan perustoimintoihin, kuten sivulla liikkumiseen, tietoturvaan ja tietosuoja-asetustesi tallentamiseen. Niitä ei voi poistaa käytöstä.',
    'cdcbd7c':
      'Käytetään kiinnostuksenkohteitasi vastaavan mainonnan näyttämiseen ja kampanjoiden tehon mittaamiseen, myös muilla verkkosivustoilla.',
    'a717ff5':
      'Auttaa meitä ymmärtämään, miten kävijät käyttävät sivustoa, esimerkiksi mitä sivuja katsotaan eniten, jotta voimme parantaa sitä.',
    '7c19e32':
      'Muistaa asetuksesi ja valintasi, jotta sisältöä ja toimintoja voidaan mukauttaa sinulle.',
    '6cd2721':
      'Mahdollistaa sosiaalisen median sisällön upottamisen ja jakamisen. Palvelut voivat käyttää tietoja myös omiin tarkoituksiinsa.',
    '15c61c3':
      'Palvelut, jotka eivät kuulu mihinkään muuhun luokkaan. Kunkin palvelun tiedot löydät asetuksista.',
  },
};
