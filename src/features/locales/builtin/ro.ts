import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const ro: LocaleTexts = {
  widgetTitle: 'Setări de confidențialitate',
  widgetIntroText:
    'Pe acest site folosim cookie-uri și tehnologii similare. Unele dintre ele sunt necesare pentru funcționarea site-ului. Altele ne ajută să analizăm modul în care este utilizat site-ul, să personalizăm conținutul sau să integrăm servicii externe; pe acestea le folosim numai cu consimțământul dumneavoastră. Vă puteți modifica sau retrage consimțământul oricând din setări. Detalii găsiți în setări și în politica noastră de confidențialitate.',
  widgetDeclineButtonText: 'Respinge toate',
  widgetFullConsentButtonText: 'Acceptă toate',
  widgetSettingsButtonText: 'Setări',
  checkAllButtonText: 'Selectează toate',
  uncheckAllButtonText: 'Deselectează toate',
  imprint: 'Informații legale',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Politica de confidențialitate',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Accesibilitate',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Alegeți ce permiteți',
  categoriesCancelButtonText: 'Înapoi',
  categoriesFullConsentButtonText: 'Acceptă toate',
  categoriesSaveButtonText: 'Salvează selecția',
  detailsTitle: 'Detalii despre servicii',
  detailsCloseButtonText: 'Închide',
  embeddingVendorLabel: 'Furnizor',
  embeddingDescriptionLabel: 'Descriere',
  embeddingPrivacyPolicyUrlLabel: 'Politica de confidențialitate a furnizorului',
  embeddingLifetimeLabel: 'Durata stocării',
  embeddingWhichDataIsCollectedLabel: 'Date colectate',
  embeddingPurposeOfDataCollectionLabel: 'Scopul prelucrării',
  embeddingLegalBasisLabel: 'Temei juridic',
  embeddingPlaceOfProcessingLabel: 'Locul prelucrării',
  embeddingAssetNameLabel: 'Nume',
  embeddingAssetLifetimeLabel: 'Expirare',
  embeddingAssetDescriptionLabel: 'Descriere',
  blockedContentTitle: 'Conținut blocat',
  blockedContentDisclaimer:
    'Acest conținut este furnizat de un serviciu extern. Dacă îl încărcați, adresa dumneavoastră IP și, eventual, alte date vor fi transmise furnizorului, care poate plasa și cookie-uri.',
  blockedContentConsentButtonText: 'Încarcă conținutul',
  blockedContentConsentSwitchShowExternalContent: 'Afișează întotdeauna conținutul extern',
  blockedContentConsentSwitchAllowEmbedding: 'Permite întotdeauna acest serviciu',
  blockedContentConsentSwitchProviderDetails: 'Detalii despre furnizor',
  changeConsentText: 'Modifică setările cookie-urilor',
  moreInformationLabel: 'Mai multe informații',
  questionMarkButtonText: 'Detalii',
  languageLabel: 'Limbă',
  tcfVendorIntroText:
    'Colaborăm cu partenerii enumerați aici. Aceștia pot stoca informații pe dispozitivul dumneavoastră sau pot accesa astfel de informații și pot prelucra date cu caracter personal în scopurile afișate. Unii parteneri se bazează pe interesul legitim în locul consimțământului; vă puteți opune acestui lucru aici.',
  tcfPurposeLabel: 'Scopuri',
  tcfSpecialPurposeLabel: 'Scopuri speciale',
  tcfFeaturesLabel: 'Funcționalități',
  tcfSpecialFeaturesLabel: 'Funcționalități speciale',
  tcfOptedInRemark: 'Numai cu consimțământul dumneavoastră explicit',
  tcfThirdPartiesLabel: 'Furnizori terți',
  nonTcfPurposesLabel: 'Alte scopuri',
  nonTcfVendorsLabel: 'Alți furnizori',
  tcfVendorUsesNonCookieStorageText:
    'Acest furnizor folosește și alte metode de stocare, de exemplu stocarea locală a browserului dumneavoastră.',
  tcfSpecialFeaturesHandledGloballyText:
    'Funcționalitățile speciale se aplică tuturor furnizorilor și pot fi permise sau refuzate doar pentru toți împreună.',
  tcfStacksListText: 'Aceasta include următoarele scopuri:',
  tcfCookieRefreshText: 'Durata stocării poate reîncepe la fiecare vizită.',
  tcfExtendedDisclosureText: 'Informații detaliate despre stocare și acces',
  tcfAssetTypeLabel: 'Tip',
  tcfAssetPurposesLabel: 'Scopuri',
  purposeNames: {
    '41ba25c': 'Strict necesare',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Analiză',
    '7c19e32': 'Personalizare',
    '6cd2721': 'Rețele sociale',
    '15c61c3': 'Altele',
  },
  purposeDescriptions: {
    '41ba25c':
      'Necesare pentru funcții de bază precum navigarea, securitatea și salvarea setărilor dumneavoastră de confidențialitate. Nu pot fi dezactivate.',
    'cdcbd7c':
      'Sunt folosite pentru a afișa reclame potrivite intereselor dumneavoastră și pentru a măsura eficiența campaniilor, inclusiv pe alte site-uri.',
    'a717ff5':
      'Ne ajută să înțelegem cum folosesc vizitatorii site-ul, de exemplu ce pagini sunt cele mai vizitate, pentru a-l putea îmbunătăți.',
    '7c19e32':
      'Rețin preferințele și alegerile dumneavoastră, astfel încât conținutul și funcțiile să poată fi adaptate.',
    '6cd2721':
      'Permit integrarea și distribuirea conținutului din rețelele sociale. Rețelele pot folosi datele și în scopuri proprii.',
    '15c61c3':
      'Servicii care nu se încadrează în niciuna dintre celelalte categorii. Detalii despre fiecare serviciu găsiți în setări.',
  },
};
