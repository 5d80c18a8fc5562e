#!/usr/bin/env node
// Validates data/presets.json, Placet's catalogue of known services ("presets").
// The same rules, in TypeScript, are src/features/onboarding/catalogue-rules.ts (used by the tests and the
// importer): change both together.
// Dependency-free on purpose so it can run before `npm install` (e.g. as a CI pre-step).
// Usage: node scripts/check-presets.mjs [path/to/presets.json]
// Prints "presets: N entries OK", or every problem found and exits 1.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TextDecoder } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(process.argv[2] ?? resolve(here, '../data/presets.json'));

// The six fixed purpose ids (reference model, section 2.6).
const PURPOSES = new Set(['41ba25c', 'cdcbd7c', 'a717ff5', '7c19e32', '6cd2721', '15c61c3']);
const STORAGE_TYPES = new Set(['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other']);
const CONSENT_MODE_TYPES = new Set([
  'ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization',
  'functionality_storage', 'personalization_storage', 'security_storage',
]);
const ENTRY_KEYS = ['id', 'name', 'vendor', 'purpose', 'privacyPolicyUrl', 'scriptMarkers',
  'iframeMarkers', 'googleConsentMode', 'assets', 'texts'];
const ASSET_KEYS = ['name', 'storageType', 'dynamic', 'lifetime', 'description'];
const TEXT_KEYS = ['name', 'description', 'whatDataIsCollected', 'purposeOfDataCollection',
  'legalBasis', 'placeOfProcessing'];
const REQUIRED_LOCALES = ['en', 'de'];
const LOCALE_RE = /^[a-z]{2}(_[A-Z]{2})?$/;

const MAX = {
  // markers: 16 since 2026-11-26, for Google Ads' inline markers (one per quoting style of `config`, `send_to` and
  // the unquoted key `send_to:`); 40 since 2026-11-28, for the Facebook SDK's address in each European locale.
  name: 100, vendor: 300, url: 500, markers: 40, markerLength: 200,
  // assets: what one embedding may hold (MAX_ASSETS_PER_EMBEDDING); wildcardLiteral: characters besides *
  // a wildcard name needs, so that `a*` cannot claim half the web's cookies.
  assets: 200, assetName: 200, text: 1000, localizedShort: 300, wildcardLiteral: 3,
};
// Plain text only: anything that looks like a tag, comment or entity-encoded tag.
const HTML_RE = /<\/?[a-z!][^>]*>|&lt;\/?[a-z]/i;

const problems = [];
const warnings = [];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v) => typeof v === 'string' && v.trim().length > 0;

function checkExactKeys(obj, keys, where) {
  for (const k of keys) if (!(k in obj)) problems.push(`${where}: missing key "${k}"`);
  for (const k of Object.keys(obj)) if (!keys.includes(k)) problems.push(`${where}: unexpected key "${k}"`);
}

function checkString(value, where, max) {
  if (!isNonEmptyString(value)) {
    problems.push(`${where}: must be a non-empty string`);
    return false;
  }
  if (value !== value.trim()) problems.push(`${where}: has leading or trailing whitespace`);
  if (max && value.length > max) problems.push(`${where}: ${value.length} characters, at most ${max} allowed`);
  return true;
}

function checkHttpsUrl(value, where) {
  if (!checkString(value, where, MAX.url)) return;
  if (!value.startsWith('https://')) {
    problems.push(`${where}: must start with https://`);
    return;
  }
  try {
    new URL(value);
  } catch {
    problems.push(`${where}: not a valid URL`);
  }
}

