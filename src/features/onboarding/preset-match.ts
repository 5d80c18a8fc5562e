import type { Preset } from './preset-catalogue.js';

export type EvidenceType = 'cookie' | 'localStorage' | 'sessionStorage' | 'script' | 'iframe';
export type NamedStorage = 'cookie' | 'localStorage' | 'sessionStorage';

/** What a scan saw: storage names, and URLs (plus inline code) of scripts and iframes. */
export interface Observed {
  readonly cookie: readonly string[];
  readonly localStorage: readonly string[];
  readonly sessionStorage: readonly string[];
  readonly scripts: readonly string[];
  readonly iframes: readonly string[];
  /** Inline script code, matched against script markers such as `_paq.push`. */
  readonly inlineScripts?: readonly string[];
}

export interface Evidence {
  readonly type: EvidenceType;
  /** The cookie or key name, or the script/iframe URL (`inline` for inline code). */
  readonly value: string;
  /** The catalogue asset name or marker that matched. */
  readonly pattern: string;
}

export interface PresetMatch {
  readonly preset: Preset;
  readonly evidence: readonly Evidence[];
}

interface AssetPattern {
  readonly preset: Preset;
  readonly storageType: NamedStorage;
  readonly name: string;
  readonly test: (candidate: string) => boolean;
  /** Exact names beat wildcards; among wildcards the longer fixed part is the more specific. */
  readonly specificity: number;
}

export interface PresetMatcher {
  /** Every preset with at least one piece of evidence, in catalogue order. */
  matchAll(observed: Observed): PresetMatch[];
  /** The single most specific preset declaring this name, if any. */
  bestFor(name: string, storageType: NamedStorage): Preset | undefined;
}

/** `_pk_id.*` → a test for names such as `_pk_id.1.ab12`; `*` matches any run of characters. */
export function wildcardTest(pattern: string): (candidate: string) => boolean {
  if (!pattern.includes('*')) return (candidate) => candidate === pattern;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(`^${source}$`, 's');
  return (candidate) => re.test(candidate);
}

const NAMED: readonly NamedStorage[] = ['cookie', 'localStorage', 'sessionStorage'];
const isNamed = (t: string): t is NamedStorage => (NAMED as readonly string[]).includes(t);

export function compilePresetMatcher(presets: readonly Preset[]): PresetMatcher {
  const patterns: AssetPattern[] = presets.flatMap((preset) =>
    preset.assets.flatMap((a) =>
      isNamed(a.storageType)
        ? [{
            preset,
            storageType: a.storageType,
            name: a.name,
            test: wildcardTest(a.name),
            specificity: a.name.includes('*') ? a.name.replace(/\*/g, '').length : Number.MAX_SAFE_INTEGER,
          }]
        : [],
    ),
  );
  const exact = new Map<string, AssetPattern[]>();
  const wild: AssetPattern[] = [];
  for (const p of patterns) {
    if (p.name.includes('*')) wild.push(p);
    else exact.set(`${p.storageType} ${p.name}`, [...(exact.get(`${p.storageType} ${p.name}`) ?? []), p]);
  }
  const candidates = (name: string, storageType: NamedStorage): AssetPattern[] => [
    ...(exact.get(`${storageType} ${name}`) ?? []),
    ...wild.filter((p) => p.storageType === storageType && p.test(name)),
  ];

  return {
    matchAll(observed) {
      const found = new Map<number, Evidence[]>();
      const add = (preset: Preset, e: Evidence) => {
        const list = found.get(preset.id) ?? [];
        if (!list.some((x) => x.type === e.type && x.value === e.value)) list.push(e);
        found.set(preset.id, list);
      };
      for (const type of NAMED) {
        for (const name of new Set(observed[type])) {
          for (const p of candidates(name, type)) add(p.preset, { type, value: name, pattern: p.name });
        }
      }
      const byMarker = (type: 'script' | 'iframe', urls: readonly string[], markers: (p: Preset) => string[]) => {
        for (const url of new Set(urls)) {
          const lower = url.toLowerCase();
          for (const preset of presets) {
            const marker = markers(preset).find((m) => lower.includes(m));
            if (marker !== undefined) add(preset, { type, value: url, pattern: marker });
          }
        }
      };
      byMarker('script', observed.scripts, (p) => p.scriptMarkers);
      byMarker('iframe', observed.iframes, (p) => p.iframeMarkers);
      for (const code of observed.inlineScripts ?? []) {
        const lower = code.toLowerCase();
        for (const preset of presets) {
          const marker = preset.scriptMarkers.find((m) => lower.includes(m));
          if (marker !== undefined) add(preset, { type: 'script', value: 'inline', pattern: marker });
        }
      }
      return presets.filter((p) => found.has(p.id)).map((preset) => ({ preset, evidence: found.get(preset.id)! }));
    },

    bestFor(name, storageType) {
      const ranked = candidates(name, storageType).sort(
        (a, b) => b.specificity - a.specificity || a.preset.id - b.preset.id,
      );
      return ranked[0]?.preset;
    },
  };
}
