import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const ga: LocaleTexts = {
  widgetTitle: 'Socruithe príobháideachais',
  widgetIntroText:
    'Úsáidimid fianáin agus teicneolaíochtaí cosúil leo ar an suíomh gréasáin seo. Tá cuid acu riachtanach chun go n-oibreoidh an suíomh. Cabhraíonn cinn eile linn anailís a dhéanamh ar an gcaoi a n-úsáidtear an suíomh, ábhar a phearsantú nó seirbhísí seachtracha a leabú; ní úsáidimid iad sin ach le do thoiliú. Is féidir leat do thoiliú a athrú nó a tharraingt siar am ar bith sna socruithe. Gheobhaidh tú tuilleadh sonraí sna socruithe agus inár bpolasaí príobháideachais.',
  widgetDeclineButtonText: 'Diúltaigh do gach ceann',
  widgetFullConsentButtonText: 'Glac le gach ceann',
  widgetSettingsButtonText: 'Socruithe',
  checkAllButtonText: 'Roghnaigh gach ceann',
  uncheckAllButtonText: 'Díroghnaigh gach ceann',
  imprint: 'Faisnéis dhlíthiúil',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Polasaí príobháideachais',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Inrochtaineacht',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Roghnaigh cad a cheadaíonn tú',
  categoriesCancelButtonText: 'Siar',
  categoriesFullConsentButtonText: 'Glac le gach ceann',
  categoriesSaveButtonText: 'Sábháil an rogha',
  detailsTitle: 'Sonraí na seirbhísí',
  detailsCloseButtonText: 'Dún',
  embeddingVendorLabel: 'Soláthraí',
  embeddingDescriptionLabel: 'Cur síos',
  embeddingPrivacyPolicyUrlLabel: 'Polasaí príobháideachais an tsoláthraí',
  embeddingLifetimeLabel: 'Tréimhse stórála',
  embeddingWhichDataIsCollectedLabel: 'Sonraí a bhailítear',
  embeddingPurposeOfDataCollectionLabel: 'Cuspóir na próiseála',
  embeddingLegalBasisLabel: 'Bunús dlí',
  embeddingPlaceOfProcessingLabel: 'Áit na próiseála',
  embeddingAssetNameLabel: 'Ainm',
  embeddingAssetLifetimeLabel: 'Dul in éag',
  embeddingAssetDescriptionLabel: 'Cur síos',
  blockedContentTitle: 'Ábhar blocáilte',
  blockedContentDisclaimer:
    'Is seirbhís sheachtrach a sholáthraíonn an t-ábhar seo. Má lódálann tú é, seolfar do sheoladh IP agus b’fhéidir sonraí eile chuig an soláthraí, a fhéadfaidh fianáin a shocrú freisin.',
  blockedContentConsentButtonText: 'Lódáil an t-ábhar',
  blockedContentConsentSwitchShowExternalContent: 'Taispeáin ábhar seachtrach i gcónaí',
  blockedContentConsentSwitchAllowEmbedding: 'Ceadaigh an tseirbhís seo i gcónaí',
  blockedContentConsentSwitchProviderDetails: 'Sonraí an tsoláthraí',
  changeConsentText: 'Athraigh socruithe fianán',
  moreInformationLabel: 'Tuilleadh eolais',
  questionMarkButtonText: 'Sonraí',
  languageLabel: 'Teanga',
  tcfVendorIntroText:
    'Oibrímid leis na comhpháirtithe atá liostaithe anseo. Féadfaidh siad faisnéis a stóráil ar do ghléas nó rochtain a fháil uirthi agus sonraí pearsanta a phróiseáil chun na gcuspóirí a thaispeántar. Bíonn cuid de na comhpháirtithe ag brath ar leas dlisteanach in ionad toilithe; is féidir leat agóid a dhéanamh ina choinne sin anseo.',
  tcfPurposeLabel: 'Cuspóirí',
  tcfSpecialPurposeLabel: 'Cuspóirí speisialta',
  tcfFeaturesLabel: 'Gnéithe',
  tcfSpecialFeaturesLabel: 'Gnéithe speisialta',
  tcfOptedInRemark: 'Le do thoiliú sainráite amháin',
  tcfThirdPartiesLabel: 'Díoltóirí tríú páirtí',
  nonTcfPurposesLabel: 'Cuspóirí eile',
  nonTcfVendorsLabel: 'Soláthraithe eile',
  tcfVendorUsesNonCookieStorageText:
    'Úsáideann an díoltóir seo modhanna stórála eile freisin, mar shampla stóras áitiúil do bhrabhsálaí.',
  tcfSpecialFeaturesHandledGloballyText:
    'Baineann gnéithe speisialta le gach díoltóir agus ní féidir iad a cheadú nó a dhiúltú ach do gach díoltóir le chéile.',
  tcfStacksListText: 'Áirítear leis seo na cuspóirí seo a leanas:',
  tcfCookieRefreshText: 'Féadfaidh an tréimhse stórála tosú as an nua gach uair a thugann tú cuairt.',
  tcfExtendedDisclosureText: 'Faisnéis mhionsonraithe faoi stóráil agus rochtain',
  tcfAssetTypeLabel: 'Cineál',
  tcfAssetPurposesLabel: 'Cuspóirí',
  purposeNames: {
    '41ba25c': 'Riachtanach go teicniúil',
    'cdcbd7c': 'Margaíocht',
    'a717ff5': 'Anailísíocht',
    '7c19e32': 'Pearsantú',
    '6cd2721': 'Meáin shóisialta',
    '15c61c3': 'Eile',
  },
  purposeDescriptions: {
    '41ba25c':
      'Teastaíonn siad le haghaidh bunfheidhmeanna ar nós nascleanúint, slándáil agus do shocruithe príobháideachais a shábháil. Ní féidir iad a mhúchadh.',
    'cdcbd7c':
      'Úsáidtear iad chun fógraíocht a oireann do do spéiseanna a thaispeáint agus chun éifeacht feachtas a thomhas, ar shuíomhanna eile freisin.',
    'a717ff5':
      'Cabhraíonn siad linn tuiscint a fháil ar an gcaoi a n-úsáideann cuairteoirí an suíomh, mar shampla na leathanaigh is mó a bhreathnaítear orthu, ionas gur féidir linn é a fheabhsú.',
    '7c19e32':
      'Cuimhníonn siad ar do roghanna ionas gur féidir ábhar agus feidhmeanna a chur in oiriúint duit.',
    '6cd2721':
      'Ligeann siad d’ábhar ó líonraí sóisialta a bheith leabaithe agus roinnte. Féadfaidh na líonraí na sonraí a úsáid chun a gcuspóirí féin freisin.',
    '15c61c3':
      'Seirbhísí nach bhfuil ag teacht le haon cheann de na catagóirí eile. Gheobhaidh tú sonraí faoi gach seirbhís sna socruithe.',
  },
};
