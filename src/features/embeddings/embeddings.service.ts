import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { newShortId } from '../../db/ids.js';
import { AppError } from '../../errors.js';
import { listAssetRows, deleteAssetsOf, insertAssetRows } from '../assets/assets.repository.js';
import { assetLegalView, assetRowToAsset, assetRowsFrom, normaliseAsset } from '../assets/assets.service.js';
import type { Asset } from '../assets/assets.schemas.js';
import { mutateDomain, requireDomain, type DomainMutation } from '../domains/domain-scope.js';
import { EMBEDDING_GATES, assertFeatureUse } from '../clients/feature-gates.js';
import {
  countEmbeddings,
  deleteEmbeddingRow,
  findEmbeddingRow,
  findScopedEmbeddingRow,
  insertEmbeddingRow,
  listScopedEmbeddingRows,
  updateEmbeddingRow,
} from './embeddings.repository.js';
import {
  EMBEDDING_DEFAULTS,
  MAX_EMBEDDINGS_PER_DOMAIN,
  type CreateEmbedding,
  type Embedding,
  type EmbeddingSettings,
  type UpdateEmbedding,
} from './embeddings.schemas.js';
import type { EmbeddingRow } from './embeddings.table.js';

export function embeddingRowToEmbedding(row: EmbeddingRow, assets: readonly Asset[]): Embedding {
  return {
    id: row.id,
    name: row.name,
    active: row.active === 1,
    purpose: row.purpose,
    ...EMBEDDING_DEFAULTS,
    ...(JSON.parse(row.data) as Partial<EmbeddingSettings>),
    assets: [...assets],
  };
}

/** Rows plus their assets, two queries however many embeddings. */
export async function withAssets(db: Executor, rows: readonly EmbeddingRow[]): Promise<Embedding[]> {
  const assets = await listAssetRows(db, rows.map((r) => r.id));
  const byEmbedding = new Map<string, Asset[]>();
  for (const a of assets) {
    const list = byEmbedding.get(a.embedding_id);
    if (list) list.push(assetRowToAsset(a));
    else byEmbedding.set(a.embedding_id, [assetRowToAsset(a)]);
  }
  return rows.map((r) => embeddingRowToEmbedding(r, byEmbedding.get(r.id) ?? []));
}

const LEGAL_TRANSLATION_FIELDS = [
  'name',
  'description',
  'privacyPolicyUrl',
  'whatDataIsCollected',
  'purposeOfDataCollection',
  'legalBasis',
  'placeOfProcessing',
] as const;

/**
 * What a visitor consents to (reference-model §4.9): a change here voids consents when the domain has
 * consentResetOnLegalChange. Translations of these texts count too; the order of lists and assets does not.
 */
export function embeddingLegalView(e: Embedding): unknown {
  const sorted = <T>(list: readonly T[]) => [...list].sort();
  return {
    name: e.name,
    purpose: e.purpose,
    vendor: e.vendor,
    tcfVendor: e.tcfVendor,
    description: e.description,
    privacyPolicyUrl: e.privacyPolicyUrl,
    whatDataIsCollected: e.whatDataIsCollected,
    purposeOfDataCollection: e.purposeOfDataCollection,
    legalBasis: e.legalBasis,
    placeOfProcessing: e.placeOfProcessing,
    googleConsentMode: sorted(e.googleConsentMode),
    tcfPurposes: sorted(e.tcfPurposes),
    tcfSpecialFeatures: sorted(e.tcfSpecialFeatures),
    translations: Object.fromEntries(
      Object.entries(e.translations).flatMap(([locale, t]) => {
        const legal = LEGAL_TRANSLATION_FIELDS.filter((f) => (t[f] ?? '') !== '').map((f) => [f, t[f]]);
        return legal.length > 0 ? [[locale, Object.fromEntries(legal)]] : [];
      }),
    ),
    assets: e.assets.map(({ id: _id, ...a }) => canonicalJson(assetLegalView(a))).sort(),
  };
}

