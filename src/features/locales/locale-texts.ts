import {
  BUILTIN_TEXTS,
  LOCALE_TEXT_FIELDS,
  PURPOSE_IDS,
  type BuiltinLanguage,
  type LocaleTexts,
  type PurposeId,
} from './builtin-texts.js';

export interface StoredTexts {
  texts: Partial<Record<string, string>>;
  purposeNames: Partial<Record<PurposeId, string>>;
  purposeDescriptions: Partial<Record<PurposeId, string>>;
}

/** `de_DE` → `de`; the language whose built-in texts back a locale. */
export function languageOf(localeName: string): string {
  return localeName.split('_')[0]!.toLowerCase();
}

export function builtinFor(localeName: string): LocaleTexts | undefined {
  const lang = languageOf(localeName);
  return lang in BUILTIN_TEXTS ? BUILTIN_TEXTS[lang as BuiltinLanguage] : undefined;
}

/**
 * The texts a visitor sees: each field a locale leaves empty falls back to Placet's built-in text of the
 * locale's language, then to English. Site-specific fields (URLs, HTML) have no built-in value and stay
 * empty unless set.
 */
export function effectiveTexts(localeName: string, stored: StoredTexts | undefined): LocaleTexts {
  const own = builtinFor(localeName);
  const en = BUILTIN_TEXTS.en;
  const pick = (value: string | undefined, ...fallbacks: (string | undefined)[]) =>
    [value, ...fallbacks].find((v) => v !== undefined && v !== '') ?? '';
  const texts = Object.fromEntries(
    LOCALE_TEXT_FIELDS.map((f) => [f, pick(stored?.texts[f], own?.[f], en[f])]),
  ) as Record<(typeof LOCALE_TEXT_FIELDS)[number], string>;
  const purposes = (key: 'purposeNames' | 'purposeDescriptions') =>
    Object.fromEntries(PURPOSE_IDS.map((id) => [id, pick(stored?.[key][id], own?.[key][id], en[key][id])])) as Record<
      PurposeId,
      string
    >;
  return { ...texts, purposeNames: purposes('purposeNames'), purposeDescriptions: purposes('purposeDescriptions') };
}
