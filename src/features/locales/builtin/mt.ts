import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const mt: LocaleTexts = {
  widgetTitle: 'Preferenzi tal-privatezza',
  widgetIntroText:
    'F’dan is-sit web nużaw cookies u teknoloġiji simili. Uħud minnhom huma meħtieġa biex is-sit jaħdem. Oħrajn jgħinuna nanalizzaw kif jintuża s-sit, nippersonalizzaw il-kontenut jew ninkorporaw servizzi esterni; dawn nużawhom biss bil-kunsens tiegħek. Tista’ tibdel jew tirtira l-kunsens tiegħek fi kwalunkwe ħin fil-preferenzi. Issib aktar dettalji fil-preferenzi u fil-politika tal-privatezza tagħna.',
  widgetDeclineButtonText: 'Irrifjuta kollox',
  widgetFullConsentButtonText: 'Aċċetta kollox',
  widgetSettingsButtonText: 'Preferenzi',
  checkAllButtonText: 'Agħżel kollox',
  uncheckAllButtonText: 'Neħħi l-għażla',
  imprint: 'Informazzjoni legali',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Politika tal-privatezza',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Aċċessibbiltà',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Agħżel x’tippermetti',
  categoriesCancelButtonText: 'Lura',
  categoriesFullConsentButtonText: 'Aċċetta kollox',
  categoriesSaveButtonText: 'Issejvja l-għażla',
  detailsTitle: 'Dettalji tas-servizzi',
  detailsCloseButtonText: 'Agħlaq',
  embeddingVendorLabel: 'Fornitur',
  embeddingDescriptionLabel: 'Deskrizzjoni',
  embeddingPrivacyPolicyUrlLabel: 'Politika tal-privatezza tal-fornitur',
  embeddingLifetimeLabel: 'Perjodu ta’ ħażna',
  embeddingWhichDataIsCollectedLabel: 'Data miġbura',
  embeddingPurposeOfDataCollectionLabel: 'Skop tal-ipproċessar',
  embeddingLegalBasisLabel: 'Bażi legali',
  embeddingPlaceOfProcessingLabel: 'Post tal-ipproċessar',
  embeddingAssetNameLabel: 'Isem',
  embeddingAssetLifetimeLabel: 'Skadenza',
  embeddingAssetDescriptionLabel: 'Deskrizzjoni',
  blockedContentTitle: 'Kontenut imblukkat',
  blockedContentDisclaimer:
    'Dan il-kontenut huwa pprovdut minn servizz estern. Jekk ittellgħu, l-indirizz IP tiegħek u possibbilment data oħra jintbagħtu lill-fornitur, li jista’ wkoll iqiegħed cookies.',
  blockedContentConsentButtonText: 'Tella’ l-kontenut',
  blockedContentConsentSwitchShowExternalContent: 'Dejjem uri kontenut estern',
  blockedContentConsentSwitchAllowEmbedding: 'Dejjem ippermetti dan is-servizz',
  blockedContentConsentSwitchProviderDetails: 'Dettalji tal-fornitur',
  changeConsentText: 'Ibdel il-preferenzi tal-cookies',
  moreInformationLabel: 'Aktar informazzjoni',
  questionMarkButtonText: 'Dettalji',
  languageLabel: 'Lingwa',
  tcfVendorIntroText:
    'Naħdmu mal-imsieħba elenkati hawn. Jistgħu jaħżnu jew jaċċessaw informazzjoni fuq it-tagħmir tiegħek u jipproċessaw data personali għall-iskopijiet murija. Xi msieħba jistrieħu fuq interess leġittimu minflok fuq il-kunsens; tista’ toġġezzjona għal dan hawn.',
  tcfPurposeLabel: 'Skopijiet',
  tcfSpecialPurposeLabel: 'Skopijiet speċjali',
  tcfFeaturesLabel: 'Karatteristiċi',
  tcfSpecialFeaturesLabel: 'Karatteristiċi speċjali',
  tcfOptedInRemark: 'Biss bil-kunsens espliċitu tiegħek',
  tcfThirdPartiesLabel: 'Bejjiegħa terzi',
  nonTcfPurposesLabel: 'Skopijiet oħra',
  nonTcfVendorsLabel: 'Fornituri oħra',
  tcfVendorUsesNonCookieStorageText:
    'Dan il-bejjiegħ juża wkoll metodi oħra ta’ ħażna, bħall-ħażna lokali tal-browser tiegħek.',
  tcfSpecialFeaturesHandledGloballyText:
    'Il-karatteristiċi speċjali japplikaw għall-bejjiegħa kollha u jistgħu jiġu permessi jew miċħuda biss għalihom kollha flimkien.',
  tcfStacksListText: 'Dan jinkludi l-iskopijiet li ġejjin:',
  tcfCookieRefreshText: 'Il-perjodu ta’ ħażna jista’ jerġa’ jibda f’kull żjara tiegħek.',
  tcfExtendedDisclosureText: 'Informazzjoni dettaljata dwar il-ħażna u l-aċċess',
  tcfAssetTypeLabel: 'Tip',
  tcfAssetPurposesLabel: 'Skopijiet',
  purposeNames: {
    '41ba25c': 'Teknikament meħtieġa',
    'cdcbd7c': 'Kummerċjalizzazzjoni',
    'a717ff5': 'Analitika',
    '7c19e32': 'Personalizzazzjoni',
    '6cd2721': 'Midja soċjali',
    '15c61c3': 'Oħrajn',
  },
  purposeDescriptions: {
    '41ba25c':
      'Meħtieġa għal funzjonijiet bażiċi bħan-navigazzjoni, is-sigurtà u l-ħażna tal-preferenzi tal-privatezza tiegħek. Ma jistgħux jintfew.',
    'cdcbd7c':
      'Jintużaw biex juru reklami li jaqblu mal-interessi tiegħek u biex ikejlu kemm il-kampanji huma effettivi, anke fuq siti oħra.',
    'a717ff5':
      'Jgħinuna nifhmu kif il-viżitaturi jużaw is-sit, pereżempju liema paġni jintlemħu l-aktar, sabiex inkunu nistgħu ntejbuh.',
    '7c19e32':
      'Jiftakru l-preferenzi u l-għażliet tiegħek sabiex il-kontenut u l-funzjonijiet ikunu adattati għalik.',
    '6cd2721':
      'Jippermettu li kontenut minn netwerks soċjali jiġi inkorporat u kondiviż. In-netwerks jistgħu jużaw id-data wkoll għall-iskopijiet tagħhom.',
    '15c61c3':
      'Servizzi li ma jidħlu f’ebda kategorija oħra. Issib id-dettalji ta’ kull servizz fil-preferenzi.',
  },
};
