import type { PurposeId } from '../locales/builtin-texts.js';
import { CATALOGUE_LIMITS } from './catalogue-rules.js';
import { CATEGORY_PURPOSE, type ImportNote, type OcdRow } from './ocd-csv.js';
import type { LocalizedText, Preset, PresetAsset, PresetTexts } from './preset-catalogue.js';
import { wildcardTest } from './preset-match.js';

/**
 * Maps rows of the Open Cookie Database (https://github.com/jkwakman/Open-Cookie-Database, Apache-2.0)
 * into Placet's preset format and merges them into our catalogue. Pure functions; `scripts/import-presets.ts`
 * does the file handling, `ocd-csv.ts` the reading.
 */

const UNITS: Record<string, [string, string]> = {
  second: ['Sekunde', 'Sekunden'], minute: ['Minute', 'Minuten'], min: ['Minute', 'Minuten'], hour: ['Stunde', 'Stunden'],
  day: ['Tag', 'Tage'], week: ['Woche', 'Wochen'], month: ['Monat', 'Monate'], year: ['Jahr', 'Jahre'],
};

/** "1 Year" → { en: "1 year", de: "1 Jahr" }; session and unknown spellings normalised; others kept in English. */
export function lifetimeOf(raw: string): LocalizedText {
  const text = raw.trim();
  const lower = text.toLowerCase();
  if (lower === '' || /^(unknown|undefined|varies|n\/a|-)$/.test(lower)) return { en: 'Unknown', de: 'Unbekannt' };
  if (/^(end of )?sessions?( \(browser\))?$|^browser session$/.test(lower)) return { en: 'Session', de: 'Sitzung' };
  if (/^(forever|unlimited|persistent|never expires)$/.test(lower)) return { en: 'Persistent', de: 'Dauerhaft' };
  const m = /^(\d+)\s*(second|minute|min|hour|day|week|month|year)s?$/.exec(lower);
  if (m) {
    const n = Number(m[1]);
    const [one, many] = UNITS[m[2]!]!;
    const unit = m[2] === 'min' ? 'minute' : m[2]!;
    return { en: `${n} ${unit}${n === 1 ? '' : 's'}`, de: `${n} ${n === 1 ? one : many}` };
  }
  const cut = text.slice(0, CATALOGUE_LIMITS.localizedShort);
  return { en: cut, de: cut };
}

const PURPOSE_LABEL: Record<PurposeId, { en: string; de: string }> = {
  '41ba25c': { en: 'Essential', de: 'Notwendig' },
  cdcbd7c: { en: 'Marketing', de: 'Marketing' },
  a717ff5: { en: 'Analytics', de: 'Statistik' },
  '7c19e32': { en: 'Personalisation', de: 'Personalisierung' },
  '6cd2721': { en: 'Social media', de: 'Soziale Medien' },
  '15c61c3': { en: 'Functional', de: 'Funktional' },
};

