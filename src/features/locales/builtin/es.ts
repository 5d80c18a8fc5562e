import type { LocaleTexts } from '../builtin-texts.js';

export const es: LocaleTexts = {
  widgetTitle: 'Configuración de privacidad',
  widgetIntroText:
    'En este sitio web utilizamos cookies y tecnologías similares. Algunas son necesarias para que el sitio funcione. Otras nos ayudan a analizar su uso, personalizar contenidos o integrar servicios externos; solo las utilizamos si usted lo acepta. Puede cambiar o retirar su consentimiento en cualquier momento en la configuración. Encontrará más detalles en la configuración y en nuestra política de privacidad.',
  widgetDeclineButtonText: 'Rechazar todo',
  widgetFullConsentButtonText: 'Aceptar todo',
  widgetSettingsButtonText: 'Configuración',
  checkAllButtonText: 'Seleccionar todo',
  uncheckAllButtonText: 'Deseleccionar todo',
  imprint: 'Aviso legal',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Política de privacidad',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Accesibilidad',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Elija qué permite',
  categoriesCancelButtonText: 'Volver',
  categoriesFullConsentButtonText: 'Aceptar todo',
  categoriesSaveButtonText: 'Guardar selección',
  detailsTitle: 'Servicios en detalle',
  detailsCloseButtonText: 'Cerrar',
  embeddingVendorLabel: 'Proveedor',
  embeddingDescriptionLabel: 'Descripción',
  embeddingPrivacyPolicyUrlLabel: 'Política de privacidad del proveedor',
  embeddingLifetimeLabel: 'Plazo de conservación',
  embeddingWhichDataIsCollectedLabel: 'Datos recogidos',
  embeddingPurposeOfDataCollectionLabel: 'Finalidad del tratamiento',
  embeddingLegalBasisLabel: 'Base jurídica',
  embeddingPlaceOfProcessingLabel: 'Lugar del tratamiento',
  embeddingAssetNameLabel: 'Nombre',
  embeddingAssetLifetimeLabel: 'Caducidad',
  embeddingAssetDescriptionLabel: 'Descripción',
  blockedContentTitle: 'Contenido bloqueado',
  blockedContentDisclaimer:
    'Este contenido lo proporciona un servicio externo. Si lo carga, su dirección IP y posiblemente otros datos se enviarán al proveedor, que también puede instalar cookies.',
  blockedContentConsentButtonText: 'Cargar contenido',
  blockedContentConsentSwitchShowExternalContent: 'Mostrar siempre el contenido externo',
  blockedContentConsentSwitchAllowEmbedding: 'Permitir siempre este servicio',
  blockedContentConsentSwitchProviderDetails: 'Detalles del proveedor',
  changeConsentText: 'Cambiar la configuración de cookies',
  moreInformationLabel: 'Más información',
  questionMarkButtonText: 'Detalles',
  tcfVendorIntroText:
    'Trabajamos con los socios que se indican aquí. Pueden almacenar información en su dispositivo o acceder a ella y tratar datos personales para los fines indicados. Algunos socios se basan en el interés legítimo en lugar del consentimiento; puede oponerse a ello aquí.',
  tcfPurposeLabel: 'Finalidades',
  tcfSpecialPurposeLabel: 'Finalidades especiales',
  tcfFeaturesLabel: 'Características',
  tcfSpecialFeaturesLabel: 'Características especiales',
  tcfOptedInRemark: 'Solo con su consentimiento expreso',
  tcfThirdPartiesLabel: 'Proveedores externos',
  nonTcfPurposesLabel: 'Otras finalidades',
  nonTcfVendorsLabel: 'Otros proveedores',
  tcfVendorUsesNonCookieStorageText:
    'Este proveedor también utiliza otros métodos de almacenamiento, por ejemplo el almacenamiento local de su navegador.',
  tcfSpecialFeaturesHandledGloballyText:
    'Las características especiales se aplican a todos los proveedores y solo pueden permitirse o rechazarse para todos a la vez.',
  tcfStacksListText: 'Incluye las siguientes finalidades:',
  tcfCookieRefreshText: 'El plazo de conservación puede volver a empezar en cada visita.',
  tcfExtendedDisclosureText: 'Información detallada sobre el almacenamiento y el acceso',
  tcfAssetTypeLabel: 'Tipo',
  tcfAssetPurposesLabel: 'Finalidades',
  purposeNames: {
    '41ba25c': 'Técnicamente necesarias',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Estadísticas',
    '7c19e32': 'Personalización',
    '6cd2721': 'Redes sociales',
    '15c61c3': 'Otros',
  },
  purposeDescriptions: {
    '41ba25c':
      'Imprescindibles para funciones básicas como la navegación, la seguridad y el almacenamiento de su configuración de privacidad. No se pueden desactivar.',
    'cdcbd7c':
      'Sirve para mostrar publicidad acorde con sus intereses y medir la eficacia de las campañas, también en otros sitios web.',
    'a717ff5':
      'Nos ayuda a entender cómo usan los visitantes el sitio web, por ejemplo qué páginas se visitan más, para poder mejorarlo.',
    '7c19e32':
      'Recuerda sus preferencias y elecciones para adaptar a usted los contenidos y las funciones.',
    '6cd2721':
      'Permite integrar y compartir contenidos de redes sociales. Estas redes también pueden utilizar los datos para sus propios fines.',
    '15c61c3':
      'Servicios que no encajan en ninguna de las demás categorías. Encontrará los detalles de cada servicio en la configuración.',
  },
};
