import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { ClientRow, ClientRowUpdate, NewClientRow } from './clients.table.js';

export async function insertClient(db: Executor, row: NewClientRow): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

export async function findClientById(db: Executor, id: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findClientByUsername(db: Executor, username: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('username_key', '=', username.toLowerCase()).executeTakeFirst();
}

export async function findClientByApiKey(db: Executor, apiKey: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('api_key', '=', apiKey).executeTakeFirst();
}

export async function findClientByDomainApiKeyHash(db: Executor, hash: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('domain_api_key_hash', '=', hash).executeTakeFirst();
}

/** Oldest client whose e-mail address matches (case-insensitively). */
export async function findClientByEmail(db: Executor, email: string): Promise<ClientRow | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email_address']), '=', email.toLowerCase()))
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

export async function listClientRows(db: Executor): Promise<ClientRow[]> {
  return db.selectFrom('clients').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function updateClientRow(db: Executor, id: string, changes: ClientRowUpdate): Promise<boolean> {
  const result = await db.updateTable('clients').set(changes).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Everything the client owns goes with it through ON DELETE CASCADE, in the same statement. */
export async function deleteClientRow(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('clients').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export interface DomainUsage {
  clientId: string;
  name: string;
  whitelabel: boolean;
  calls: number;
}

/** Per-domain usage for one client (or all), with this month's call counts, in one query. */
export async function domainUsage(db: Executor, month: string, clientId?: string): Promise<DomainUsage[]> {
  let query = db
    .selectFrom('domains as d')
    .leftJoin('call_counts as cc', (join) => join.onRef('cc.domain_id', '=', 'd.id').on('cc.month', '=', month))
    .select(['d.client_id', 'd.name', 'd.whitelabel', 'cc.count'])
    .orderBy('d.created_at')
    .orderBy('d.id');
  if (clientId !== undefined) query = query.where('d.client_id', '=', clientId);
  const rows = await query.execute();
  return rows.map((r) => ({ clientId: r.client_id, name: r.name, whitelabel: r.whitelabel === 1, calls: toInt(r.count) }));
}

/** Raises the configuration revision of every domain of the client (its feature flags changed). */
export async function bumpConfigRevisionsOfClient(db: Executor, clientId: string, now: string): Promise<void> {
  await db
    .updateTable('domains')
    .set((eb) => ({ config_revision: eb('config_revision', '+', 1), updated_at: now }))
    .where('client_id', '=', clientId)
    .execute();
}
