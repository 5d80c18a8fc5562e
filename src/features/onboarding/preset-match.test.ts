import { describe, expect, it } from 'vitest';
import { presetCatalogue } from './preset-catalogue.js';
import { wildcardTest } from './preset-match.js';

const { matcher } = presetCatalogue();
const none = { cookie: [], localStorage: [], sessionStorage: [], scripts: [], iframes: [] };
const ids = (found: { preset: { id: number } }[]) => found.map((m) => m.preset.id);

describe('preset matching', () => {
  it('matches * anywhere in a name and nothing else', () => {
    expect(wildcardTest('_pk_id.*')('_pk_id.1.abcd')).toBe(true);
    expect(wildcardTest('_pk_id.*')('x_pk_id.1')).toBe(false);
    expect(wildcardTest('mp_*_mixpanel')('mp_abc_mixpanel')).toBe(true);
    expect(wildcardTest('optimizely_data$$*')('optimizely_data$$x')).toBe(true);
    expect(wildcardTest('_ga')('_gat')).toBe(false);
  });

  it('matches cookie and storage names within their storage type only', () => {
    expect(ids(matcher.matchAll({ ...none, cookie: ['_ga', 'PHPSESSID'] }))).toEqual([1, 123]);
    expect(ids(matcher.matchAll({ ...none, cookie: ['plausible_ignore'] }))).toEqual([]);
    expect(ids(matcher.matchAll({ ...none, localStorage: ['plausible_ignore'] }))).toEqual([6]);
  });

  it('matches script and iframe URLs by marker, case-insensitively, and inline code', () => {
    const found = matcher.matchAll({
      ...none,
      scripts: ['https://www.googletagmanager.com/gtag/js?id=G-ABC123'],
      iframes: ['https://www.YouTube.com/embed/xyz'],
      inlineScripts: ["_paq.push(['trackPageView']);"],
    });
    expect(ids(found)).toEqual(expect.arrayContaining([1, 3, 67]));
    expect(found.find((m) => m.preset.id === 67)!.evidence).toEqual([
      { type: 'iframe', value: 'https://www.YouTube.com/embed/xyz', pattern: 'youtube.com/embed' },
    ]);
  });

  it('picks the most specific preset for one name: exact before wildcard, then the longer pattern', () => {
    expect(matcher.bestFor('_ga', 'cookie')?.id).toBe(1);
    expect(matcher.bestFor('_pk_id.1.ab', 'cookie')?.id).toBe(3);
    expect(matcher.bestFor('unknown_cookie', 'cookie')).toBeUndefined();
  });
});
