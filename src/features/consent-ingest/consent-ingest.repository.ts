import { sql, type Insertable } from 'kysely';
import type { Engine, Executor } from '../../db/database.js';
import type { Head, NewBlockRow } from '../consent-log/consent-log.blocks.repository.js';
import type { ConsentRecordTable } from '../consent-log/consent-log.table.js';

export type NewRecordRow = Insertable<ConsentRecordTable>;

/** 7 columns × 1000 rows stays below both engines' bind-parameter limits (SQLite 32766, pg 65535). */
const ROWS_PER_STATEMENT = 1000;

/**
 * The write path only ever inserts consent records; nothing in this feature updates or deletes one
 * (docs/consent-log.md, "Append-only"). The heads it updates are the chain's bookkeeping, not records.
 */
export async function insertRecords(trx: Executor, rows: readonly NewRecordRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await trx.insertInto('consent_records').values(rows.slice(i, i + ROWS_PER_STATEMENT)).execute();
  }
}

/**
 * Whether the engine can append a batch in one statement that checks the heads it builds on (below).
 * SQLite cannot (no data-modifying CTEs), but its transactions cost no round trips.
 */
export const supportsSingleStatementAppend = (engine: Engine) => engine === 'postgres';

/**
 * PostgreSQL: appends a planned batch in ONE autocommit statement, one round trip. The head update only
 * applies where the head is still exactly the one the batch was chained onto (last_seq, block_no and
 * head_hash: an append moves the first and the last, closing a block the second); the records and closed
 * blocks of the other domains are not inserted. Returns the domains whose part was written. The row lock the UPDATE
 * takes serialises concurrent writers exactly like SELECT … FOR UPDATE, and the statement commits
 * (synchronous_commit) before it returns.
 */
export async function appendIfHeadsUnchanged(
  db: Executor,
  expected: ReadonlyMap<string, Head>,
  next: ReadonlyMap<string, Head>,
  rows: readonly NewRecordRow[],
  blocks: readonly NewBlockRow[],
): Promise<Set<string>> {
  const heads = [...next.values()];
  const col = <T>(list: readonly T[], pick: (x: T) => unknown) => list.map(pick);
  const result = await sql<{ domain_id: string }>`
    with h as (
      update consent_log_heads as h set
        block_no = v.block_no, block_first_seq = v.block_first_seq, block_count = v.block_count,
        block_first_ts = v.block_first_ts, block_last_ts = v.block_last_ts, block_prev_hash = v.block_prev_hash,
        block_opened_at = v.block_opened_at, last_seq = v.last_seq, head_hash = v.head_hash
      from unnest(
        ${col(heads, (x) => x.domainId)}::text[], ${col(heads, (x) => expected.get(x.domainId)!.lastSeq)}::bigint[],
        ${col(heads, (x) => expected.get(x.domainId)!.blockNo)}::int[], ${col(heads, (x) => expected.get(x.domainId)!.headHash)}::text[],
        ${col(heads, (x) => x.blockNo)}::int[],
        ${col(heads, (x) => x.blockFirstSeq)}::bigint[], ${col(heads, (x) => x.blockCount)}::int[],
        ${col(heads, (x) => x.blockFirstTs)}::bigint[], ${col(heads, (x) => x.blockLastTs)}::bigint[],
        ${col(heads, (x) => x.blockPrevHash)}::text[], ${col(heads, (x) => x.blockOpenedAt)}::bigint[],
        ${col(heads, (x) => x.lastSeq)}::bigint[], ${col(heads, (x) => x.headHash)}::text[]
      ) as v(domain_id, expected_seq, expected_block, expected_hash, block_no, block_first_seq, block_count, block_first_ts,
             block_last_ts, block_prev_hash, block_opened_at, last_seq, head_hash)
      where h.domain_id = v.domain_id and h.last_seq = v.expected_seq and h.block_no = v.expected_block
        and h.head_hash = v.expected_hash
      returning h.domain_id
    ), closed as (
      insert into consent_log_blocks (domain_id, block_no, state, reason, first_seq, last_seq, record_count,
                                      first_ts, last_ts, prev_hash, head_hash, opened_at, closed_at)
      select b.domain_id, b.block_no, 'archived', 'size', b.first_seq, b.last_seq, b.record_count,
             b.first_ts, b.last_ts, b.prev_hash, b.head_hash, b.opened_at, b.closed_at
      from unnest(
        ${col(blocks, (b) => b.domain_id)}::text[], ${col(blocks, (b) => b.block_no)}::int[],
        ${col(blocks, (b) => b.first_seq)}::bigint[], ${col(blocks, (b) => b.last_seq)}::bigint[],
        ${col(blocks, (b) => b.record_count)}::int[], ${col(blocks, (b) => b.first_ts)}::bigint[],
        ${col(blocks, (b) => b.last_ts)}::bigint[], ${col(blocks, (b) => b.prev_hash)}::text[],
        ${col(blocks, (b) => b.head_hash)}::text[], ${col(blocks, (b) => b.opened_at)}::bigint[],
        ${col(blocks, (b) => b.closed_at)}::bigint[]
      ) as b(domain_id, block_no, first_seq, last_seq, record_count, first_ts, last_ts, prev_hash, head_hash,
             opened_at, closed_at)
      where b.domain_id in (select domain_id from h)
    ), appended as (
      insert into consent_records (domain_id, seq, block_no, ucid, ts, record, hash)
      select r.domain_id, r.seq, r.block_no, r.ucid, r.ts, r.record, r.hash
      from unnest(
        ${col(rows, (r) => r.domain_id)}::text[], ${col(rows, (r) => r.seq)}::bigint[],
        ${col(rows, (r) => r.block_no)}::int[], ${col(rows, (r) => r.ucid)}::text[],
        ${col(rows, (r) => r.ts)}::bigint[], ${col(rows, (r) => r.record)}::text[], ${col(rows, (r) => r.hash)}::text[]
      ) as r(domain_id, seq, block_no, ucid, ts, record, hash)
      where r.domain_id in (select domain_id from h)
    )
    select domain_id from h`.execute(db);
  return new Set(result.rows.map((r) => r.domain_id));
}
