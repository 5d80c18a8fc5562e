import { sha256Hex } from '../../deps.js';

/**
 * Snapshots of what a visitor saw (docs/consent-log.md, "Snapshots"): the widget's configuration as
 * served, minus what is not shown and would only split identical configurations: the client's public key
 * (`k`), the consent URL (`u`), the revision counters (`r`, `lr`: the record carries them) and the hash itself
 * (`sh`), and what each delivery adds: the hourly widget token (`tk`) and blocked mode's reason (`bl`, under
 * which nothing is shown or recorded). Everything else stays: the texts of every locale served with their placeholders filled in,
 * purposes, embeddings with their names, descriptions, assets and code, legal links and legal HTML, the
 * theme (buttons, layout, colours, CSS), the language choice and the domain id (so a snapshot names its
 * domain and two domains never share a row).
 */
export const SNAPSHOT_EXCLUDED_KEYS = ['k', 'u', 'r', 'lr', 'sh', 'tk', 'bl'] as const;

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit at every level, arrays in order, no whitespace,
 * strings and numbers as JSON.stringify writes them, `undefined` members left out. Anyone can rebuild it.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export interface Snapshot {
  /** SHA-256 hex of `config`: the snapshot's key. */
  hash: string;
  /** Canonical JSON of the visible configuration. */
  config: string;
}

/** The snapshot of a served widget configuration. */
export function snapshotOf(widgetConfig: object): Snapshot {
  const visible: Record<string, unknown> = { ...widgetConfig };
  for (const key of SNAPSHOT_EXCLUDED_KEYS) delete visible[key];
  const config = canonicalJson(visible);
  return { hash: sha256Hex(config), config };
}
