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

/** The agency's standard texts by language (`de`, `en`, …; docs/account.md). */
export type StandardTexts = ReadonlyMap<string, StoredTexts>;

/**
 * The texts a visitor sees: each field a locale leaves empty falls back to the agency's standard text of the
 * locale's language, then Placet's built-in text of that language, then the agency's English standard text,
 * then Placet's English. A domain's own text always wins (it is the domain's override). Site-specific fields
 * (URLs, HTML) have no built-in value and stay empty unless set (here or in the standard texts).
 */
export function effectiveTexts(localeName: string, stored: StoredTexts | undefined, standard?: StandardTexts): LocaleTexts {
  const own = builtinFor(localeName);
  const en = BUILTIN_TEXTS.en;
  const std = standard?.get(languageOf(localeName));
  const stdEn = standard?.get('en');
  const pick = (value: string | undefined, ...fallbacks: (string | undefined)[]) =>
    [value, ...fallbacks].find((v) => v !== undefined && v !== '') ?? '';
  const texts = Object.fromEntries(
    LOCALE_TEXT_FIELDS.map((f) => [f, pick(stored?.texts[f], std?.texts[f], own?.[f], stdEn?.texts[f], en[f])]),
  ) as Record<(typeof LOCALE_TEXT_FIELDS)[number], string>;
  const purposes = (key: 'purposeNames' | 'purposeDescriptions') =>
    Object.fromEntries(
      PURPOSE_IDS.map((id) => [id, pick(stored?.[key][id], std?.[key][id], own?.[key][id], stdEn?.[key][id], en[key][id])]),
    ) as Record<
      PurposeId,
      string
    >;
  return { ...texts, purposeNames: purposes('purposeNames'), purposeDescriptions: purposes('purposeDescriptions') };
}
