import type { Executor } from '../../db/database.js';
import type { PlaceholderRow } from './placeholders.table.js';

export async function listPlaceholderRows(db: Executor, domainId: string): Promise<PlaceholderRow[]> {
  return db
    .selectFrom('placeholders')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy('position')
    .orderBy('name')
    .execute();
}

/** The domain's placeholders, resolved through client → domain in one query: another client's domain yields none. */
function scoped(db: Executor, clientId: string, domainId: string) {
  return db
    .selectFrom('placeholders as p')
    .innerJoin('domains as d', 'd.id', 'p.domain_id')
    .selectAll('p')
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', domainId);
}

export async function listScopedPlaceholderRows(db: Executor, clientId: string, domainId: string): Promise<PlaceholderRow[]> {
  return scoped(db, clientId, domainId)
    .orderBy('p.position')
    .orderBy('p.name')
    .execute();
}

export async function findScopedPlaceholderRow(
  db: Executor,
  clientId: string,
  domainId: string,
  name: string,
): Promise<PlaceholderRow | undefined> {
  return scoped(db, clientId, domainId).where('p.name', '=', name).executeTakeFirst();
}


export async function insertPlaceholderRows(db: Executor, rows: PlaceholderRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('placeholders').values(rows).execute();
}

export async function updatePlaceholderValue(db: Executor, domainId: string, name: string, value: string): Promise<void> {
  await db.updateTable('placeholders').set({ value }).where('domain_id', '=', domainId).where('name', '=', name).execute();
}

export async function deletePlaceholderRows(db: Executor, domainId: string, name?: string): Promise<number> {
  let query = db.deleteFrom('placeholders').where('domain_id', '=', domainId);
  if (name !== undefined) query = query.where('name', '=', name);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