function checkMarkers(value, where) {
  if (!Array.isArray(value)) {
    problems.push(`${where}: must be an array`);
    return;
  }
  if (value.length > MAX.markers) problems.push(`${where}: ${value.length} markers, at most ${MAX.markers} allowed`);
  const seen = new Set();
  value.forEach((m, i) => {
    const w = `${where}[${i}]`;
    if (!checkString(m, w, MAX.markerLength)) return;
    if (m !== m.toLowerCase()) problems.push(`${w}: "${m}" must be lowercase`);
    if (/^https?:\/\//i.test(m)) problems.push(`${w}: "${m}" should be a host/path substring without scheme`);
    if (seen.has(m)) problems.push(`${w}: duplicate marker "${m}"`);
    seen.add(m);
  });
}

// lifetime / description: { en: string, de: string, ...other locales }
function checkLocalized(value, where, max) {
  if (!isObject(value)) {
    problems.push(`${where}: must be an object with "en" and "de"`);
    return;
  }
  for (const loc of REQUIRED_LOCALES) if (!(loc in value)) problems.push(`${where}: missing "${loc}"`);
  for (const [loc, text] of Object.entries(value)) {
    if (!LOCALE_RE.test(loc)) problems.push(`${where}: invalid locale key "${loc}"`);
    if (checkString(text, `${where}.${loc}`, max) && HTML_RE.test(text)) {
      problems.push(`${where}.${loc}: must be plain text (no HTML)`);
    }
  }
}

function checkAsset(asset, where) {
  if (!isObject(asset)) {
    problems.push(`${where}: must be an object`);
    return null;
  }
  checkExactKeys(asset, ASSET_KEYS, where);
  const nameOk = checkString(asset.name, `${where}.name`, MAX.assetName);
  if (!STORAGE_TYPES.has(asset.storageType)) {
    problems.push(`${where}.storageType: "${asset.storageType}" is not one of ${[...STORAGE_TYPES].join(', ')}`);
  }
  if (typeof asset.dynamic !== 'boolean') {
    problems.push(`${where}.dynamic: must be a boolean`);
  } else if (nameOk) {
    const wildcard = asset.name.includes('*');
    if (wildcard && !asset.dynamic) problems.push(`${where}: "${asset.name}" contains * so dynamic must be true`);
    if (!wildcard && asset.dynamic) problems.push(`${where}: "${asset.name}" has no * so dynamic must be false`);
    if (wildcard && asset.name.replace(/\*/g, '').length < MAX.wildcardLiteral) {
      problems.push(`${where}: "${asset.name}" needs at least ${MAX.wildcardLiteral} characters besides *`);
    }
  }
  checkLocalized(asset.lifetime, `${where}.lifetime`, MAX.localizedShort);
  checkLocalized(asset.description, `${where}.description`, MAX.text);
  return nameOk ? asset : null;
}

function checkTexts(texts, where) {
  if (!isObject(texts)) {
    problems.push(`${where}: must be an object with "en" and "de"`);
    return;
  }
  for (const loc of REQUIRED_LOCALES) if (!(loc in texts)) problems.push(`${where}: missing locale "${loc}"`);
  for (const [loc, t] of Object.entries(texts)) {
    const w = `${where}.${loc}`;
    if (!LOCALE_RE.test(loc)) problems.push(`${where}: invalid locale key "${loc}"`);
    if (!isObject(t)) {
      problems.push(`${w}: must be an object`);
      continue;
    }
    checkExactKeys(t, TEXT_KEYS, w);
    for (const k of TEXT_KEYS) {
      if (!(k in t)) continue;
      const max = k === 'name' ? MAX.name : MAX.text;
      if (checkString(t[k], `${w}.${k}`, max) && HTML_RE.test(t[k])) {
        problems.push(`${w}.${k}: must be plain text (no HTML)`);
      }
    }
  }
}

function label(entry, index) {
  const id = isObject(entry) && 'id' in entry ? entry.id : '?';
  const name = isObject(entry) && typeof entry.name === 'string' ? ` "${entry.name}"` : '';
  return `entry #${index} (id ${id}${name})`;
}

// --- load ---------------------------------------------------------------------------------------
let raw;
try {
  raw = readFileSync(file);
} catch (err) {
  console.error(`presets: cannot read ${file}: ${err.message}`);
  process.exit(1);
}
let text;
try {
  text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
} catch {
  console.error(`presets: ${file} is not valid UTF-8`);
  process.exit(1);
}
if (text.charCodeAt(0) === 0xfeff) problems.push('file starts with a byte order mark (BOM)');
let data;
try {
  data = JSON.parse(text.replace(/^\uFEFF/, ''));
} catch (err) {
  console.error(`presets: ${file} is not valid JSON: ${err.message}`);
  process.exit(1);
}
if (!Array.isArray(data)) {
  console.error('presets: the top level must be a JSON array');
  process.exit(1);
}
const canonical = JSON.stringify(data, null, 2);
if (text.replace(/^\uFEFF/, '').replace(/\n$/, '') !== canonical) {
  problems.push('file is not formatted as JSON with 2-space indentation (JSON.stringify(data, null, 2))');
}

// --- entries ------------------------------------------------------------------------------------
const ids = new Map();
const names = new Map();
const assetOwners = new Map(); // "storageType name" -> [preset names], non-wildcard only

data.forEach((entry, index) => {
  const where = label(entry, index);
  if (!isObject(entry)) {
    problems.push(`${where}: must be an object`);
    return;
  }
  checkExactKeys(entry, ENTRY_KEYS, where);

  if (!Number.isSafeInteger(entry.id) || entry.id < 1) {
    problems.push(`${where}.id: must be a positive integer`);
  } else if (ids.has(entry.id)) {
    problems.push(`${where}.id: ${entry.id} is already used by entry #${ids.get(entry.id)}`);
  } else {
    ids.set(entry.id, index);
  }

  if (checkString(entry.name, `${where}.name`, MAX.name)) {
    const key = entry.name.trim().toLowerCase();
    if (names.has(key)) problems.push(`${where}.name: "${entry.name}" is already used by entry #${names.get(key)}`);
    else names.set(key, index);
  }
  checkString(entry.vendor, `${where}.vendor`, MAX.vendor);
  if (!PURPOSES.has(entry.purpose)) {
    problems.push(`${where}.purpose: "${entry.purpose}" is not one of ${[...PURPOSES].join(', ')}`);
  }
  checkHttpsUrl(entry.privacyPolicyUrl, `${where}.privacyPolicyUrl`);
  checkMarkers(entry.scriptMarkers, `${where}.scriptMarkers`);
  checkMarkers(entry.iframeMarkers, `${where}.iframeMarkers`);

  if (!Array.isArray(entry.googleConsentMode)) {
    problems.push(`${where}.googleConsentMode: must be an array`);
  } else {
    const seen = new Set();
    for (const t of entry.googleConsentMode) {
      if (!CONSENT_MODE_TYPES.has(t)) problems.push(`${where}.googleConsentMode: "${t}" is not a Consent Mode type`);
      if (seen.has(t)) problems.push(`${where}.googleConsentMode: duplicate "${t}"`);
      seen.add(t);
    }
  }

  if (!Array.isArray(entry.assets)) {
    problems.push(`${where}.assets: must be an array`);
  } else {
    if (entry.assets.length > MAX.assets) {
      problems.push(`${where}.assets: ${entry.assets.length} assets, at most ${MAX.assets} allowed`);
    }
    const local = new Set();
    entry.assets.forEach((asset, i) => {
      const a = checkAsset(asset, `${where}.assets[${i}]`);
      if (!a) return;
      const key = `${a.storageType} ${a.name}`;
      if (local.has(key)) problems.push(`${where}.assets[${i}]: duplicate ${a.storageType} "${a.name}"`);
      local.add(key);
      if (!a.dynamic && typeof entry.name === 'string') {
        const owners = assetOwners.get(key) ?? [];
        if (!owners.includes(entry.name)) owners.push(entry.name);
        assetOwners.set(key, owners);
      }
    });
  }

  checkTexts(entry.texts, `${where}.texts`);
});

// An exact (non-wildcard) name should belong to one preset so that onboarding can match a scanned
// cookie to a single service. Genuinely shared names are allowed, hence a warning, not an error.
for (const [key, owners] of assetOwners) {
  if (owners.length > 1) warnings.push(`asset ${key} appears in several presets: ${owners.join(', ')}`);
}

for (const w of warnings) console.warn(`warning: ${w}`);
if (problems.length > 0) {
  console.error(`presets: ${problems.length} problem(s) in ${file}`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log(`presets: ${data.length} entries OK`);
