import type { LocaleTexts } from '../builtin-texts.js';

export const en: LocaleTexts = {
  widgetTitle: 'Privacy settings',
  widgetIntroText:
    'We use cookies and similar technologies on this website. Some of them are necessary for the site to work. Others help us analyse how the site is used, personalise content or embed external services; we only use these if you agree. You can change or withdraw your consent at any time in the settings. You will find details in the settings and in our privacy policy.',
  widgetDeclineButtonText: 'Reject all',
  widgetFullConsentButtonText: 'Accept all',
  widgetSettingsButtonText: 'Settings',
  checkAllButtonText: 'Select all',
  uncheckAllButtonText: 'Deselect all',
  imprint: 'Imprint',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Privacy policy',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Accessibility',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Choose what you allow',
  categoriesCancelButtonText: 'Back',
  categoriesFullConsentButtonText: 'Accept all',
  categoriesSaveButtonText: 'Save selection',
  detailsTitle: 'Services in detail',
  detailsCloseButtonText: 'Close',
  embeddingVendorLabel: 'Provider',
  embeddingDescriptionLabel: 'Description',
  embeddingPrivacyPolicyUrlLabel: 'Privacy policy of the provider',
  embeddingLifetimeLabel: 'Storage period',
  embeddingWhichDataIsCollectedLabel: 'Data collected',
  embeddingPurposeOfDataCollectionLabel: 'Purpose of processing',
  embeddingLegalBasisLabel: 'Legal basis',
  embeddingPlaceOfProcessingLabel: 'Place of processing',
  embeddingAssetNameLabel: 'Name',
  embeddingAssetLifetimeLabel: 'Expiry',
  embeddingAssetDescriptionLabel: 'Description',
  blockedContentTitle: 'Blocked content',
  blockedContentDisclaimer:
    'This content is provided by an external service. If you load it, your IP address and possibly other data will be sent to the provider, who may also set cookies.',
  blockedContentConsentButtonText: 'Load content',
  blockedContentConsentSwitchShowExternalContent: 'Always show external content',
  blockedContentConsentSwitchAllowEmbedding: 'Always allow this service',
  blockedContentConsentSwitchProviderDetails: 'Provider details',
  changeConsentText: 'Change cookie settings',
  moreInformationLabel: 'More information',
  questionMarkButtonText: 'Details',
  tcfVendorIntroText:
    'We work with the partners listed here. They may store or access information on your device and process personal data for the purposes shown. Some partners rely on legitimate interest instead of consent; you can object to this here.',
  tcfPurposeLabel: 'Purposes',
  tcfSpecialPurposeLabel: 'Special purposes',
  tcfFeaturesLabel: 'Features',
  tcfSpecialFeaturesLabel: 'Special features',
  tcfOptedInRemark: 'Only with your explicit consent',
  tcfThirdPartiesLabel: 'Third-party vendors',
  nonTcfPurposesLabel: 'Other purposes',
  nonTcfVendorsLabel: 'Other providers',
  tcfVendorUsesNonCookieStorageText:
    'This vendor also uses other storage methods, such as the local storage of your browser.',
  tcfSpecialFeaturesHandledGloballyText:
    'Special features apply to all vendors and can only be allowed or refused for all of them together.',
  tcfStacksListText: 'This includes the following purposes:',
  tcfCookieRefreshText: 'The storage period may start again each time you visit.',
  tcfExtendedDisclosureText: 'Detailed information on storage and access',
  tcfAssetTypeLabel: 'Type',
  tcfAssetPurposesLabel: 'Purposes',
  purposeNames: {
    '41ba25c': 'Technically necessary',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Analytics',
    '7c19e32': 'Personalisation',
    '6cd2721': 'Social media',
    '15c61c3': 'Other',
  },
  purposeDescriptions: {
    '41ba25c':
      'Needed for basic functions such as page navigation, security and saving your privacy settings. These cannot be switched off.',
    'cdcbd7c':
      'Used to show advertising that matches your interests and to measure how well campaigns work, also on other websites.',
    'a717ff5':
      'Helps us understand how visitors use the website, for example which pages are viewed most, so that we can improve it.',
    '7c19e32':
      'Remembers your preferences and choices so that content and functions can be adapted to you.',
    '6cd2721':
      'Allows content from social networks to be embedded and shared. The networks may also use the data for their own purposes.',
    '15c61c3':
      'Services that do not fit into any of the other categories. You will find details on each service in the settings.',
  },
};
