import type { Executor } from '../../db/database.js';
import type { AccountTextRow, AccountThemeRow } from './account.table.js';

/** Account content belongs to the agency (the Hosting key), not to a client: no client scope applies. */
export async function listAccountThemeRows(db: Executor): Promise<AccountThemeRow[]> {
  return db.selectFrom('account_themes').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function findAccountThemeRow(db: Executor, id: string): Promise<AccountThemeRow | undefined> {
  return db.selectFrom('account_themes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAccountThemeRow(db: Executor, row: AccountThemeRow): Promise<void> {
  await db.insertInto('account_themes').values(row).execute();
}

export async function updateAccountThemeRow(db: Executor, id: string, changes: Partial<Omit<AccountThemeRow, 'id' | 'created_at'>>): Promise<void> {
  await db.updateTable('account_themes').set(changes).where('id', '=', id).execute();
}

export async function deleteAccountThemeRow(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('account_themes').where('id', '=', id).execute();
}

export async function listAccountTextRows(db: Executor): Promise<AccountTextRow[]> {
  return db.selectFrom('account_texts').selectAll().orderBy('language').execute();
}

export async function findAccountTextRow(db: Executor, language: string): Promise<AccountTextRow | undefined> {
  return db.selectFrom('account_texts').selectAll().where('language', '=', language).executeTakeFirst();
}

export async function upsertAccountTextRow(db: Executor, row: AccountTextRow): Promise<void> {
  await db
    .insertInto('account_texts')
    .values(row)
    .onConflict((oc) => oc.column('language').doUpdateSet({ texts: row.texts, updated_at: row.updated_at }))
    .execute();
}

export async function deleteAccountTextRow(db: Executor, language: string): Promise<boolean> {
  const result = await db.deleteFrom('account_texts').where('language', '=', language).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
