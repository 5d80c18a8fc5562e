import type { Executor } from '../../db/database.js';
import type { ThemeRow } from './themes.table.js';

/** The domain's themes, resolved through client → domain in one query: another client's domain yields none. */
function scoped(db: Executor, clientId: string, domainId: string) {
  return db
    .selectFrom('themes as t')
    .innerJoin('domains as d', 'd.id', 't.domain_id')
    .selectAll('t')
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', domainId);
}

export async function listScopedThemeRows(db: Executor, clientId: string, domainId: string): Promise<ThemeRow[]> {
  return scoped(db, clientId, domainId)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
}

export async function findScopedThemeRow(
  db: Executor,
  clientId: string,
  domainId: string,
  themeId: string,
): Promise<ThemeRow | undefined> {
  return scoped(db, clientId, domainId).where('t.id', '=', themeId).executeTakeFirst();
}


export async function listThemeRows(db: Executor, domainId: string): Promise<ThemeRow[]> {
  return db.selectFrom('themes').selectAll().where('domain_id', '=', domainId).orderBy('created_at').orderBy('id').execute();
}

export async function insertThemeRow(db: Executor, row: ThemeRow): Promise<void> {
  await db.insertInto('themes').values(row).execute();
}

export async function updateThemeRow(
  db: Executor,
  domainId: string,
  themeId: string,
  changes: Partial<Pick<ThemeRow, 'name' | 'is_default' | 'data' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('themes').set(changes).where('domain_id', '=', domainId).where('id', '=', themeId).execute();
}

/** Unmarks the current default; runs before another theme is marked (the partial unique index). */
export async function clearDefaultTheme(db: Executor, domainId: string): Promise<void> {
  await db.updateTable('themes').set({ is_default: 0 }).where('domain_id', '=', domainId).where('is_default', '=', 1).execute();
}

export async function deleteThemeRow(db: Executor, domainId: string, themeId: string): Promise<boolean> {
  const result = await db.deleteFrom('themes').where('domain_id', '=', domainId).where('id', '=', themeId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
