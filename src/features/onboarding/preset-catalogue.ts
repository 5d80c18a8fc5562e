import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { STORAGE_TYPES } from '../assets/assets.schemas.js';
import type { GOOGLE_CONSENT_TYPES } from '../embeddings/embeddings.schemas.js';
import type { PurposeId } from '../locales/builtin-texts.js';
import { compilePresetMatcher, type PresetMatcher } from './preset-match.js';

/** Text in several languages; `en` and `de` always exist (the catalogue test enforces it). */
export type LocalizedText = { en: string; de: string } & Record<string, string>;

export interface PresetAsset {
  name: string;
  storageType: (typeof STORAGE_TYPES)[number];
  dynamic: boolean;
  lifetime: LocalizedText;
  description: LocalizedText;
}

export interface PresetTexts {
  name: string;
  description: string;
  whatDataIsCollected: string;
  purposeOfDataCollection: string;
  legalBasis: string;
  placeOfProcessing: string;
}

/** One entry of `data/presets.json`: a known service that onboarding can turn into an embedding. */
export interface Preset {
  id: number;
  name: string;
  vendor: string;
  purpose: PurposeId;
  privacyPolicyUrl: string;
  /** Lower-case substrings of script URLs (or inline code) that identify the service. */
  scriptMarkers: string[];
  iframeMarkers: string[];
  googleConsentMode: (typeof GOOGLE_CONSENT_TYPES)[number][];
  assets: PresetAsset[];
  texts: { en: PresetTexts; de: PresetTexts } & Record<string, PresetTexts>;
}

export interface PresetCatalogue {
  readonly presets: readonly Preset[];
  readonly byId: ReadonlyMap<number, Preset>;
  readonly matcher: PresetMatcher;
}

/** The folder holding package.json: the project root from `src/` (tsx, vitest) and from `dist/src/` (tsc). */
export function projectRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const catalogueFile = () => path.join(projectRoot(), 'data', 'presets.json');

export function buildCatalogue(presets: readonly Preset[]): PresetCatalogue {
  return {
    presets,
    byId: new Map(presets.map((p) => [p.id, p])),
    matcher: compilePresetMatcher(presets),
  };
}

let cached: PresetCatalogue | undefined;

/** The shipped catalogue, read once at first use (about 0.5 MB; its shape is checked by the catalogue test). */
export function presetCatalogue(): PresetCatalogue {
  if (!cached) {
    const data: unknown = JSON.parse(readFileSync(catalogueFile(), 'utf8'));
    if (!Array.isArray(data)) throw new Error('data/presets.json must hold an array');
    cached = buildCatalogue(data as Preset[]);
  }
  return cached;
}

/**
 * Catalogue locale keys (`en`, `de`, `fr`, or already `de_AT`) → locale names as used by embedding
 * translations. English is the embeddings' default language and has no key of its own there.
 */
const LOCALE_NAMES: Record<string, string> = {
  en: 'en_US', de: 'de_DE', fr: 'fr_FR', es: 'es_ES', it: 'it_IT', nl: 'nl_NL', pl: 'pl_PL', pt: 'pt_PT',
  cs: 'cs_CZ', da: 'da_DK', sv: 'sv_SE', fi: 'fi_FI', nb: 'nb_NO', ru: 'ru_RU',
};
export const localeName = (key: string): string => LOCALE_NAMES[key] ?? key;

/** `{ en_US: {name, description}, de_DE: {…}, … }` as listed in a scan's `availablePresets`. */
export function presetTranslations(preset: Preset): Record<string, { name: string; description: string }> {
  return Object.fromEntries(
    Object.entries(preset.texts).map(([key, t]) => [localeName(key), { name: t.name, description: t.description }]),
  );
}
