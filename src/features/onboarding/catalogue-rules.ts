import { MAX_ASSETS_PER_EMBEDDING, STORAGE_TYPES } from '../assets/assets.schemas.js';
import { GOOGLE_CONSENT_TYPES } from '../embeddings/embeddings.schemas.js';
import { PURPOSE_IDS } from '../locales/builtin-texts.js';

/**
 * The rules of `data/presets.json` (the same as the dependency-free `scripts/check-presets.mjs`, which
 * CI can run before `npm install`). Used by the catalogue test and by the Open Cookie Database importer,
 * which refuses to write a catalogue that breaks them.
 */
export const CATALOGUE_LIMITS = {
  /**
   * `markers` was 10 until 2026-11-26: Google Ads Conversion Tracking needs 16, its four addresses and one inline
   * marker per quoting style of `'config', 'AW-…'`, `'send_to': 'AW-…'` and the unquoted key `send_to: 'AW-…'`
   * (a marker is a plain substring). 40 since 2026-11-28: Facebook Social Plugins names the SDK's address once per
   * locale of the EU, the EEA and their neighbours (32; `connect.facebook.net/<locale>/sdk`), since a marker cannot
   * say "any locale" and a bare `/sdk.js` would claim other vendors' and sites' own scripts. An embedding may hold
   * 100 (embeddings.schemas.ts).
   */
  name: 100, vendor: 300, url: 500, markers: 40, markerLength: 200,
  assets: MAX_ASSETS_PER_EMBEDDING, assetName: 200, text: 1000, localizedShort: 300,
  /** Characters other than `*` a wildcard name needs, so that `a*` cannot claim half the web's cookies. */
  wildcardLiteral: 3,
} as const;

const ENTRY_KEYS = ['id', 'name', 'vendor', 'purpose', 'privacyPolicyUrl', 'scriptMarkers',
  'iframeMarkers', 'googleConsentMode', 'assets', 'texts'];
const ASSET_KEYS = ['name', 'storageType', 'dynamic', 'lifetime', 'description'];
export const TEXT_KEYS = ['name', 'description', 'whatDataIsCollected', 'purposeOfDataCollection',
  'legalBasis', 'placeOfProcessing'] as const;
const REQUIRED_LOCALES = ['en', 'de'];
const LOCALE_RE = /^[a-z]{2}(_[A-Z]{2})?$/;
const HTML_RE = /<\/?[a-z!][^>]*>|&lt;\/?[a-z]/i;
const M = CATALOGUE_LIMITS;

