import { sql, type Insertable } from 'kysely';
import type { Db, Engine, Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import { genesisHash } from './consent-log.record.js';
import type { ConsentLogBlockTable, ConsentLogHeadRow } from './consent-log.table.js';

/** A domain's chain head and the live summary of its open block, with numbers normalised. */
export interface Head {
  domainId: string;
  blockNo: number;
  blockFirstSeq: number;
  blockCount: number;
  blockFirstTs: number | null;
  blockLastTs: number | null;
  blockPrevHash: string;
  blockOpenedAt: number;
  lastSeq: number;
  headHash: string;
}

const nullableInt = (v: unknown) => (v === null || v === undefined ? null : toInt(v));

export function headRowToHead(row: ConsentLogHeadRow): Head {
  return {
    domainId: row.domain_id,
    blockNo: row.block_no,
    blockFirstSeq: toInt(row.block_first_seq),
    blockCount: row.block_count,
    blockFirstTs: nullableInt(row.block_first_ts),
    blockLastTs: nullableInt(row.block_last_ts),
    blockPrevHash: row.block_prev_hash,
    blockOpenedAt: toInt(row.block_opened_at),
    lastSeq: toInt(row.last_seq),
    headHash: row.head_hash,
  };
}

/**
 * A write transaction. SQLite: BEGIN IMMEDIATE takes the write lock up front, so a second process on the
 * same file waits (busy_timeout) instead of failing on a read-to-write upgrade. PostgreSQL: a plain BEGIN;
 * the per-domain head rows are locked explicitly with `lockHeads`.
 */
export async function writeTransaction<T>(db: Db, engine: Engine, fn: (trx: Executor) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql.raw(engine === 'sqlite' ? 'begin immediate' : 'begin').execute(conn);
    try {
      const result = await fn(conn);
      await sql.raw('commit').execute(conn);
      return result;
    } catch (err) {
      await sql.raw('rollback').execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Locks the heads of `domainIds` until the transaction ends (PostgreSQL: FOR UPDATE, in id order so two
 * batches never deadlock; SQLite: the transaction already holds the database's single write lock).
 * Domains without a head yet get one first.
 */
export async function lockHeads(
  trx: Executor,
  engine: Engine,
  domainIds: readonly string[],
  now: number,
): Promise<Map<string, Head>> {
  const select = (ids: readonly string[]) => {
    const query = trx.selectFrom('consent_log_heads').selectAll().where('domain_id', 'in', ids).orderBy('domain_id');
    return (engine === 'postgres' ? query.forUpdate() : query).execute();
  };
  const heads = new Map((await select(domainIds)).map((r) => [r.domain_id, headRowToHead(r)]));
  const missing = domainIds.filter((id) => !heads.has(id));
  if (missing.length > 0) {
    // Two processes may both see the head missing; ON CONFLICT DO NOTHING makes the second wait and skip.
    await trx
      .insertInto('consent_log_heads')
      .values(missing.map((id) => newHeadRow(id, now)))
      .onConflict((oc) => oc.column('domain_id').doNothing())
      .execute();
    for (const r of await select(missing)) heads.set(r.domain_id, headRowToHead(r));
  }
  return heads;
}

/** Heads without locking them (the optimistic write path checks them in its own statement). */
export async function readHeads(db: Executor, domainIds: readonly string[], now: number): Promise<Map<string, Head>> {
  const select = async (ids: readonly string[]) =>
    (await db.selectFrom('consent_log_heads').selectAll().where('domain_id', 'in', ids).execute()).map(headRowToHead);
  const heads = new Map((await select(domainIds)).map((h) => [h.domainId, h]));
  const missing = domainIds.filter((id) => !heads.has(id));
  if (missing.length > 0) {
    await db
      .insertInto('consent_log_heads')
      .values(missing.map((id) => newHeadRow(id, now)))
      .onConflict((oc) => oc.column('domain_id').doNothing())
      .execute();
    for (const h of await select(missing)) heads.set(h.domainId, h);
  }
  return heads;
}

export function newHeadRow(domainId: string, now: number) {
  const genesis = genesisHash(domainId);
  return {
    domain_id: domainId,
    block_no: 1,
    block_first_seq: 1,
    block_count: 0,
    block_first_ts: null,
    block_last_ts: null,
    block_prev_hash: genesis,
    block_opened_at: now,
    last_seq: 0,
    head_hash: genesis,
  };
}

export async function saveHead(trx: Executor, head: Head): Promise<void> {
  await trx
    .updateTable('consent_log_heads')
    .set({
      block_no: head.blockNo,
      block_first_seq: head.blockFirstSeq,
      block_count: head.blockCount,
      block_first_ts: head.blockFirstTs,
      block_last_ts: head.blockLastTs,
      block_prev_hash: head.blockPrevHash,
      block_opened_at: head.blockOpenedAt,
      last_seq: head.lastSeq,
      head_hash: head.headHash,
    })
    .where('domain_id', '=', head.domainId)
    .execute();
}

export type NewBlockRow = Insertable<ConsentLogBlockTable>;

/** The summary row of the head's open block, closed now, and the head with a new, empty open block. */
export function closeBlock(
  head: Head,
  reason: ConsentLogBlockTable['reason'],
  now: number,
): { block: NewBlockRow; next: Head } {
  return {
    block: {
      domain_id: head.domainId,
      block_no: head.blockNo,
      state: 'archived',
      reason,
      first_seq: head.blockFirstSeq,
      last_seq: head.lastSeq,
      record_count: head.blockCount,
      first_ts: head.blockFirstTs,
      last_ts: head.blockLastTs,
      prev_hash: head.blockPrevHash,
      head_hash: head.headHash,
      opened_at: head.blockOpenedAt,
      closed_at: now,
      expired_at: null,
    },
    next: {
      ...head,
      blockNo: head.blockNo + 1,
      blockFirstSeq: head.lastSeq + 1,
      blockCount: 0,
      blockFirstTs: null,
      blockLastTs: null,
      blockPrevHash: head.headHash,
      blockOpenedAt: now,
    },
  };
}

export async function insertClosedBlocks(trx: Executor, rows: readonly NewBlockRow[]): Promise<void> {
  if (rows.length > 0) await trx.insertInto('consent_log_blocks').values([...rows]).execute();
}

/**
 * Closes the head's open block: stores its summary as an archived block and returns the head with a new,
 * empty open block that continues the chain. The caller saves the head in the same transaction.
 */
export async function closeOpenBlock(
  trx: Executor,
  head: Head,
  reason: ConsentLogBlockTable['reason'],
  now: number,
): Promise<Head> {
  const { block, next } = closeBlock(head, reason, now);
  await insertClosedBlocks(trx, [block]);
  return next;
}

/** Retention: archived blocks whose newest record is older than `cutoff` (Unix seconds). */
export async function listExpiredBlocks(db: Executor, cutoff: number) {
  const rows = await db
    .selectFrom('consent_log_blocks')
    .select(['domain_id', 'block_no'])
    .where('state', '=', 'archived')
    .where('last_ts', '<', cutoff)
    .execute();
  return rows.map((r) => ({ domainId: r.domain_id, blockNo: r.block_no }));
}

/** Retention: domains whose open block is non-empty and entirely older than `cutoff`. */
export async function listStaleHeads(db: Executor, cutoff: number): Promise<string[]> {
  const rows = await db
    .selectFrom('consent_log_heads')
    .select('domain_id')
    .where('block_count', '>', 0)
    .where('block_last_ts', '<', cutoff)
    .execute();
  return rows.map((r) => r.domain_id);
}

/** Retention: marks an archived block expired (its summary and head hash stay for the chain). */
export async function markBlockExpired(trx: Executor, domainId: string, blockNo: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('consent_log_blocks')
    .set({ state: 'expired', expired_at: now })
    .where('domain_id', '=', domainId)
    .where('block_no', '=', blockNo)
    .where('state', '=', 'archived')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Expired blocks that still have records (a retention run was interrupted). */
export async function listExpiredBlocksWithRecords(db: Executor) {
  const rows = await db
    .selectFrom('consent_log_blocks as b')
    .select(['b.domain_id', 'b.block_no', 'b.first_seq', 'b.last_seq'])
    .where('b.state', '=', 'expired')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('consent_records as r')
          .select('r.seq')
          .whereRef('r.domain_id', '=', 'b.domain_id')
          .whereRef('r.block_no', '=', 'b.block_no'),
      ),
    )
    .execute();
  return rows.map((r) => ({
    domainId: r.domain_id,
    blockNo: r.block_no,
    firstSeq: toInt(r.first_seq),
    lastSeq: toInt(r.last_seq),
  }));
}

/**
 * The only statement that deletes consent records: retention, for a block already marked expired, in
 * seq ranges of `chunk` so one statement never holds the write lock for long.
 */
export async function deleteExpiredBlockRecords(
  db: Executor,
  block: { domainId: string; blockNo: number; firstSeq: number; lastSeq: number },
  chunk = 5000,
): Promise<number> {
  let deleted = 0;
  for (let from = block.firstSeq; from <= block.lastSeq; from += chunk) {
    const result = await db
      .deleteFrom('consent_records')
      .where('domain_id', '=', block.domainId)
      .where('seq', '>=', from)
      .where('seq', '<', Math.min(from + chunk, block.lastSeq + 1))
      .where('block_no', '=', block.blockNo)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}
