import { presetCatalogue, presetTranslations, type Preset } from '../onboarding/preset-catalogue.js';
import type { PresetPage, PresetQueryInput, PresetSummary } from './presets.schemas.js';

/** Lower-cased text a search looks in, built once per preset. */
const haystacks = new WeakMap<Preset, string>();
function haystack(preset: Preset): string {
  let text = haystacks.get(preset);
  if (text === undefined) {
    const texts = Object.values(preset.texts).flatMap((t) => [t.name, t.description]);
    text = [preset.name, preset.vendor, ...texts, ...preset.assets.map((a) => a.name)].join('\n').toLowerCase();
    haystacks.set(preset, text);
  }
  return text;
}

/** One page of the shipped catalogue, in catalogue order, filtered by purpose and by every search word. */
export function browsePresets(query: PresetQueryInput): PresetPage {
  const { offset = 0, limit = 50 } = query;
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter((w) => w !== '');
  const matches = presetCatalogue().presets.filter(
    (p) => (query.purpose === undefined || p.purpose === query.purpose) && words.every((w) => haystack(p).includes(w)),
  );
  return {
    total: matches.length,
    offset,
    limit,
    items: matches.slice(offset, offset + limit).map(presetToSummary),
  };
}

function presetToSummary(preset: Preset): PresetSummary {
  return {
    id: preset.id,
    name: preset.name,
    purpose: preset.purpose,
    vendor: preset.vendor,
    privacyPolicyUrl: preset.privacyPolicyUrl,
    translations: presetTranslations(preset),
    assets: preset.assets.map((a) => ({ name: a.name, storageType: a.storageType, dynamic: a.dynamic })),
  };
}