export interface CatalogueReport {
  problems: string[];
  /** Exact asset names claimed by several presets: allowed, but onboarding then picks one. */
  warnings: string[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** File-level rules: UTF-8 without BOM, formatted as `JSON.stringify(data, null, 2)`. */
export function catalogueFileProblems(text: string): string[] {
  const problems: string[] = [];
  if (text.charCodeAt(0) === 0xfeff) problems.push('file starts with a byte order mark (BOM)');
  const body = text.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (err) {
    return [...problems, `not valid JSON: ${(err as Error).message}`];
  }
  if (body.replace(/\n$/, '') !== JSON.stringify(data, null, 2)) {
    problems.push('file is not formatted as JSON with 2-space indentation (JSON.stringify(data, null, 2))');
  }
  return problems;
}

export function checkCatalogue(data: unknown): CatalogueReport {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!Array.isArray(data)) return { problems: ['the top level must be a JSON array'], warnings };

  const exactKeys = (obj: Obj, keys: readonly string[], where: string) => {
    for (const k of keys) if (!(k in obj)) problems.push(`${where}: missing key "${k}"`);
    for (const k of Object.keys(obj)) if (!keys.includes(k)) problems.push(`${where}: unexpected key "${k}"`);
  };
  const string = (value: unknown, where: string, max: number): value is string => {
    if (!isNonEmptyString(value)) {
      problems.push(`${where}: must be a non-empty string`);
      return false;
    }
    if (value !== value.trim()) problems.push(`${where}: has leading or trailing whitespace`);
    if (value.length > max) problems.push(`${where}: ${value.length} characters, at most ${max} allowed`);
    return true;
  };
  const plain = (value: unknown, where: string, max: number) => {
    if (string(value, where, max) && HTML_RE.test(value)) problems.push(`${where}: must be plain text (no HTML)`);
  };
  const httpsUrl = (value: unknown, where: string) => {
    if (!string(value, where, M.url)) return;
    if (!value.startsWith('https://')) return problems.push(`${where}: must start with https://`);
    if (!URL.canParse(value)) problems.push(`${where}: not a valid URL`);
  };
  const markers = (value: unknown, where: string) => {
    if (!Array.isArray(value)) return problems.push(`${where}: must be an array`);
    if (value.length > M.markers) problems.push(`${where}: ${value.length} markers, at most ${M.markers} allowed`);
    const seen = new Set<string>();
    value.forEach((m: unknown, i) => {
      const w = `${where}[${i}]`;
      if (!string(m, w, M.markerLength)) return;
      if (m !== m.toLowerCase()) problems.push(`${w}: "${m}" must be lowercase`);
      if (/^https?:\/\//i.test(m)) problems.push(`${w}: "${m}" should be a host/path substring without scheme`);
      if (seen.has(m)) problems.push(`${w}: duplicate marker "${m}"`);
      seen.add(m);
    });
  };
  const localized = (value: unknown, where: string, max: number) => {
    if (!isObject(value)) return problems.push(`${where}: must be an object with "en" and "de"`);
    for (const loc of REQUIRED_LOCALES) if (!(loc in value)) problems.push(`${where}: missing "${loc}"`);
    for (const [loc, text] of Object.entries(value)) {
      if (!LOCALE_RE.test(loc)) problems.push(`${where}: invalid locale key "${loc}"`);
      plain(text, `${where}.${loc}`, max);
    }
  };
  const texts = (value: unknown, where: string) => {
    if (!isObject(value)) return problems.push(`${where}: must be an object with "en" and "de"`);
    for (const loc of REQUIRED_LOCALES) if (!(loc in value)) problems.push(`${where}: missing locale "${loc}"`);
    for (const [loc, t] of Object.entries(value)) {
      const w = `${where}.${loc}`;
      if (!LOCALE_RE.test(loc)) problems.push(`${where}: invalid locale key "${loc}"`);
      if (!isObject(t)) {
        problems.push(`${w}: must be an object`);
        continue;
      }
      exactKeys(t, TEXT_KEYS, w);
      for (const k of TEXT_KEYS) if (k in t) plain(t[k], `${w}.${k}`, k === 'name' ? M.name : M.text);
    }
  };

  const ids = new Map<number, number>();
  const names = new Map<string, number>();
  const owners = new Map<string, string[]>();
  data.forEach((entry: unknown, index) => {
    const where = `entry #${index} (id ${isObject(entry) ? String(entry.id) : '?'}${
      isObject(entry) && typeof entry.name === 'string' ? ` "${entry.name}"` : ''})`;
    if (!isObject(entry)) return problems.push(`${where}: must be an object`);
    exactKeys(entry, ENTRY_KEYS, where);
    const id = entry.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) problems.push(`${where}.id: must be a positive integer`);
    else if (ids.has(id)) problems.push(`${where}.id: ${id} is already used by entry #${ids.get(id)}`);
    else ids.set(id, index);
    if (string(entry.name, `${where}.name`, M.name)) {
      const key = entry.name.trim().toLowerCase();
      if (names.has(key)) problems.push(`${where}.name: "${entry.name}" is already used by entry #${names.get(key)}`);
      else names.set(key, index);
    }
    string(entry.vendor, `${where}.vendor`, M.vendor);
    if (!(PURPOSE_IDS as readonly unknown[]).includes(entry.purpose)) {
      problems.push(`${where}.purpose: "${String(entry.purpose)}" is not one of ${PURPOSE_IDS.join(', ')}`);
    }
    httpsUrl(entry.privacyPolicyUrl, `${where}.privacyPolicyUrl`);
    markers(entry.scriptMarkers, `${where}.scriptMarkers`);
    markers(entry.iframeMarkers, `${where}.iframeMarkers`);
    if (!Array.isArray(entry.googleConsentMode)) {
      problems.push(`${where}.googleConsentMode: must be an array`);
    } else {
      const seen = new Set<unknown>();
      for (const t of entry.googleConsentMode as unknown[]) {
        if (!(GOOGLE_CONSENT_TYPES as readonly unknown[]).includes(t)) {
          problems.push(`${where}.googleConsentMode: "${String(t)}" is not a Consent Mode type`);
        }
        if (seen.has(t)) problems.push(`${where}.googleConsentMode: duplicate "${String(t)}"`);
        seen.add(t);
      }
    }
    if (!Array.isArray(entry.assets)) {
      problems.push(`${where}.assets: must be an array`);
    } else {
      if (entry.assets.length > M.assets) problems.push(`${where}.assets: ${entry.assets.length} assets, at most ${M.assets} allowed`);
      const local = new Set<string>();
      entry.assets.forEach((asset: unknown, i) => {
        const w = `${where}.assets[${i}]`;
        if (!isObject(asset)) return problems.push(`${w}: must be an object`);
        exactKeys(asset, ASSET_KEYS, w);
        const nameOk = string(asset.name, `${w}.name`, M.assetName);
        if (!(STORAGE_TYPES as readonly unknown[]).includes(asset.storageType)) {
          problems.push(`${w}.storageType: "${String(asset.storageType)}" is not one of ${STORAGE_TYPES.join(', ')}`);
        }
        if (typeof asset.dynamic !== 'boolean') problems.push(`${w}.dynamic: must be a boolean`);
        localized(asset.lifetime, `${w}.lifetime`, M.localizedShort);
        localized(asset.description, `${w}.description`, M.text);
        if (!nameOk || typeof asset.dynamic !== 'boolean') return;
        const name = asset.name as string;
        const wildcard = name.includes('*');
        if (wildcard && !asset.dynamic) problems.push(`${w}: "${name}" contains * so dynamic must be true`);
        if (!wildcard && asset.dynamic) problems.push(`${w}: "${name}" has no * so dynamic must be false`);
        if (wildcard && name.replace(/\*/g, '').length < M.wildcardLiteral) {
          problems.push(`${w}: "${name}" needs at least ${M.wildcardLiteral} characters besides *`);
        }
        const key = `${String(asset.storageType)} ${name}`;
        if (local.has(key)) problems.push(`${w}: duplicate ${String(asset.storageType)} "${name}"`);
        local.add(key);
        if (!wildcard && typeof entry.name === 'string') {
          const list = owners.get(key) ?? [];
          if (!list.includes(entry.name)) list.push(entry.name);
          owners.set(key, list);
        }
      });
    }
    texts(entry.texts, `${where}.texts`);
  });
  for (const [key, list] of owners) {
    if (list.length > 1) warnings.push(`asset ${key} appears in several presets: ${list.join(', ')}`);
  }
  return { problems, warnings };
}
