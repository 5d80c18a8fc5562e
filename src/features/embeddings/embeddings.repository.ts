import type { Executor } from '../../db/database.js';
import type { EmbeddingRow } from './embeddings.table.js';

/** The domain's embeddings, resolved through client → domain in one query: another client's domain yields none. */
function scoped(db: Executor, clientId: string, domainId: string) {
  return db
    .selectFrom('embeddings as e')
    .innerJoin('domains as d', 'd.id', 'e.domain_id')
    .selectAll('e')
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', domainId);
}

export async function listScopedEmbeddingRows(db: Executor, clientId: string, domainId: string): Promise<EmbeddingRow[]> {
  return scoped(db, clientId, domainId)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
}

export async function findScopedEmbeddingRow(
  db: Executor,
  clientId: string,
  domainId: string,
  embeddingId: string,
): Promise<EmbeddingRow | undefined> {
  return scoped(db, clientId, domainId).where('e.id', '=', embeddingId).executeTakeFirst();
}


/** Inside a domain transaction, where the domain is already resolved for its client. */
export async function findEmbeddingRow(
  db: Executor,
  domainId: string,
  embeddingId: string,
): Promise<EmbeddingRow | undefined> {
  return db
    .selectFrom('embeddings')
    .selectAll()
    .where('domain_id', '=', domainId)
    .where('id', '=', embeddingId)
    .executeTakeFirst();
}

export async function listEmbeddingRows(db: Executor, domainId: string): Promise<EmbeddingRow[]> {
  return db
    .selectFrom('embeddings')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countEmbeddings(db: Executor, domainId: string): Promise<number> {
  const row = await db
    .selectFrom('embeddings')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('domain_id', '=', domainId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEmbeddingRow(db: Executor, row: EmbeddingRow): Promise<void> {
  await db.insertInto('embeddings').values(row).execute();
}

export async function updateEmbeddingRow(
  db: Executor,
  domainId: string,
  embeddingId: string,
  changes: Partial<Omit<EmbeddingRow, 'id' | 'domain_id'>>,
): Promise<void> {
  await db
    .updateTable('embeddings')
    .set(changes)
    .where('domain_id', '=', domainId)
    .where('id', '=', embeddingId)
    .execute();
}

export async function deleteEmbeddingRow(db: Executor, domainId: string, embeddingId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('embeddings')
    .where('domain_id', '=', domainId)
    .where('id', '=', embeddingId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
