import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import { AppError } from '../../errors.js';
import { assetStats, insertAssetRows, listAssetRows } from '../assets/assets.repository.js';
import { MAX_ASSETS_PER_EMBEDDING } from '../assets/assets.schemas.js';
import { assetRowsFrom, normaliseAsset } from '../assets/assets.service.js';
import { mutateDomain, type DomainMutation } from '../domains/domain-scope.js';
import { insertEmbedding } from '../embeddings/embeddings.service.js';
import { findEmbeddingRow, listEmbeddingRows } from '../embeddings/embeddings.repository.js';
import type { CreateEmbedding } from '../embeddings/embeddings.schemas.js';
import {
  applyFoundLegalLinks,
  insertOnboardingLink,
  onboardingLinks,
  presetSourceKey,
  UNRECOGNISED_SOURCE_KEY,
} from './onboarding.repository.js';
import type { CookieEmbeddings, CookieList, PresetImport, PresetResult } from './onboarding.schemas.js';
import { localeName, presetCatalogue, type Preset } from './preset-catalogue.js';
import { wildcardTest } from './preset-match.js';

const OTHER_PURPOSE = '15c61c3';

/**
 * A preset as an embedding: English texts in the default fields, every other catalogue language under
 * `translations` with its locale name (`de` → `de_DE`); the same for each asset's lifetime and description.
 */
export function presetToEmbedding(preset: Preset, active: boolean): CreateEmbedding {
  const { en, ...others } = preset.texts;
  const translated = Object.entries(others);
  return {
    name: en.name,
    purpose: preset.purpose,
    active,
    vendor: preset.vendor,
    privacyPolicyUrl: preset.privacyPolicyUrl,
    description: en.description,
    whatDataIsCollected: en.whatDataIsCollected,
    purposeOfDataCollection: en.purposeOfDataCollection,
    legalBasis: en.legalBasis,
    placeOfProcessing: en.placeOfProcessing,
    scriptMarkers: [...preset.scriptMarkers],
    iframeMarkers: [...preset.iframeMarkers],
    googleConsentMode: [...preset.googleConsentMode],
    translations: Object.fromEntries(translated.map(([key, t]) => [localeName(key), { ...t }])),
    assets: preset.assets.map((a) => ({
      name: a.name,
      dynamic: a.dynamic,
      storageType: a.storageType,
      lifetime: a.lifetime.en,
      description: a.description.en,
      translations: Object.fromEntries(
        Object.keys(a.lifetime)
          .filter((key) => key !== 'en')
          .map((key) => [localeName(key), { lifetime: a.lifetime[key] ?? '', description: a.description[key] ?? '' }]),
      ),
    })),
  };
}

/**
 * The imprint and privacy pages the last scan found go onto the banner with the first import after it,
 * where the domain has none yet (docs/onboarding.md, "Legal links").
 */
async function applyLegalLinks(deps: Deps, m: DomainMutation): Promise<void> {
  if (await applyFoundLegalLinks(m.trx, m.domain.id, isoNow(deps.clock))) m.changed('config');
}

async function link(deps: Deps, m: DomainMutation, sourceKey: string, embeddingId: string): Promise<void> {
  await insertOnboardingLink(m.trx, {
    domain_id: m.domain.id,
    source_key: sourceKey,
    embedding_id: embeddingId,
    created_at: isoNow(deps.clock),
  });
}

/**
 * POST …/onboarding/presets: one embedding per preset (inactive unless `active: true`). A preset already
 * imported into the domain answers with its existing embedding. An unknown id fails the whole request.
 */
export async function importPresets(deps: Deps, c: string, d: string, items: PresetImport): Promise<PresetResult> {
  const catalogue = presetCatalogue();
  return mutateDomain(deps, c, d, async (m) => {
    const unknown = items.flatMap((item, i) => (catalogue.byId.has(item.id) ? [] : [{ i, id: item.id }]));
    if (unknown.length > 0) {
      throw new AppError(
        'UNKNOWN_PRESET',
        unknown.map(({ i, id }) => ({ field: `body.${i}.id`, message: `no preset with id ${id}` })),
        unknown.length === 1 ? `No preset with id ${unknown[0]!.id} exists.` : 'Some preset ids do not exist.',
      );
    }
    await applyLegalLinks(deps, m);
    const links = await onboardingLinks(m.trx, d);
    const results: PresetResult = [];
    for (const [i, item] of items.entries()) {
      const key = presetSourceKey(item.id);
      const existing = links.get(key);
      if (existing) {
        results.push({ presetId: item.id, embeddingId: existing, created: false });
        continue;
      }
      const { id: embeddingId } = await insertEmbedding(deps, m, presetToEmbedding(catalogue.byId.get(item.id)!, item.active ?? false), `body.${i}`);
      await link(deps, m, key, embeddingId);
      links.set(key, embeddingId);
      results.push({ presetId: item.id, embeddingId, created: true });
    }
    return results;
  });
}