/** Generic legal texts by purpose: the database has none, and every catalogue entry needs them. */
function textsFor(name: string, platform: string, purpose: PurposeId): Preset['texts'] {
  const necessary = purpose === '41ba25c';
  const label = PURPOSE_LABEL[purpose];
  const en: PresetTexts = {
    name,
    description: `Cookies and storage entries of ${platform} (category: ${label.en}), taken from the Open Cookie Database.`,
    whatDataIsCollected: 'Identifiers and settings stored in cookies or browser storage, and information about the use of the website as described for each cookie.',
    purposeOfDataCollection: necessary
      ? 'Operating the website securely and as requested by the visitor.'
      : `${label.en} purposes of ${platform}, as described for each cookie.`,
    legalBasis: necessary
      ? 'Legitimate interest, Art. 6(1)(f) GDPR; storing information on the device is strictly necessary (Art. 5(3) ePrivacy Directive, in Germany § 25(2) No. 2 TDDDG)'
      : 'Consent, Art. 6(1)(a) GDPR; storing and reading information on the device only with consent (Art. 5(3) ePrivacy Directive, in Germany § 25(1) TDDDG)',
    placeOfProcessing: "Not stated in the source data; see the provider's privacy policy.",
  };
  const de: PresetTexts = {
    name,
    description: `Cookies und Speichereinträge von ${platform} (Kategorie: ${label.de}), übernommen aus der Open Cookie Database.`,
    whatDataIsCollected: 'In Cookies oder im Browserspeicher abgelegte Kennungen und Einstellungen sowie Angaben zur Nutzung der Website, wie bei den einzelnen Cookies beschrieben.',
    purposeOfDataCollection: necessary
      ? 'Sicherer und vom Besucher gewünschter Betrieb der Website.'
      : `Zwecke der Kategorie ${label.de} von ${platform}, wie bei den einzelnen Cookies beschrieben.`,
    legalBasis: necessary
      ? 'Berechtigtes Interesse, Art. 6 Abs. 1 lit. f DSGVO; das Speichern von Informationen auf dem Endgerät ist unbedingt erforderlich (§ 25 Abs. 2 Nr. 2 TDDDG)'
      : 'Einwilligung, Art. 6 Abs. 1 lit. a DSGVO; Speichern und Auslesen von Informationen auf dem Endgerät nur mit Einwilligung (§ 25 Abs. 1 TDDDG)',
    placeOfProcessing: 'In den Quelldaten nicht angegeben; siehe die Datenschutzerklärung des Anbieters.',
  };
  return { en, de };
}

const plain = (text: string, max: number) => {
  const t = text.replace(/<[^>]*>/g, ' ').replace(/&lt;|&gt;/gi, ' ').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
};

const mostCommon = (values: string[]): string | undefined => {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
};

function assetOf(row: OcdRow, notes: ImportNote[]): PresetAsset | undefined {
  const name = row.wildcard && !row.name.includes('*') ? `${row.name}*` : row.name;
  const dynamic = name.includes('*');
  if (name.length > CATALOGUE_LIMITS.assetName) return void notes.push({ name, reason: 'name too long' });
  if (dynamic && name.replace(/\*/g, '').length < CATALOGUE_LIMITS.wildcardLiteral) {
    return void notes.push({ name, reason: 'wildcard name too short to match safely' });
  }
  const retention = row.retention.toLowerCase();
  const storageType = /local ?storage/.test(retention) ? 'localStorage' : /session ?storage/.test(retention) ? 'sessionStorage' : 'cookie';
  const lifetime = storageType === 'cookie' ? lifetimeOf(row.retention) : storageType === 'localStorage'
    ? { en: 'Persistent', de: 'Dauerhaft' }
    : { en: 'Session', de: 'Sitzung' };
  const description = plain(row.description, CATALOGUE_LIMITS.text) || `Set by ${row.platform}.`;
  // German descriptions reuse the English text: the database has no translations.
  return { name, storageType, dynamic, lifetime, description: { en: description, de: description } };
}

/** An imported preset before the merge gives it an id. */
export type ImportedPreset = Omit<Preset, 'id'>;

/**
 * Groups rows by platform into presets. A platform whose cookies fall into several purposes becomes one
 * preset per purpose: the largest keeps the platform's name, the others get the purpose in brackets.
 */
