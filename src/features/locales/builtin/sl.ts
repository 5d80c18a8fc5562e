import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const sl: LocaleTexts = {
  widgetTitle: 'Nastavitve zasebnosti',
  widgetIntroText:
    'Na tem spletnem mestu uporabljamo piškotke in podobne tehnologije. Nekateri so nujni za delovanje strani. Drugi nam pomagajo analizirati uporabo strani, prilagajati vsebino ali vključevati zunanje storitve; te uporabljamo le z vašo privolitvijo. Privolitev lahko kadar koli spremenite ali prekličete v nastavitvah. Podrobnosti najdete v nastavitvah in v naši politiki zasebnosti.',
  widgetDeclineButtonText: 'Zavrni vse',
  widgetFullConsentButtonText: 'Sprejmi vse',
  widgetSettingsButtonText: 'Nastavitve',
  checkAllButtonText: 'Izberi vse',
  uncheckAllButtonText: 'Počisti izbiro',
  imprint: 'Impresum',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Politika zasebnosti',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Dostopnost',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Izberite, kaj dovolite',
  categoriesCancelButtonText: 'Nazaj',
  categoriesFullConsentButtonText: 'Sprejmi vse',
  categoriesSaveButtonText: 'Shrani izbiro',
  detailsTitle: 'Podrobnosti storitev',
  detailsCloseButtonText: 'Zapri',
  embeddingVendorLabel: 'Ponudnik',
  embeddingDescriptionLabel: 'Opis',
  embeddingPrivacyPolicyUrlLabel: 'Politika zasebnosti ponudnika',
  embeddingLifetimeLabel: 'Obdobje hrambe',
  embeddingWhichDataIsCollectedLabel: 'Zbrani podatki',
  embeddingPurposeOfDataCollectionLabel: 'Namen obdelave',
  embeddingLegalBasisLabel: 'Pravna podlaga',
  embeddingPlaceOfProcessingLabel: 'Kraj obdelave',
  embeddingAssetNameLabel: 'Ime',
  embeddingAssetLifetimeLabel: 'Veljavnost',
  embeddingAssetDescriptionLabel: 'Opis',
  blockedContentTitle: 'Blokirana vsebina',
  blockedContentDisclaimer:
    'To vsebino zagotavlja zunanja storitev. Če jo naložite, bodo vaš naslov IP in morebiti drugi podatki posredovani ponudniku, ki lahko prav tako shranjuje piškotke.',
  blockedContentConsentButtonText: 'Naloži vsebino',
  blockedContentConsentSwitchShowExternalContent: 'Vedno prikaži zunanjo vsebino',
  blockedContentConsentSwitchAllowEmbedding: 'Vedno dovoli to storitev',
  blockedContentConsentSwitchProviderDetails: 'Podatki o ponudniku',
  changeConsentText: 'Spremeni nastavitve piškotkov',
  moreInformationLabel: 'Več informacij',
  questionMarkButtonText: 'Podrobnosti',
  languageLabel: 'Jezik',
  tcfVendorIntroText:
    'Sodelujemo s tukaj navedenimi partnerji. Ti lahko shranjujejo informacije v vaši napravi ali dostopajo do njih ter obdelujejo osebne podatke za prikazane namene. Nekateri partnerji se namesto na privolitev sklicujejo na zakoniti interes; temu lahko tukaj ugovarjate.',
  tcfPurposeLabel: 'Nameni',
  tcfSpecialPurposeLabel: 'Posebni nameni',
  tcfFeaturesLabel: 'Funkcije',
  tcfSpecialFeaturesLabel: 'Posebne funkcije',
  tcfOptedInRemark: 'Samo z vašo izrecno privolitvijo',
  tcfThirdPartiesLabel: 'Tretji ponudniki',
  nonTcfPurposesLabel: 'Drugi nameni',
  nonTcfVendorsLabel: 'Drugi ponudniki',
  tcfVendorUsesNonCookieStorageText:
    'Ta ponudnik uporablja tudi druge načine shranjevanja, na primer lokalno shrambo vašega brskalnika.',
  tcfSpecialFeaturesHandledGloballyText:
    'Posebne funkcije veljajo za vse ponudnike in jih je mogoče dovoliti ali zavrniti le za vse skupaj.',
  tcfStacksListText: 'To vključuje naslednje namene:',
  tcfCookieRefreshText: 'Obdobje hrambe se lahko ob vsakem obisku začne znova.',
  tcfExtendedDisclosureText: 'Podrobne informacije o shranjevanju in dostopu',
  tcfAssetTypeLabel: 'Vrsta',
  tcfAssetPurposesLabel: 'Nameni',
  purposeNames: {
    '41ba25c': 'Nujno potrebni',
    'cdcbd7c': 'Trženjski',
    'a717ff5': 'Analitični',
    '7c19e32': 'Prilagoditev',
    '6cd2721': 'Družbena omrežja',
    '15c61c3': 'Drugo',
  },
  purposeDescriptions: {
    '41ba25c':
      'Potrebni za osnovne funkcije, kot so navigacija, varnost in shranjevanje vaših nastavitev zasebnosti. Ni jih mogoče izklopiti.',
    'cdcbd7c':
      'Uporabljajo se za prikaz oglasov, ki ustrezajo vašim interesom, in za merjenje uspešnosti kampanj, tudi na drugih spletnih mestih.',
    'a717ff5':
      'Pomagajo nam razumeti, kako obiskovalci uporabljajo spletno mesto, na primer katere strani so najbolj obiskane, da ga lahko izboljšamo.',
    '7c19e32':
      'Zapomnijo si vaše nastavitve in izbire, da se vsebina in funkcije lahko prilagodijo vam.',
    '6cd2721':
      'Omogočajo vključevanje in deljenje vsebin z družbenih omrežij. Omrežja lahko podatke uporabljajo tudi za lastne namene.',
    '15c61c3':
      'Storitve, ki ne spadajo v nobeno drugo kategorijo. Podrobnosti o vsaki storitvi najdete v nastavitvah.',
  },
};