/** JSON with object keys sorted at every level, so equal content compares equal whatever the key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export async function listEmbeddings(deps: Deps, clientId: string, domainId: string): Promise<Embedding[]> {
  const rows = await listScopedEmbeddingRows(deps.db, clientId, domainId);
  if (rows.length === 0) await requireDomain(deps.db, deps.engine, clientId, domainId);
  return withAssets(deps.db, rows);
}

export async function getEmbedding(deps: Deps, c: string, d: string, e: string): Promise<Embedding> {
  const row = await findScopedEmbeddingRow(deps.db, c, d, e);
  if (!row) throw new AppError('EMBEDDING_NOT_FOUND');
  return (await withAssets(deps.db, [row]))[0]!;
}

export async function createEmbedding(deps: Deps, c: string, d: string, input: CreateEmbedding): Promise<Embedding> {
  return mutateDomain(deps, c, d, async (m) => {
    // Only here, not in insertEmbedding: preset imports bring the catalogue's markers, which only make
    // blocking work (README, "Feature flags").
    const { name: _n, purpose: _p, active: _a, assets: _s, ...settings } = input;
    assertFeatureUse(await m.features(), EMBEDDING_GATES, EMBEDDING_DEFAULTS, { ...EMBEDDING_DEFAULTS, ...settings });
    return insertEmbedding(deps, m, input, 'body');
  });
}

/**
 * Creates an embedding inside a domain transaction: the per-domain limit, normalised assets, and the
 * revision bump (legal when it is active). Onboarding calls it for several embeddings in one transaction;
 * `field` locates the input in the request for error details.
 */
export async function insertEmbedding(deps: Deps, m: DomainMutation, input: CreateEmbedding, field: string): Promise<Embedding> {
  const { trx, domain } = m;
  if ((await countEmbeddings(trx, domain.id)) >= MAX_EMBEDDINGS_PER_DOMAIN) {
    throw new AppError('RESOURCE_LIMIT_REACHED', [
      { field: 'embeddings', message: `a domain has at most ${MAX_EMBEDDINGS_PER_DOMAIN} embeddings` },
    ]);
  }
  const { name, purpose, active = true, assets = [], ...settings } = input;
  const now = isoNow(deps.clock);
  const row: EmbeddingRow = {
    id: await newShortId(trx, 'embeddings', deps.ids),
    domain_id: domain.id,
    name,
    purpose,
    active: Number(active),
    data: JSON.stringify({ ...EMBEDDING_DEFAULTS, ...settings }),
    created_at: now,
    updated_at: now,
  };
  await insertEmbeddingRow(trx, row);
  const normalised = assets.map((a, i) => normaliseAsset(a, `${field}.assets.${i}`));
  const assetRows = await assetRowsFrom(trx, deps, row.id, normalised, 0);
  await insertAssetRows(trx, assetRows);
  m.changed(active ? 'legal' : 'config');
  return embeddingRowToEmbedding(row, assetRows.map(assetRowToAsset));
}

/** PUT merges; `assets`, when given, replaces all assets of the embedding in the same transaction. */
export async function updateEmbedding(
  deps: Deps,
  c: string,
  d: string,
  e: string,
  input: UpdateEmbedding,
): Promise<Embedding> {
  return mutateDomain(deps, c, d, async ({ trx, changed, features }) => {
    const row = await findEmbeddingRow(trx, d, e);
    if (!row) throw new AppError('EMBEDDING_NOT_FOUND');
    const before = (await withAssets(trx, [row]))[0]!;
    const { assets, ...fields } = input;
    assertFeatureUse(await features(), EMBEDDING_GATES, before, { ...before, ...fields });
    const { id: _id, assets: currentAssets, name, purpose, active, ...settings } = { ...before, ...fields };
    const withoutIds = (list: readonly Asset[]) => list.map(({ id: _a, ...rest }) => rest);
    const requested = assets?.map((a, i) => normaliseAsset(a, `body.assets.${i}`));
    const replaceAssets = requested !== undefined && !isDeepStrictEqual(requested, withoutIds(currentAssets));
    let nextAssets = currentAssets;
    if (replaceAssets) {
      await deleteAssetsOf(trx, e);
      const rows = await assetRowsFrom(trx, deps, e, requested, 0);
      await insertAssetRows(trx, rows);
      nextAssets = rows.map(assetRowToAsset);
    }
    const after: Embedding = { id: e, name, purpose, active, ...settings, assets: nextAssets };
    if (!replaceAssets && isDeepStrictEqual(before, after)) return before;
    await updateEmbeddingRow(trx, d, e, {
      name,
      purpose,
      active: Number(active),
      data: JSON.stringify(settings),
      updated_at: isoNow(deps.clock),
    });
    const legal =
      (!before.active && after.active) ||
      ((before.active || after.active) && !isDeepStrictEqual(embeddingLegalView(before), embeddingLegalView(after)));
    changed(legal ? 'legal' : 'config');
    return after;
  });
}

export async function deleteEmbedding(deps: Deps, c: string, d: string, e: string): Promise<void> {
  await mutateDomain(deps, c, d, async ({ trx, changed }) => {
    if (!(await deleteEmbeddingRow(trx, d, e))) throw new AppError('EMBEDDING_NOT_FOUND');
    changed('config');
  });
}
