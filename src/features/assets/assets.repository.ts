import type { Executor } from '../../db/database.js';
import type { AssetRow } from './assets.table.js';

export async function listAssetRows(db: Executor, embeddingIds: readonly string[]): Promise<AssetRow[]> {
  if (embeddingIds.length === 0) return [];
  return db
    .selectFrom('assets')
    .selectAll()
    .where('embedding_id', 'in', embeddingIds)
    .orderBy('embedding_id')
    .orderBy('position')
    .execute();
}

/** An embedding's assets, resolved through client → domain → embedding in one query. */
function scoped(db: Executor, clientId: string, domainId: string, embeddingId: string) {
  return db
    .selectFrom('assets as a')
    .innerJoin('embeddings as e', 'e.id', 'a.embedding_id')
    .innerJoin('domains as d', 'd.id', 'e.domain_id')
    .selectAll('a')
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', domainId)
    .where('e.id', '=', embeddingId);
}

export async function listScopedAssetRows(
  db: Executor,
  clientId: string,
  domainId: string,
  embeddingId: string,
): Promise<AssetRow[]> {
  return scoped(db, clientId, domainId, embeddingId).orderBy('a.position').execute();
}

export async function findScopedAssetRow(
  db: Executor,
  clientId: string,
  domainId: string,
  embeddingId: string,
  assetId: string,
): Promise<AssetRow | undefined> {
  return scoped(db, clientId, domainId, embeddingId).where('a.id', '=', assetId).executeTakeFirst();
}


export async function insertAssetRows(db: Executor, rows: AssetRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('assets').values(rows).execute();
}

export async function deleteAssetsOf(db: Executor, embeddingId: string): Promise<void> {
  await db.deleteFrom('assets').where('embedding_id', '=', embeddingId).execute();
}

export async function updateAssetRow(
  db: Executor,
  embeddingId: string,
  assetId: string,
  changes: Pick<AssetRow, 'name' | 'data'>,
): Promise<void> {
  await db.updateTable('assets').set(changes).where('embedding_id', '=', embeddingId).where('id', '=', assetId).execute();
}

export async function deleteAssetRow(db: Executor, embeddingId: string, assetId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('assets')
    .where('embedding_id', '=', embeddingId)
    .where('id', '=', assetId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function assetStats(db: Executor, embeddingId: string): Promise<{ count: number; maxPosition: number }> {
  const row = await db
    .selectFrom('assets')
    .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('position').as('max')])
    .where('embedding_id', '=', embeddingId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), maxPosition: row.max === null ? -1 : Number(row.max) };
}