const UNRECOGNISED = {
  name: 'Unrecognised cookies and storage',
  description: 'Cookies and storage entries found on this website that are not yet assigned to a service.',
  de: {
    name: 'Nicht zugeordnete Cookies und Speichereinträge',
    description: 'Auf dieser Website gefundene Cookies und Speichereinträge, die noch keinem Dienst zugeordnet sind.',
  },
  assetDescription: 'Found by the website scan; not yet assigned to a service.',
  assetDescriptionDe: 'Vom Website-Scan gefunden; noch keinem Dienst zugeordnet.',
};

type Item = CookieList[number];

/**
 * POST …/onboarding/embeddingsFromCookies. Each item goes, in this order, to: the embedding of the
 * preset that declares it when that preset was imported before; any existing embedding of the domain
 * whose assets already cover it (nothing changes); a new embedding of the best-matching preset; the one
 * embedding of unrecognised items (purpose "other", created on first use). All new embeddings are inactive.
 */
export async function embeddingsFromCookies(deps: Deps, c: string, d: string, items: CookieList): Promise<CookieEmbeddings> {
  const { matcher } = presetCatalogue();
  return mutateDomain(deps, c, d, async (m) => {
    await applyLegalLinks(deps, m);
    const links = await onboardingLinks(m.trx, d);
    const declared = await declaredAssets(m, d);
    const byPreset = new Map<number, { preset: Preset; items: Item[] }>();
    const unknown: Item[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const key = `${item.storageType} ${item.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const preset = matcher.bestFor(item.name, item.storageType);
      if (preset && links.has(presetSourceKey(preset.id))) continue;
      if (declared(item)) continue;
      if (preset) {
        const group = byPreset.get(preset.id) ?? { preset, items: [] };
        group.items.push(item);
        byPreset.set(preset.id, group);
      } else {
        unknown.push(item);
      }
    }
    const results: CookieEmbeddings = [];
    for (const { preset, items: group } of byPreset.values()) {
      const { id: embeddingId } = await insertEmbedding(deps, m, presetToEmbedding(preset, false), 'preset');
      await link(deps, m, presetSourceKey(preset.id), embeddingId);
      results.push({
        embeddingId, name: preset.texts.en.name, purpose: preset.purpose, presetId: preset.id, created: true,
        cookies: group, addedAssets: [],
      });
    }
    if (unknown.length > 0) results.push(await addUnrecognised(deps, m, links.get(UNRECOGNISED_SOURCE_KEY), unknown));
    return results;
  });
}

/** A test: is this item already covered by an asset of one of the domain's embeddings? */
async function declaredAssets(m: DomainMutation, domainId: string): Promise<(item: Item) => boolean> {
  const embeddings = await listEmbeddingRows(m.trx, domainId);
  const rows = await listAssetRows(m.trx, embeddings.map((e) => e.id));
  const tests = rows.map((row) => {
    const storageType = (JSON.parse(row.data) as { storageType?: string }).storageType ?? 'cookie';
    const test = wildcardTest(row.name);
    return (item: Item) => item.storageType === storageType && test(item.name);
  });
  return (item) => tests.some((t) => t(item));
}

function unrecognisedAsset(item: Item) {
  return {
    name: item.name,
    storageType: item.storageType,
    description: UNRECOGNISED.assetDescription,
    translations: { de_DE: { description: UNRECOGNISED.assetDescriptionDe } },
  };
}

async function addUnrecognised(deps: Deps, m: DomainMutation, existing: string | undefined, items: Item[]): Promise<CookieEmbeddings[number]> {
  const result = { name: UNRECOGNISED.name, purpose: OTHER_PURPOSE, presetId: null, cookies: items, addedAssets: items };
  if (existing === undefined) {
    if (items.length > MAX_ASSETS_PER_EMBEDDING) throw tooManyAssets();
    const { id: embeddingId } = await insertEmbedding(deps, m, {
      name: UNRECOGNISED.name,
      purpose: OTHER_PURPOSE,
      active: false,
      description: UNRECOGNISED.description,
      translations: { de_DE: UNRECOGNISED.de },
      assets: items.map(unrecognisedAsset),
    }, 'body');
    await link(deps, m, UNRECOGNISED_SOURCE_KEY, embeddingId);
    return { embeddingId, created: true, ...result };
  }
  const row = await findEmbeddingRow(m.trx, m.domain.id, existing);
  const stats = await assetStats(m.trx, existing);
  if (stats.count + items.length > MAX_ASSETS_PER_EMBEDDING) throw tooManyAssets();
  const normalised = items.map((item, i) => normaliseAsset(unrecognisedAsset(item), `body.${i}`));
  await insertAssetRows(m.trx, await assetRowsFrom(m.trx, deps, existing, normalised, stats.maxPosition + 1));
  // Created inactive, but an admin may have activated it since: then new assets are a legal change.
  m.changed(row?.active === 1 ? 'legal' : 'config');
  return { embeddingId: existing, created: false, ...result, name: row?.name ?? result.name, purpose: row?.purpose ?? result.purpose };
}

const tooManyAssets = () =>
  new AppError('RESOURCE_LIMIT_REACHED', [
    { field: 'body', message: `an embedding has at most ${MAX_ASSETS_PER_EMBEDDING} assets` },
  ]);
