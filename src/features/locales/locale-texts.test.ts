import { describe, expect, it } from 'vitest';
import {
  BUILTIN_LANGUAGES,
  BUILTIN_TEXTS,
  HTML_TEXT_FIELDS,
  LOCALE_TEXT_FIELDS,
  MACHINE_ASSISTED_LANGUAGES,
  PURPOSE_IDS,
} from './builtin-texts.js';
import { effectiveTexts } from './locale-texts.js';

const SITE_SPECIFIC = new Set(['imprintUrl', 'privacyPolicyUrl', 'accessibilityUrl', ...HTML_TEXT_FIELDS]);

/**
 * Words that are the same in English and in other languages by nature (loanwords and cognates that sites in
 * those languages really use), so a field equal to the English text is no sign of a forgotten translation.
 */
const SAME_AS_ENGLISH = new Set(['Marketing', 'Name', 'Details', 'Description', 'Type', 'Social media']);

describe('built-in texts', () => {
  it('cover the 24 official EU languages', () => {
    const eu = ['bg', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'ga', 'it', 'lv', 'lt', 'mt', 'pl', 'pt', 'ro', 'sk', 'sl', 'es', 'sv'];
    expect([...BUILTIN_LANGUAGES].sort()).toEqual(eu.sort());
    expect(BUILTIN_LANGUAGES[0]).toBe('en');
    for (const l of MACHINE_ASSISTED_LANGUAGES) expect(BUILTIN_LANGUAGES).toContain(l);
  });

  it.each(BUILTIN_LANGUAGES.filter((l) => l !== 'en'))('%s leaves no field in English', (lang) => {
    const en = BUILTIN_TEXTS.en;
    const texts = BUILTIN_TEXTS[lang];
    const english: string[] = [];
    for (const f of LOCALE_TEXT_FIELDS) {
      if (en[f] !== '' && texts[f] === en[f] && !SAME_AS_ENGLISH.has(en[f])) english.push(f);
    }
    for (const key of ['purposeNames', 'purposeDescriptions'] as const) {
      for (const id of PURPOSE_IDS) {
        if (texts[key][id] === en[key][id] && !SAME_AS_ENGLISH.has(en[key][id])) english.push(`${key}.${id}`);
      }
    }
    expect(english).toEqual([]);
  });

  it.each(BUILTIN_LANGUAGES)('%s is complete', (lang) => {
    const texts = BUILTIN_TEXTS[lang];
    for (const f of LOCALE_TEXT_FIELDS) {
      if (SITE_SPECIFIC.has(f)) expect(texts[f], f).toBe('');
      else expect(texts[f].trim().length, `${lang}.${f}`).toBeGreaterThan(0);
    }
    for (const id of PURPOSE_IDS) {
      expect(texts.purposeNames[id].length).toBeGreaterThan(0);
      expect(texts.purposeDescriptions[id].length).toBeGreaterThan(0);
    }
  });

  it('differ between languages (they are translations, not copies)', () => {
    const titles = new Set(BUILTIN_LANGUAGES.map((l) => BUILTIN_TEXTS[l].widgetIntroText));
    expect(titles.size).toBe(BUILTIN_LANGUAGES.length);
  });
});

describe('effectiveTexts', () => {
  const empty = { texts: {}, purposeNames: {}, purposeDescriptions: {} };

  it('uses a stored field, else the built-in text of the locale\'s language', () => {
    const texts = effectiveTexts('de_DE', { ...empty, texts: { widgetTitle: 'Eigener Titel' } });
    expect(texts.widgetTitle).toBe('Eigener Titel');
    expect(texts.widgetIntroText).toBe(BUILTIN_TEXTS.de.widgetIntroText);
    expect(texts.purposeNames['a717ff5']).toBe(BUILTIN_TEXTS.de.purposeNames['a717ff5']);
  });

  it('falls back to English for a language without built-in texts', () => {
    const texts = effectiveTexts('nb_NO', { ...empty, purposeNames: { '41ba25c': 'Nødvendige' } });
    expect(texts.widgetTitle).toBe(BUILTIN_TEXTS.en.widgetTitle);
    expect(texts.purposeNames['41ba25c']).toBe('Nødvendige');
    expect(texts.purposeNames['cdcbd7c']).toBe(BUILTIN_TEXTS.en.purposeNames['cdcbd7c']);
  });

  it('treats an empty stored string as unset, and leaves site-specific fields empty', () => {
    const texts = effectiveTexts('fr', { ...empty, texts: { widgetTitle: '' } });
    expect(texts.widgetTitle).toBe(BUILTIN_TEXTS.fr.widgetTitle);
    expect(texts.imprintUrl).toBe('');
    expect(effectiveTexts('pl', undefined).categoriesSaveButtonText).toBe(BUILTIN_TEXTS.pl.categoriesSaveButtonText);
  });
});
