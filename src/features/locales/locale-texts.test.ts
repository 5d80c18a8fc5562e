import { describe, expect, it } from 'vitest';
import { BUILTIN_LANGUAGES, BUILTIN_TEXTS, HTML_TEXT_FIELDS, LOCALE_TEXT_FIELDS, PURPOSE_IDS } from './builtin-texts.js';
import { effectiveTexts } from './locale-texts.js';

const SITE_SPECIFIC = new Set(['imprintUrl', 'privacyPolicyUrl', 'accessibilityUrl', ...HTML_TEXT_FIELDS]);

describe('built-in texts', () => {
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
    const texts = effectiveTexts('sv_SE', { ...empty, purposeNames: { '41ba25c': 'Nödvändiga' } });
    expect(texts.widgetTitle).toBe(BUILTIN_TEXTS.en.widgetTitle);
    expect(texts.purposeNames['41ba25c']).toBe('Nödvändiga');
    expect(texts.purposeNames['cdcbd7c']).toBe(BUILTIN_TEXTS.en.purposeNames['cdcbd7c']);
  });

  it('treats an empty stored string as unset, and leaves site-specific fields empty', () => {
    const texts = effectiveTexts('fr', { ...empty, texts: { widgetTitle: '' } });
    expect(texts.widgetTitle).toBe(BUILTIN_TEXTS.fr.widgetTitle);
    expect(texts.imprintUrl).toBe('');
    expect(effectiveTexts('pl', undefined).categoriesSaveButtonText).toBe(BUILTIN_TEXTS.pl.categoriesSaveButtonText);
  });
});
