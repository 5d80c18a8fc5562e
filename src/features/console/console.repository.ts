import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { ConsoleSessionRow, ConsoleSessionTable } from './console.table.js';

export async function insertSession(db: Executor, row: ConsoleSessionTable): Promise<void> {
  await db.insertInto('console_sessions').values(row).execute();
}

/** The session with whether its client (if any) is still active, in one query. */
export async function findSession(
  db: Executor,
  tokenHash: string,
): Promise<(ConsoleSessionRow & { client_active: number | null }) | undefined> {
  return db
    .selectFrom('console_sessions as s')
    .leftJoin('clients as c', 'c.id', 's.client_id')
    .selectAll('s')
    .select('c.active as client_active')
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(db: Executor, tokenHash: string, now: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Sessions past their absolute expiry; run on each sign-in, so the table stays small without a timer. */
export async function deleteExpiredSessions(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('expires_at', '<=', now).execute();
}

/** Failures of `key` in the window that started after `since` (older windows count as none). */
export async function recentFailures(db: Executor, key: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('console_login_failures')
    .select('failures')
    .where('key', '=', key)
    .where('window_start', '>', since)
    .executeTakeFirst();
  return toInt(row?.failures);
}

/** Counts one failure atomically (one statement, so concurrent processes cannot lose one). */
export async function addFailure(db: Executor, key: string, now: string, since: string): Promise<void> {
  await db
    .insertInto('console_login_failures')
    .values({ key, failures: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // A window older than `since` starts over.
        failures: sql`case when console_login_failures.window_start > ${since} then console_login_failures.failures + 1 else 1 end`,
        window_start: sql`case when console_login_failures.window_start > ${since} then console_login_failures.window_start else ${now} end`,
      }),
    )
    .execute();
}

export async function clearFailures(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('console_login_failures').where('key', '=', key).execute();
}
