import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { HandoverTokenRow, HandoverTokenTable } from './consent-handover.table.js';

/** The domain a public hand-over call names, found by (client api key, domain id) in one query. */
export async function findHandoverDomain(db: Executor, apiKey: string, domainId: string) {
  return db
    .selectFrom('domains as d')
    .innerJoin('clients as c', 'c.id', 'd.client_id')
    .select(['d.id', 'd.name', 'd.settings', 'd.legal_revision', 'd.scheme', 'c.features'])
    .where('c.api_key', '=', apiKey)
    .where('d.id', '=', domainId)
    .executeTakeFirst();
}

export async function embeddingIdsOf(db: Executor, domainId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('embeddings').select('id').where('domain_id', '=', domainId).execute();
  return new Set(rows.map((r) => r.id));
}

/** Tokens issued to this address since `since` (Unix seconds), in every process: the per-address limit. */
export async function countIssuedFrom(db: Executor, addressHash: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('handover_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('address_hash', '=', addressHash)
    .where('issued_at', '>', since)
    .executeTakeFirstOrThrow();
  return toInt(row.n);
}

/** Tokens of one ucid that can still be redeemed. */
export async function countLiveFor(db: Executor, domainId: string, ucid: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('handover_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('domain_id', '=', domainId)
    .where('ucid', '=', ucid)
    .where('redeemed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return toInt(row.n);
}

export async function insertToken(db: Executor, row: Insertable<HandoverTokenTable>): Promise<void> {
  await db.insertInto('handover_tokens').values(row).execute();
}

/** Rows that expired more than a minute ago: nothing can use them any more. */
export async function deleteExpiredTokens(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('handover_tokens').where('expires_at', '<', before).execute();
}

/**
 * Marks a live token of this domain redeemed and returns it, in one statement: of several concurrent
 * redeems (in any number of processes) exactly one gets the row, the others nothing.
 */
export async function consumeToken(
  db: Executor,
  tokenHash: string,
  domainId: string,
  now: number,
): Promise<Pick<HandoverTokenRow, 'ucid' | 'target_origin' | 'address_hash' | 'decision'> | undefined> {
  return db
    .updateTable('handover_tokens')
    .set({ redeemed_at: now })
    .where('token_hash', '=', tokenHash)
    .where('domain_id', '=', domainId)
    .where('redeemed_at', 'is', null)
    .where('expires_at', '>=', now)
    .returning(['ucid', 'target_origin', 'address_hash', 'decision'])
    .executeTakeFirst();
}
