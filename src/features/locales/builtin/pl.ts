import type { LocaleTexts } from '../builtin-texts.js';

export const pl: LocaleTexts = {
  widgetTitle: 'Ustawienia prywatności',
  widgetIntroText:
    'Na tej stronie używamy plików cookie i podobnych technologii. Niektóre z nich są niezbędne do działania strony. Inne pomagają nam analizować sposób korzystania ze strony, personalizować treści lub osadzać usługi zewnętrzne; używamy ich wyłącznie za Państwa zgodą. Zgodę mogą Państwo w każdej chwili zmienić lub wycofać w ustawieniach. Szczegółowe informacje znajdują się w ustawieniach oraz w naszej polityce prywatności.',
  widgetDeclineButtonText: 'Odrzuć wszystkie',
  widgetFullConsentButtonText: 'Zaakceptuj wszystkie',
  widgetSettingsButtonText: 'Ustawienia',
  checkAllButtonText: 'Zaznacz wszystkie',
  uncheckAllButtonText: 'Odznacz wszystkie',
  imprint: 'Nota prawna',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Polityka prywatności',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Dostępność',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Zarządzanie zgodami',
  categoriesCancelButtonText: 'Wstecz',
  categoriesFullConsentButtonText: 'Zaakceptuj wszystkie',
  categoriesSaveButtonText: 'Zapisz wybór',
  detailsTitle: 'Szczegóły usług',
  detailsCloseButtonText: 'Zamknij',
  embeddingVendorLabel: 'Dostawca',
  embeddingDescriptionLabel: 'Opis',
  embeddingPrivacyPolicyUrlLabel: 'Polityka prywatności dostawcy',
  embeddingLifetimeLabel: 'Okres przechowywania',
  embeddingWhichDataIsCollectedLabel: 'Zbierane dane',
  embeddingPurposeOfDataCollectionLabel: 'Cel przetwarzania',
  embeddingLegalBasisLabel: 'Podstawa prawna',
  embeddingPlaceOfProcessingLabel: 'Miejsce przetwarzania',
  embeddingAssetNameLabel: 'Nazwa',
  embeddingAssetLifetimeLabel: 'Wygaśnięcie',
  embeddingAssetDescriptionLabel: 'Opis',
  blockedContentTitle: 'Zablokowana treść',
  blockedContentDisclaimer:
    'Ta treść pochodzi z usługi zewnętrznej. Po jej załadowaniu Państwa adres IP i ewentualnie inne dane zostaną przekazane dostawcy, który może również zapisywać pliki cookie.',
  blockedContentConsentButtonText: 'Załaduj treść',
  blockedContentConsentSwitchShowExternalContent: 'Zawsze pokazuj treści zewnętrzne',
  blockedContentConsentSwitchAllowEmbedding: 'Zawsze zezwalaj na tę usługę',
  blockedContentConsentSwitchProviderDetails: 'Szczegóły dostawcy',
  changeConsentText: 'Zmień ustawienia plików cookie',
  moreInformationLabel: 'Więcej informacji',
  questionMarkButtonText: 'Szczegóły',
  tcfVendorIntroText:
    'Współpracujemy z wymienionymi tutaj partnerami. Mogą oni przechowywać informacje na Państwa urządzeniu lub uzyskiwać do nich dostęp oraz przetwarzać dane osobowe w podanych celach. Niektórzy partnerzy zamiast na zgodę powołują się na prawnie uzasadniony interes; mogą Państwo wnieść tutaj sprzeciw.',
  tcfPurposeLabel: 'Cele',
  tcfSpecialPurposeLabel: 'Cele specjalne',
  tcfFeaturesLabel: 'Funkcje',
  tcfSpecialFeaturesLabel: 'Funkcje specjalne',
  tcfOptedInRemark: 'Tylko za Państwa wyraźną zgodą',
  tcfThirdPartiesLabel: 'Dostawcy zewnętrzni',
  nonTcfPurposesLabel: 'Inne cele',
  nonTcfVendorsLabel: 'Inni dostawcy',
  tcfVendorUsesNonCookieStorageText:
    'Ten dostawca korzysta również z innych metod przechowywania danych, np. z pamięci lokalnej przeglądarki.',
  tcfSpecialFeaturesHandledGloballyText:
    'Funkcje specjalne dotyczą wszystkich dostawców i można na nie zezwolić lub je odrzucić tylko łącznie dla wszystkich.',
  tcfStacksListText: 'Obejmuje to następujące cele:',
  tcfCookieRefreshText: 'Okres przechowywania może rozpoczynać się od nowa przy każdej wizycie.',
  tcfExtendedDisclosureText: 'Szczegółowe informacje o przechowywaniu i dostępie',
  tcfAssetTypeLabel: 'Typ',
  tcfAssetPurposesLabel: 'Cele',
  purposeNames: {
    '41ba25c': 'Technicznie niezbędne',
    'cdcbd7c': 'Marketing',
    'a717ff5': 'Analityka',
    '7c19e32': 'Personalizacja',
    '6cd2721': 'Media społecznościowe',
    '15c61c3': 'Inne',
  },
  purposeDescriptions: {
    '41ba25c':
      'Potrzebne do podstawowych funkcji, takich jak nawigacja, bezpieczeństwo i zapisanie Państwa ustawień prywatności. Nie można ich wyłączyć.',
    'cdcbd7c':
      'Służy do wyświetlania reklam dopasowanych do Państwa zainteresowań i mierzenia skuteczności kampanii, także na innych stronach.',
    'a717ff5':
      'Pomaga nam zrozumieć, jak odwiedzający korzystają ze strony, np. które podstrony są najczęściej oglądane, abyśmy mogli ją ulepszać.',
    '7c19e32':
      'Zapamiętuje Państwa preferencje i wybory, aby dopasować do nich treści i funkcje.',
    '6cd2721':
      'Umożliwia osadzanie i udostępnianie treści z serwisów społecznościowych. Serwisy te mogą wykorzystywać dane również do własnych celów.',
    '15c61c3':
      'Usługi, które nie pasują do żadnej z pozostałych kategorii. Szczegóły każdej usługi znajdują się w ustawieniach.',
  },
};
