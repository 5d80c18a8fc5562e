import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const cs: LocaleTexts = {
  widgetTitle: 'Nastavení soukromí',
  widgetIntroText:
    'Na tomto webu používáme soubory cookie a podobné technologie. Některé z nich jsou nezbytné pro fungování webu. Jiné nám pomáhají analyzovat jeho používání, přizpůsobovat obsah nebo vkládat externí služby; ty používáme pouze s vaším souhlasem. Svůj souhlas můžete kdykoli změnit nebo odvolat v nastavení. Podrobnosti najdete v nastavení a v našich zásadách ochrany osobních údajů.',
  widgetDeclineButtonText: 'Odmítnout vše',
  widgetFullConsentButtonText: 'Přijmout vše',
  widgetSettingsButtonText: 'Nastavení',
  checkAllButtonText: 'Vybrat vše',
  uncheckAllButtonText: 'Zrušit výběr',
  imprint: 'Právní informace',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Zásady ochrany osobních údajů',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Přístupnost',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Vyberte, co povolíte',
  categoriesCancelButtonText: 'Zpět',
  categoriesFullConsentButtonText: 'Přijmout vše',
  categoriesSaveButtonText: 'Uložit výběr',
  detailsTitle: 'Podrobnosti o službách',
  detailsCloseButtonText: 'Zavřít',
  embeddingVendorLabel: 'Poskytovatel',
  embeddingDescriptionLabel: 'Popis',
  embeddingPrivacyPolicyUrlLabel: 'Zásady ochrany osobních údajů poskytovatele',
  embeddingLifetimeLabel: 'Doba uložení',
  embeddingWhichDataIsCollectedLabel: 'Shromažďované údaje',
  embeddingPurposeOfDataCollectionLabel: 'Účel zpracování',
  embeddingLegalBasisLabel: 'Právní základ',
  embeddingPlaceOfProcessingLabel: 'Místo zpracování',
  embeddingAssetNameLabel: 'Název',
  embeddingAssetLifetimeLabel: 'Platnost',
  embeddingAssetDescriptionLabel: 'Popis',
  blockedContentTitle: 'Zablokovaný obsah',
  blockedContentDisclaimer:
    'Tento obsah poskytuje externí služba. Pokud jej načtete, bude vaše IP adresa a případně další údaje předány poskytovateli, který může také ukládat soubory cookie.',
  blockedContentConsentButtonText: 'Načíst obsah',
  blockedContentConsentSwitchShowExternalContent: 'Vždy zobrazovat externí obsah',
  blockedContentConsentSwitchAllowEmbedding: 'Vždy povolit tuto službu',
  blockedContentConsentSwitchProviderDetails: 'Údaje o poskytovateli',
  changeConsentText: 'Změnit nastavení cookies',
  moreInformationLabel: 'Více informací',
  questionMarkButtonText: 'Podrobnosti',
  languageLabel: 'Jazyk',
  tcfVendorIntroText:
    'Spolupracujeme s partnery uvedenými zde. Mohou ukládat informace ve vašem zařízení nebo k nim přistupovat a zpracovávat osobní údaje pro uvedené účely. Někteří partneři se místo souhlasu opírají o oprávněný zájem; proti tomu zde můžete vznést námitku.',
  tcfPurposeLabel: 'Účely',
  tcfSpecialPurposeLabel: 'Zvláštní účely',
  tcfFeaturesLabel: 'Funkce',
  tcfSpecialFeaturesLabel: 'Zvláštní funkce',
  tcfOptedInRemark: 'Pouze s vaším výslovným souhlasem',
  tcfThirdPartiesLabel: 'Dodavatelé třetích stran',
  nonTcfPurposesLabel: 'Další účely',
  nonTcfVendorsLabel: 'Další poskytovatelé',
  tcfVendorUsesNonCookieStorageText:
    'Tento dodavatel používá i jiné způsoby ukládání, například místní úložiště vašeho prohlížeče.',
  tcfSpecialFeaturesHandledGloballyText:
    'Zvláštní funkce platí pro všechny dodavatele a lze je povolit nebo odmítnout jen pro všechny najednou.',
  tcfStacksListText: 'Zahrnuje to tyto účely:',
  tcfCookieRefreshText: 'Doba uložení může začít znovu při každé vaší návštěvě.',
  tcfExtendedDisclosureText: 'Podrobné informace o ukládání a přístupu',
  tcfAssetTypeLabel: 'Typ',
  tcfAssetPurposesLabel: 'Účely',
  purposeNames: {
    '41ba25c': 'Technicky nezbytné',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Analytika',
    '7c19e32': 'Personalizace',
    '6cd2721': 'Sociální sítě',
    '15c61c3': 'Ostatní',
  },
  purposeDescriptions: {
    '41ba25c':
      'Potřebné pro základní funkce, jako je navigace na stránce, zabezpečení a uložení vašeho nastavení soukromí. Nelze je vypnout.',
    'cdcbd7c':
      'Slouží k zobrazování reklamy odpovídající vašim zájmům a k měření úspěšnosti kampaní, i na jiných webech.',
    'a717ff5':
      'Pomáhají nám pochopit, jak návštěvníci web používají, například které stránky jsou nejčtenější, abychom jej mohli zlepšovat.',
    '7c19e32':
      'Pamatují si vaše preference a volby, aby bylo možné obsah a funkce přizpůsobit právě vám.',
    '6cd2721':
      'Umožňují vkládat a sdílet obsah ze sociálních sítí. Sítě mohou údaje používat i pro vlastní účely.',
    '15c61c3':
      'Služby, které nespadají do žádné z ostatních kategorií. Podrobnosti o každé službě najdete v nastavení.',
  },
};