export function ocdToPresets(rows: readonly OcdRow[]): { presets: ImportedPreset[]; skipped: ImportNote[] } {
  const skipped: ImportNote[] = [];
  const platforms = new Map<string, OcdRow[]>();
  for (const row of rows) {
    const key = row.platform.toLowerCase();
    platforms.set(key, [...(platforms.get(key) ?? []), row]);
  }
  const presets: ImportedPreset[] = [];
  for (const platformRows of platforms.values()) {
    const platform = mostCommon(platformRows.map((r) => r.platform))!.slice(0, CATALOGUE_LIMITS.name - 20);
    const urls = platformRows.map((r) => r.privacyUrl.replace(/^http:\/\//i, 'https://')).filter((u) => /^https:\/\/\S+$/.test(u) && URL.canParse(u) && u.length <= CATALOGUE_LIMITS.url);
    const privacyPolicyUrl = mostCommon(urls);
    if (!privacyPolicyUrl) {
      skipped.push({ name: platform, reason: 'no privacy policy URL' });
      continue;
    }
    const byPurpose = new Map<PurposeId, OcdRow[]>();
    for (const row of platformRows) {
      const purpose = CATEGORY_PURPOSE[row.category];
      byPurpose.set(purpose, [...(byPurpose.get(purpose) ?? []), row]);
    }
    const groups = [...byPurpose].sort((a, b) => b[1].length - a[1].length);
    groups.forEach(([purpose, groupRows], i) => {
      const name = i === 0 ? platform : `${platform} (${PURPOSE_LABEL[purpose].en})`;
      const assets: PresetAsset[] = [];
      const seen = new Set<string>();
      for (const row of groupRows) {
        const asset = assetOf(row, skipped);
        if (!asset || seen.has(`${asset.storageType} ${asset.name}`)) continue;
        if (assets.length >= CATALOGUE_LIMITS.assets) {
          skipped.push({ name: asset.name, reason: `${name} already has ${CATALOGUE_LIMITS.assets} assets` });
          continue;
        }
        seen.add(`${asset.storageType} ${asset.name}`);
        assets.push(asset);
      }
      if (assets.length === 0) return;
      presets.push({
        name,
        vendor: (mostCommon(groupRows.map((r) => r.controller)) ?? platform).slice(0, CATALOGUE_LIMITS.vendor),
        purpose,
        privacyPolicyUrl,
        scriptMarkers: [],
        iframeMarkers: [],
        googleConsentMode: purpose === 'a717ff5' ? ['analytics_storage'] : purpose === 'cdcbd7c' ? ['ad_storage', 'ad_user_data', 'ad_personalization'] : [],
        assets,
        texts: textsFor(name, platform, purpose),
      });
    });
  }
  presets.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return { presets, skipped };
}

export interface MergeResult {
  catalogue: Preset[];
  added: Preset[];
  skipped: ImportNote[];
}

/**
 * Adds imported presets to ours without duplicating a service: our entries and ids never change; an
 * imported preset is left out when its name is taken or when most of its cookies already belong to one
 * of our presets (the same service under another name); of the rest, cookies some preset already
 * declares are dropped. New presets get ids above the highest in use, in name order, so running the
 * importer again on its own output changes nothing.
 */
export function mergeCatalogues(ours: readonly Preset[], imported: readonly ImportedPreset[]): MergeResult {
  const catalogue = [...ours];
  const added: Preset[] = [];
  const skipped: ImportNote[] = [];
  const names = new Set(ours.map((p) => p.name.trim().toLowerCase()));
  const declared = ours.flatMap((p) =>
    p.assets.map((a) => ({ preset: p.id, storageType: a.storageType, test: wildcardTest(a.name), name: a.name })),
  );
  let nextId = Math.max(0, ...ours.map((p) => p.id)) + 1;
  for (const candidate of imported) {
    if (names.has(candidate.name.trim().toLowerCase())) {
      skipped.push({ name: candidate.name, reason: 'a preset with this name exists' });
      continue;
    }
    const owners = candidate.assets.map((a) =>
      declared.find((d) => d.storageType === a.storageType && (d.name === a.name || d.test(a.name)))?.preset,
    );
    const byOwner = new Map<number, number>();
    for (const owner of owners) if (owner !== undefined) byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    const top = Math.max(0, ...byOwner.values());
    if (top * 2 >= candidate.assets.length) {
      skipped.push({ name: candidate.name, reason: 'most of its cookies belong to an existing preset' });
      continue;
    }
    const assets = candidate.assets.filter((_, i) => owners[i] === undefined);
    if (assets.length === 0) continue;
    const preset: Preset = { id: nextId++, ...candidate, assets };
    catalogue.push(preset);
    added.push(preset);
    names.add(preset.name.trim().toLowerCase());
    for (const a of assets) declared.push({ preset: preset.id, storageType: a.storageType, test: wildcardTest(a.name), name: a.name });
  }
  return { catalogue, added, skipped };
}
