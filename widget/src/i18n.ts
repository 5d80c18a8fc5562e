/** Language: the locale shown to this visitor, and the texts of the UI and of each embedding in it. */
import type { EmbeddingConfig, LocaleBundle } from './types.js';
import { c, nav, S } from './state.js';
import type { T } from './text-fields.js';

/** The domain's locale for a language tag (`de-DE`, `de_DE`, `de`): the same name, else the same language. */
export const localeFor = (tag: string) => {
  const names = Object.keys(c.loc);
  const n = tag.replace('-', '_').toLowerCase();
  return names.find((x) => x.toLowerCase() == n) || names.find((x) => x.split('_')[0] == n.split('_')[0]);
};

export const pickLang = () => {
  if (c.fl && c.loc[c.fl]) return c.fl;
  for (const l of nav.languages || [nav.language]) {
    const hit = localeFor(l);
    if (hit) return hit;
  }
  return c.dl;
};

export const bundle = (): LocaleBundle => c.loc[S.lang] || c.loc[c.dl]!;

/** A text of the locale by its position (text-fields.ts). */
export const t = (k: T) => bundle().t[k] || '';

export const texts = (e: EmbeddingConfig) => bundle().e[e.i]!;
