import type { LocaleTexts } from '../builtin-texts.js';

// European Portuguese (the EU language; pt_BR locales get these too unless they set their own).
// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const pt: LocaleTexts = {
  widgetTitle: 'Definições de privacidade',
  widgetIntroText:
    'Utilizamos cookies e tecnologias semelhantes neste website. Alguns são necessários para o funcionamento do site. Outros ajudam-nos a analisar a utilização do site, a personalizar conteúdos ou a incorporar serviços externos; só os utilizamos com o seu consentimento. Pode alterar ou retirar o seu consentimento a qualquer momento nas definições. Encontra mais informações nas definições e na nossa política de privacidade.',
  widgetDeclineButtonText: 'Rejeitar todos',
  widgetFullConsentButtonText: 'Aceitar todos',
  widgetSettingsButtonText: 'Definições',
  checkAllButtonText: 'Selecionar todos',
  uncheckAllButtonText: 'Desmarcar todos',
  imprint: 'Informação legal',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Política de privacidade',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Acessibilidade',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Escolha o que permite',
  categoriesCancelButtonText: 'Voltar',
  categoriesFullConsentButtonText: 'Aceitar todos',
  categoriesSaveButtonText: 'Guardar seleção',
  detailsTitle: 'Detalhes dos serviços',
  detailsCloseButtonText: 'Fechar',
  embeddingVendorLabel: 'Fornecedor',
  embeddingDescriptionLabel: 'Descrição',
  embeddingPrivacyPolicyUrlLabel: 'Política de privacidade do fornecedor',
  embeddingLifetimeLabel: 'Período de conservação',
  embeddingWhichDataIsCollectedLabel: 'Dados recolhidos',
  embeddingPurposeOfDataCollectionLabel: 'Finalidade do tratamento',
  embeddingLegalBasisLabel: 'Fundamento jurídico',
  embeddingPlaceOfProcessingLabel: 'Local do tratamento',
  embeddingAssetNameLabel: 'Nome',
  embeddingAssetLifetimeLabel: 'Validade',
  embeddingAssetDescriptionLabel: 'Descrição',
  blockedContentTitle: 'Conteúdo bloqueado',
  blockedContentDisclaimer:
    'Este conteúdo é disponibilizado por um serviço externo. Se o carregar, o seu endereço IP e eventualmente outros dados serão transmitidos ao fornecedor, que também pode instalar cookies.',
  blockedContentConsentButtonText: 'Carregar conteúdo',
  blockedContentConsentSwitchShowExternalContent: 'Mostrar sempre conteúdos externos',
  blockedContentConsentSwitchAllowEmbedding: 'Permitir sempre este serviço',
  blockedContentConsentSwitchProviderDetails: 'Dados do fornecedor',
  changeConsentText: 'Alterar definições de cookies',
  moreInformationLabel: 'Mais informações',
  questionMarkButtonText: 'Detalhes',
  languageLabel: 'Idioma',
  tcfVendorIntroText:
    'Trabalhamos com os parceiros aqui indicados. Estes podem armazenar ou aceder a informações no seu dispositivo e tratar dados pessoais para as finalidades apresentadas. Alguns parceiros baseiam-se no interesse legítimo em vez do consentimento; pode opor-se a isso aqui.',
  tcfPurposeLabel: 'Finalidades',
  tcfSpecialPurposeLabel: 'Finalidades especiais',
  tcfFeaturesLabel: 'Funcionalidades',
  tcfSpecialFeaturesLabel: 'Funcionalidades especiais',
  tcfOptedInRemark: 'Apenas com o seu consentimento expresso',
  tcfThirdPartiesLabel: 'Fornecedores terceiros',
  nonTcfPurposesLabel: 'Outras finalidades',
  nonTcfVendorsLabel: 'Outros fornecedores',
  tcfVendorUsesNonCookieStorageText:
    'Este fornecedor também utiliza outros meios de armazenamento, como o armazenamento local do seu navegador.',
  tcfSpecialFeaturesHandledGloballyText:
    'As funcionalidades especiais aplicam-se a todos os fornecedores e só podem ser permitidas ou recusadas para todos em conjunto.',
  tcfStacksListText: 'Inclui as seguintes finalidades:',
  tcfCookieRefreshText: 'O período de conservação pode recomeçar a cada visita.',
  tcfExtendedDisclosureText: 'Informações detalhadas sobre armazenamento e acesso',
  tcfAssetTypeLabel: 'Tipo',
  tcfAssetPurposesLabel: 'Finalidades',
  purposeNames: {
    '41ba25c': 'Estritamente necessários',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Análise',
    '7c19e32': 'Personalização',
    '6cd2721': 'Redes sociais',
    '15c61c3': 'Outros',
  },
  purposeDescriptions: {
    '41ba25c':
      'Necessários para funções básicas como a navegação, a segurança e a memorização das suas definições de privacidade. Não podem ser desativados.',
    'cdcbd7c':
      'Servem para mostrar publicidade adequada aos seus interesses e medir a eficácia das campanhas, também noutros websites.',
    'a717ff5':
      'Ajudam-nos a perceber como os visitantes utilizam o website, por exemplo quais as páginas mais vistas, para o podermos melhorar.',
    '7c19e32':
      'Memorizam as suas preferências e escolhas para que os conteúdos e funções possam ser adaptados a si.',
    '6cd2721':
      'Permitem incorporar e partilhar conteúdos de redes sociais. As redes podem também utilizar os dados para fins próprios.',
    '15c61c3':
      'Serviços que não se enquadram em nenhuma das outras categorias. Encontra os detalhes de cada serviço nas definições.',
  },
};
