import type { Engine, Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { ClientRow } from '../clients/clients.table.js';
import type { DomainRow, DomainRowUpdate, NewDomainRow } from './domains.table.js';

/**
 * Reads the client and locks its row until the transaction ends, so two concurrent domain creations
 * cannot both pass the quota check. PostgreSQL: SELECT … FOR UPDATE. SQLite has a single writer per
 * database and better-sqlite3 serialises transactions, so a plain read is enough there.
 */
export async function lockClient(
  trx: Executor,
  engine: Engine,
  clientId: string,
): Promise<ClientRow | undefined> {
  const query = trx.selectFrom('clients').selectAll().where('id', '=', clientId);
  return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export async function countDomains(db: Executor, clientId: string): Promise<{ total: number; whitelabel: number }> {
  const row = await db
    .selectFrom('domains')
    .select((eb) => [eb.fn.countAll().as('total'), eb.fn.sum('whitelabel').as('whitelabel')])
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return { total: toInt(row.total), whitelabel: toInt(row.whitelabel) };
}

export async function insertDomain(db: Executor, row: NewDomainRow): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

/** A domain only ever by (client, id): another client's domain id is simply not found. */
export async function findDomain(db: Executor, clientId: string, domainId: string): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('id', '=', domainId)
    .executeTakeFirst();
}

export async function findDomainByName(
  db: Executor,
  clientId: string,
  name: string,
  path: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('name', '=', name)
    .where('path', '=', path)
    .executeTakeFirst();
}

export async function listDomainRows(db: Executor, clientId: string): Promise<DomainRow[]> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateDomainRow(
  db: Executor,
  clientId: string,
  domainId: string,
  changes: DomainRowUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set(changes)
    .where('client_id', '=', clientId)
    .where('id', '=', domainId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteDomainRow(db: Executor, clientId: string, domainId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('domains')
    .where('client_id', '=', clientId)
    .where('id', '=', domainId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function clientExists(db: Executor, clientId: string): Promise<boolean> {
  return (await db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst()) !== undefined;
}

/**
 * Whether any domain (of any client) has this id: domain ids are unique across the instance, since the
 * snippet names the domain by id. Answers only yes or no, never whose it is.
 */
export async function domainIdTaken(db: Executor, domainId: string): Promise<boolean> {
  return (await db.selectFrom('domains').select('id').where('id', '=', domainId).executeTakeFirst()) !== undefined;
}

/** The ids among `ids` that are domains (of any client: the agency's account content spans clients). */
export async function existingDomainIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('domains').select('id').where('id', 'in', ids.slice(i, i + 500)).execute();
    rows.forEach((r) => found.add(r.id));
  }
  return found;
}

/** Raises the configuration revision of the given domains, or of every domain: their widgets are rebuilt. */
export async function bumpConfigRevisions(db: Executor, ids: readonly string[] | 'all', now: string): Promise<void> {
  const update = () => db.updateTable('domains').set((eb) => ({ config_revision: eb('config_revision', '+', 1), updated_at: now }));
  if (ids === 'all') {
    await update().execute();
    return;
  }
  for (let i = 0; i < ids.length; i += 500) await update().where('id', 'in', ids.slice(i, i + 500)).execute();
}

/** A domain's stored settings by its id alone, for public endpoints that name the domain (video previews). */
export async function findDomainSettingsById(db: Executor, domainId: string): Promise<string | undefined> {
  const row = await db.selectFrom('domains').select('settings').where('id', '=', domainId).executeTakeFirst();
  return row?.settings;
}
