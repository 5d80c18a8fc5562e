import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const bg: LocaleTexts = {
  widgetTitle: 'Настройки за поверителност',
  widgetIntroText:
    'На този уебсайт използваме бисквитки и подобни технологии. Някои от тях са необходими, за да работи сайтът. Други ни помагат да анализираме как се използва сайтът, да персонализираме съдържанието или да вграждаме външни услуги; използваме ги само с Вашето съгласие. Можете да промените или оттеглите съгласието си по всяко време в настройките. Подробности ще намерите в настройките и в нашата политика за поверителност.',
  widgetDeclineButtonText: 'Отхвърляне на всички',
  widgetFullConsentButtonText: 'Приемане на всички',
  widgetSettingsButtonText: 'Настройки',
  checkAllButtonText: 'Избиране на всички',
  uncheckAllButtonText: 'Премахване на избора',
  imprint: 'Правна информация',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Политика за поверителност',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Достъпност',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Изберете какво разрешавате',
  categoriesCancelButtonText: 'Назад',
  categoriesFullConsentButtonText: 'Приемане на всички',
  categoriesSaveButtonText: 'Запазване на избора',
  detailsTitle: 'Подробности за услугите',
  detailsCloseButtonText: 'Затваряне',
  embeddingVendorLabel: 'Доставчик',
  embeddingDescriptionLabel: 'Описание',
  embeddingPrivacyPolicyUrlLabel: 'Политика за поверителност на доставчика',
  embeddingLifetimeLabel: 'Срок на съхранение',
  embeddingWhichDataIsCollectedLabel: 'Събирани данни',
  embeddingPurposeOfDataCollectionLabel: 'Цел на обработването',
  embeddingLegalBasisLabel: 'Правно основание',
  embeddingPlaceOfProcessingLabel: 'Място на обработване',
  embeddingAssetNameLabel: 'Име',
  embeddingAssetLifetimeLabel: 'Валидност',
  embeddingAssetDescriptionLabel: 'Описание',
  blockedContentTitle: 'Блокирано съдържание',
  blockedContentDisclaimer:
    'Това съдържание се предоставя от външна услуга. Ако го заредите, Вашият IP адрес и евентуално други данни ще бъдат предадени на доставчика, който може също да постави бисквитки.',
  blockedContentConsentButtonText: 'Зареждане на съдържанието',
  blockedContentConsentSwitchShowExternalContent: 'Винаги показвай външно съдържание',
  blockedContentConsentSwitchAllowEmbedding: 'Винаги разрешавай тази услуга',
  blockedContentConsentSwitchProviderDetails: 'Данни за доставчика',
  changeConsentText: 'Промяна на настройките за бисквитки',
  moreInformationLabel: 'Повече информация',
  questionMarkButtonText: 'Подробности',
  languageLabel: 'Език',
  tcfVendorIntroText:
    'Работим с посочените тук партньори. Те могат да съхраняват информация на Вашето устройство или да имат достъп до нея и да обработват лични данни за показаните цели. Някои партньори се позовават на законен интерес вместо на съгласие; тук можете да възразите срещу това.',
  tcfPurposeLabel: 'Цели',
  tcfSpecialPurposeLabel: 'Специални цели',
  tcfFeaturesLabel: 'Функции',
  tcfSpecialFeaturesLabel: 'Специални функции',
  tcfOptedInRemark: 'Само с Вашето изрично съгласие',
  tcfThirdPartiesLabel: 'Доставчици – трети страни',
  nonTcfPurposesLabel: 'Други цели',
  nonTcfVendorsLabel: 'Други доставчици',
  tcfVendorUsesNonCookieStorageText:
    'Този доставчик използва и други методи за съхранение, например локалното хранилище на Вашия браузър.',
  tcfSpecialFeaturesHandledGloballyText:
    'Специалните функции се отнасят за всички доставчици и могат да бъдат разрешени или отказани само за всички заедно.',
  tcfStacksListText: 'Това включва следните цели:',
  tcfCookieRefreshText: 'Срокът на съхранение може да започне отначало при всяко Ваше посещение.',
  tcfExtendedDisclosureText: 'Подробна информация за съхранението и достъпа',
  tcfAssetTypeLabel: 'Вид',
  tcfAssetPurposesLabel: 'Цели',
  purposeNames: {
    '41ba25c': 'Технически необходими',
    'cdcbd7c': 'Маркетинг',
    'a717ff5': 'Анализ',
    '7c19e32': 'Персонализация',
    '6cd2721': 'Социални мрежи',
    '15c61c3': 'Други',
  },
  purposeDescriptions: {
    '41ba25c':
      'Нужни са за основни функции като навигация в сайта, сигурност и запазване на Вашите настройки за поверителност. Не могат да бъдат изключени.',
    'cdcbd7c':
      'Използват се за показване на реклами според Вашите интереси и за измерване на ефективността на кампаниите, включително на други уебсайтове.',
    'a717ff5':
      'Помагат ни да разберем как посетителите използват уебсайта, например кои страници се разглеждат най-често, за да можем да го подобряваме.',
    '7c19e32':
      'Запомнят Вашите предпочитания и избори, за да бъдат съдържанието и функциите съобразени с Вас.',
    '6cd2721':
      'Позволяват вграждане и споделяне на съдържание от социални мрежи. Мрежите могат да използват данните и за собствени цели.',
    '15c61c3':
      'Услуги, които не попадат в никоя от другите категории. Подробности за всяка услуга ще намерите в настройките.',
  },
};
