import type { Executor } from '../../db/database.js';
import type { LocaleRow } from './locales.table.js';

/** The domain's locales, resolved through client → domain in one query: another client's domain yields none. */
function scoped(db: Executor, clientId: string, domainId: string) {
  return db
    .selectFrom('locales as l')
    .innerJoin('domains as d', 'd.id', 'l.domain_id')
    .selectAll('l')
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', domainId);
}

export async function listScopedLocaleRows(db: Executor, clientId: string, domainId: string): Promise<LocaleRow[]> {
  return scoped(db, clientId, domainId)
    .orderBy('l.created_at')
    .orderBy('l.name')
    .execute();
}

export async function findScopedLocaleRow(
  db: Executor,
  clientId: string,
  domainId: string,
  name: string,
): Promise<LocaleRow | undefined> {
  return scoped(db, clientId, domainId).where('l.name', '=', name).executeTakeFirst();
}


export async function listLocaleRows(db: Executor, domainId: string): Promise<LocaleRow[]> {
  return db.selectFrom('locales').selectAll().where('domain_id', '=', domainId).orderBy('created_at').orderBy('name').execute();
}

export async function insertLocaleRow(db: Executor, row: LocaleRow): Promise<void> {
  await db.insertInto('locales').values(row).execute();
}

export async function updateLocaleRow(
  db: Executor,
  domainId: string,
  name: string,
  changes: Pick<LocaleRow, 'active' | 'texts' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('locales').set(changes).where('domain_id', '=', domainId).where('name', '=', name).execute();
}

export async function deleteLocaleRow(db: Executor, domainId: string, name: string): Promise<boolean> {
  const result = await db.deleteFrom('locales').where('domain_id', '=', domainId).where('name', '=', name).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
