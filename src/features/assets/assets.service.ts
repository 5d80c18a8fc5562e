import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { newShortId } from '../../db/ids.js';
import { AppError } from '../../errors.js';
import { mutateDomain, requireDomain } from '../domains/domain-scope.js';
import { findEmbeddingRow } from '../embeddings/embeddings.repository.js';
import {
  assetStats,
  deleteAssetRow,
  findScopedAssetRow,
  insertAssetRows,
  listScopedAssetRows,
  updateAssetRow,
} from './assets.repository.js';
import {
  MAX_ASSETS_PER_EMBEDDING,
  type Asset,
  type AssetData,
  type CreateAsset,
  type UpdateAsset,
} from './assets.schemas.js';
import type { AssetRow } from './assets.table.js';

export function assetRowToAsset(row: AssetRow): Asset {
  const data = JSON.parse(row.data) as Partial<AssetData>;
  return {
    id: row.id,
    name: row.name,
    dynamic: data.dynamic ?? row.name.includes('*'),
    storageType: data.storageType ?? 'cookie',
    lifetime: data.lifetime ?? '',
    description: data.description ?? '',
    translations: data.translations ?? {},
  };
}

/** Builds stored rows from normalised assets. */
export async function assetRowsFrom(
  db: Executor,
  deps: Deps,
  embeddingId: string,
  assets: readonly Omit<Asset, 'id'>[],
  firstPosition: number,
): Promise<AssetRow[]> {
  const now = isoNow(deps.clock);
  const rows: AssetRow[] = [];
  const taken = new Set<string>();
  for (const [i, asset] of assets.entries()) {
    let id = await newShortId(db, 'assets', deps.ids);
    while (taken.has(id)) id = await newShortId(db, 'assets', deps.ids);
    taken.add(id);
    const { name, ...data } = asset;
    rows.push({ id, embedding_id: embeddingId, position: firstPosition + i, name, data: JSON.stringify(data), created_at: now });
  }
  return rows;
}

/** Applies defaults and the wildcard rule; `field` locates the asset in the request for error details. */
export function normaliseAsset(input: CreateAsset, field: string): Omit<Asset, 'id'> {
  const wildcard = input.name.includes('*');
  if (wildcard && input.dynamic === false) {
    throw new AppError('VALIDATION_FAILED', [
      { field: `${field}.dynamic`, message: 'must be true for a name with a * wildcard' },
    ]);
  }
  return {
    name: input.name,
    dynamic: input.dynamic ?? wildcard,
    storageType: input.storageType ?? 'cookie',
    lifetime: input.lifetime ?? '',
    description: input.description ?? '',
    translations: input.translations ?? {},
  };
}

/** The asset fields whose change is legally relevant (reference-model §4.9). */
export function assetLegalView(a: Omit<Asset, 'id'>): unknown {
  return {
    name: a.name,
    description: a.description,
    storageType: a.storageType,
    lifetime: a.lifetime,
    translations: a.translations,
  };
}

async function requireEmbedding(db: Executor, domainId: string, embeddingId: string) {
  const row = await findEmbeddingRow(db, domainId, embeddingId);
  if (!row) throw new AppError('EMBEDDING_NOT_FOUND');
  return row;
}

export async function listAssets(deps: Deps, clientId: string, domainId: string, embeddingId: string): Promise<Asset[]> {
  const rows = await listScopedAssetRows(deps.db, clientId, domainId, embeddingId);
  if (rows.length === 0) {
    await requireDomain(deps.db, deps.engine, clientId, domainId);
    await requireEmbedding(deps.db, domainId, embeddingId);
  }
  return rows.map(assetRowToAsset);
}

export async function getAsset(deps: Deps, c: string, d: string, e: string, assetId: string): Promise<Asset> {
  const row = await findScopedAssetRow(deps.db, c, d, e, assetId);
  if (!row) throw new AppError('ASSET_NOT_FOUND');
  return assetRowToAsset(row);
}

export async function createAsset(deps: Deps, c: string, d: string, e: string, input: CreateAsset): Promise<Asset> {
  return mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const embedding = await requireEmbedding(trx, d, e);
    const stats = await assetStats(trx, e);
    if (stats.count >= MAX_ASSETS_PER_EMBEDDING) {
      throw new AppError('RESOURCE_LIMIT_REACHED', [
        { field: 'assets', message: `an embedding has at most ${MAX_ASSETS_PER_EMBEDDING} assets` },
      ]);
    }
    const [row] = await assetRowsFrom(trx, deps, e, [normaliseAsset(input, 'body')], stats.maxPosition + 1);
    await insertAssetRows(trx, [row!]);
    changed(embedding.active === 1 ? 'legal' : 'config');
    return assetRowToAsset(row!);
  });
}

export async function updateAsset(
  deps: Deps,
  c: string,
  d: string,
  e: string,
  assetId: string,
  input: UpdateAsset,
): Promise<Asset> {
  return mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const embedding = await requireEmbedding(trx, d, e);
    const row = await findScopedAssetRow(trx, c, d, e, assetId);
    if (!row) throw new AppError('ASSET_NOT_FOUND');
    const before = assetRowToAsset(row);
    const { id: _id, ...current } = before;
    // Renaming to a wildcard makes the asset dynamic unless the request says otherwise.
    const dynamic = input.dynamic ?? (input.name?.includes('*') ? true : current.dynamic);
    const merged = normaliseAsset({ ...current, ...input, dynamic }, 'body');
    const after: Asset = { id: assetId, ...merged };
    if (isDeepStrictEqual(before, after)) return before;
    const { name, ...data } = merged;
    await updateAssetRow(trx, e, assetId, { name, data: JSON.stringify(data) });
    const legal = !isDeepStrictEqual(assetLegalView(before), assetLegalView(merged)) && embedding.active === 1;
    changed(legal ? 'legal' : 'config');
    return after;
  });
}

export async function deleteAsset(deps: Deps, c: string, d: string, e: string, assetId: string): Promise<void> {
  await mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const embedding = await requireEmbedding(trx, d, e);
    if (!(await deleteAssetRow(trx, e, assetId))) throw new AppError('ASSET_NOT_FOUND');
    changed(embedding.active === 1 ? 'legal' : 'config');
  });
}
