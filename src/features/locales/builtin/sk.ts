import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const sk: LocaleTexts = {
  widgetTitle: 'Nastavenia súkromia',
  widgetIntroText:
    'Na tejto webovej stránke používame súbory cookie a podobné technológie. Niektoré z nich sú nevyhnutné na fungovanie stránky. Iné nám pomáhajú analyzovať jej používanie, prispôsobovať obsah alebo vkladať externé služby; tie používame iba s vaším súhlasom. Svoj súhlas môžete kedykoľvek zmeniť alebo odvolať v nastaveniach. Podrobnosti nájdete v nastaveniach a v našich zásadách ochrany osobných údajov.',
  widgetDeclineButtonText: 'Odmietnuť všetko',
  widgetFullConsentButtonText: 'Prijať všetko',
  widgetSettingsButtonText: 'Nastavenia',
  checkAllButtonText: 'Vybrať všetko',
  uncheckAllButtonText: 'Zrušiť výber',
  imprint: 'Právne informácie',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Zásady ochrany osobných údajov',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Prístupnosť',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Vyberte, čo povolíte',
  categoriesCancelButtonText: 'Späť',
  categoriesFullConsentButtonText: 'Prijať všetko',
  categoriesSaveButtonText: 'Uložiť výber',
  detailsTitle: 'Podrobnosti o službách',
  detailsCloseButtonText: 'Zavrieť',
  embeddingVendorLabel: 'Poskytovateľ',
  embeddingDescriptionLabel: 'Popis',
  embeddingPrivacyPolicyUrlLabel: 'Zásady ochrany osobných údajov poskytovateľa',
  embeddingLifetimeLabel: 'Doba uchovávania',
  embeddingWhichDataIsCollectedLabel: 'Zhromažďované údaje',
  embeddingPurposeOfDataCollectionLabel: 'Účel spracúvania',
  embeddingLegalBasisLabel: 'Právny základ',
  embeddingPlaceOfProcessingLabel: 'Miesto spracúvania',
  embeddingAssetNameLabel: 'Názov',
  embeddingAssetLifetimeLabel: 'Platnosť',
  embeddingAssetDescriptionLabel: 'Popis',
  blockedContentTitle: 'Zablokovaný obsah',
  blockedContentDisclaimer:
    'Tento obsah poskytuje externá služba. Ak ho načítate, vaša IP adresa a prípadne ďalšie údaje sa odovzdajú poskytovateľovi, ktorý môže tiež ukladať súbory cookie.',
  blockedContentConsentButtonText: 'Načítať obsah',
  blockedContentConsentSwitchShowExternalContent: 'Vždy zobrazovať externý obsah',
  blockedContentConsentSwitchAllowEmbedding: 'Vždy povoliť túto službu',
  blockedContentConsentSwitchProviderDetails: 'Údaje o poskytovateľovi',
  changeConsentText: 'Zmeniť nastavenia cookies',
  moreInformationLabel: 'Viac informácií',
  questionMarkButtonText: 'Podrobnosti',
  languageLabel: 'Jazyk',
  tcfVendorIntroText:
    'Spolupracujeme s partnermi uvedenými tu. Môžu ukladať informácie vo vašom zariadení alebo k nim pristupovať a spracúvať osobné údaje na uvedené účely. Niektorí partneri sa namiesto súhlasu opierajú o oprávnený záujem; proti tomu tu môžete namietať.',
  tcfPurposeLabel: 'Účely',
  tcfSpecialPurposeLabel: 'Osobitné účely',
  tcfFeaturesLabel: 'Funkcie',
  tcfSpecialFeaturesLabel: 'Osobitné funkcie',
  tcfOptedInRemark: 'Iba s vaším výslovným súhlasom',
  tcfThirdPartiesLabel: 'Dodávatelia tretích strán',
  nonTcfPurposesLabel: 'Ďalšie účely',
  nonTcfVendorsLabel: 'Ďalší poskytovatelia',
  tcfVendorUsesNonCookieStorageText:
    'Tento dodávateľ používa aj iné spôsoby ukladania, napríklad lokálne úložisko vášho prehliadača.',
  tcfSpecialFeaturesHandledGloballyText:
    'Osobitné funkcie platia pre všetkých dodávateľov a možno ich povoliť alebo odmietnuť iba pre všetkých naraz.',
  tcfStacksListText: 'Zahŕňa to tieto účely:',
  tcfCookieRefreshText: 'Doba uchovávania sa môže pri každej vašej návšteve začať odznova.',
  tcfExtendedDisclosureText: 'Podrobné informácie o ukladaní a prístupe',
  tcfAssetTypeLabel: 'Typ',
  tcfAssetPurposesLabel: 'Účely',
  purposeNames: {
    '41ba25c': 'Technicky nevyhnutné',
    'cdcbd7c': 'Marketingové',
    'a717ff5': 'Analytické',
    '7c19e32': 'Preferenčné',
    '6cd2721': 'Sociálne siete',
    '15c61c3': 'Ostatné',
  },
  purposeDescriptions: {
    '41ba25c':
      'Potrebné na základné funkcie, ako je navigácia na stránke, zabezpečenie a uloženie vašich nastavení súkromia. Nemožno ich vypnúť.',
    'cdcbd7c':
      'Slúžia na zobrazovanie reklamy podľa vašich záujmov a na meranie úspešnosti kampaní, aj na iných webových stránkach.',
    'a717ff5':
      'Pomáhajú nám pochopiť, ako návštevníci stránku používajú, napríklad ktoré stránky sú najnavštevovanejšie, aby sme ju mohli zlepšovať.',
    '7c19e32':
      'Pamätajú si vaše preferencie a voľby, aby bolo možné obsah a funkcie prispôsobiť práve vám.',
    '6cd2721':
      'Umožňujú vkladať a zdieľať obsah zo sociálnych sietí. Siete môžu údaje používať aj na vlastné účely.',
    '15c61c3':
      'Služby, ktoré nepatria do žiadnej z ostatných kategórií. Podrobnosti o každej službe nájdete v nastaveniach.',
  },
};
