import type { LocaleTexts } from '../builtin-texts.js';

export const fr: LocaleTexts = {
  widgetTitle: 'Paramètres de confidentialité',
  widgetIntroText:
    'Ce site utilise des cookies et des technologies similaires. Certains sont nécessaires à son fonctionnement. D’autres nous aident à analyser son utilisation, à personnaliser les contenus ou à intégrer des services externes ; nous ne les utilisons qu’avec votre consentement. Vous pouvez modifier ou retirer votre consentement à tout moment dans les paramètres. Vous trouverez plus de détails dans les paramètres et dans notre politique de confidentialité.',
  widgetDeclineButtonText: 'Tout refuser',
  widgetFullConsentButtonText: 'Tout accepter',
  widgetSettingsButtonText: 'Paramètres',
  checkAllButtonText: 'Tout sélectionner',
  uncheckAllButtonText: 'Tout désélectionner',
  imprint: 'Mentions légales',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Politique de confidentialité',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Accessibilité',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Choisissez ce que vous autorisez',
  categoriesCancelButtonText: 'Retour',
  categoriesFullConsentButtonText: 'Tout accepter',
  categoriesSaveButtonText: 'Enregistrer la sélection',
  detailsTitle: 'Détails des services',
  detailsCloseButtonText: 'Fermer',
  embeddingVendorLabel: 'Fournisseur',
  embeddingDescriptionLabel: 'Description',
  embeddingPrivacyPolicyUrlLabel: 'Politique de confidentialité du fournisseur',
  embeddingLifetimeLabel: 'Durée de conservation',
  embeddingWhichDataIsCollectedLabel: 'Données collectées',
  embeddingPurposeOfDataCollectionLabel: 'Finalité du traitement',
  embeddingLegalBasisLabel: 'Base juridique',
  embeddingPlaceOfProcessingLabel: 'Lieu du traitement',
  embeddingAssetNameLabel: 'Nom',
  embeddingAssetLifetimeLabel: 'Expiration',
  embeddingAssetDescriptionLabel: 'Description',
  blockedContentTitle: 'Contenu bloqué',
  blockedContentDisclaimer:
    'Ce contenu est fourni par un service externe. Si vous le chargez, votre adresse IP et éventuellement d’autres données seront transmises au fournisseur, qui peut également déposer des cookies.',
  blockedContentConsentButtonText: 'Charger le contenu',
  blockedContentConsentSwitchShowExternalContent: 'Toujours afficher les contenus externes',
  blockedContentConsentSwitchAllowEmbedding: 'Toujours autoriser ce service',
  blockedContentConsentSwitchProviderDetails: 'Détails du fournisseur',
  changeConsentText: 'Modifier les paramètres des cookies',
  moreInformationLabel: 'Plus d’informations',
  questionMarkButtonText: 'Détails',
  tcfVendorIntroText:
    'Nous travaillons avec les partenaires listés ici. Ils peuvent stocker des informations sur votre appareil ou y accéder et traiter des données personnelles pour les finalités indiquées. Certains partenaires invoquent un intérêt légitime plutôt que votre consentement ; vous pouvez vous y opposer ici.',
  tcfPurposeLabel: 'Finalités',
  tcfSpecialPurposeLabel: 'Finalités spéciales',
  tcfFeaturesLabel: 'Fonctionnalités',
  tcfSpecialFeaturesLabel: 'Fonctionnalités spéciales',
  tcfOptedInRemark: 'Uniquement avec votre consentement explicite',
  tcfThirdPartiesLabel: 'Partenaires tiers',
  nonTcfPurposesLabel: 'Autres finalités',
  nonTcfVendorsLabel: 'Autres fournisseurs',
  tcfVendorUsesNonCookieStorageText:
    'Ce fournisseur utilise aussi d’autres moyens de stockage, par exemple le stockage local de votre navigateur.',
  tcfSpecialFeaturesHandledGloballyText:
    'Les fonctionnalités spéciales s’appliquent à tous les fournisseurs et ne peuvent être autorisées ou refusées que pour tous à la fois.',
  tcfStacksListText: 'Cela comprend les finalités suivantes :',
  tcfCookieRefreshText: 'La durée de conservation peut recommencer à chaque visite.',
  tcfExtendedDisclosureText: 'Informations détaillées sur le stockage et l’accès',
  tcfAssetTypeLabel: 'Type',
  tcfAssetPurposesLabel: 'Finalités',
  purposeNames: {
    '41ba25c': 'Techniquement nécessaires',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Statistiques',
    '7c19e32': 'Personnalisation',
    '6cd2721': 'Réseaux sociaux',
    '15c61c3': 'Autres',
  },
  purposeDescriptions: {
    '41ba25c':
      'Indispensables aux fonctions de base comme la navigation, la sécurité et l’enregistrement de vos choix de confidentialité. Ils ne peuvent pas être désactivés.',
    'cdcbd7c':
      'Permet d’afficher des publicités adaptées à vos centres d’intérêt et de mesurer l’efficacité des campagnes, y compris sur d’autres sites.',
    'a717ff5':
      'Nous aide à comprendre comment les visiteurs utilisent le site, par exemple quelles pages sont les plus consultées, afin de l’améliorer.',
    '7c19e32':
      'Mémorise vos préférences et vos choix afin d’adapter les contenus et les fonctionnalités.',
    '6cd2721':
      'Permet d’intégrer et de partager des contenus issus des réseaux sociaux. Ces réseaux peuvent aussi utiliser les données à leurs propres fins.',
    '15c61c3':
      'Services qui n’entrent dans aucune des autres catégories. Vous trouverez les détails de chaque service dans les paramètres.',
  },
};
