import type SQLite from 'better-sqlite3';
import type { Insertable } from 'kysely';
import type pg from 'pg';
import { sqliteHandleOf } from '../../db/connect.js';
import type { Db, Engine, Executor } from '../../db/database.js';
import {
  headRowToHead,
  newHeadRow,
  type Head,
  type NewBlockRow,
} from '../consent-log/consent-log.blocks.repository.js';
import type { ConsentLogHeadRow } from '../consent-log/consent-log.table.js';
import type { ConsentRecordTable } from '../consent-log/consent-log.table.js';
import type { BlockSnapshotRef } from '../consent-log/consent-log.snapshots.repository.js';

export type NewRecordRow = Insertable<ConsentRecordTable>;

/** What one batch writes (planned by the service's `planAppend`). */
export interface AppendPlan {
  rows: NewRecordRow[];
  closedBlocks: NewBlockRow[];
  /** The heads after the append, by domain. */
  heads: Map<string, Head>;
  /** The snapshots the batch's records name, per block (consent-log.snapshots.repository.ts). */
  snapshotRefs: BlockSnapshotRef[];
}

/** Statements prepared once per SQLite handle, by their text: the write path's hot statements. */
const preparedStatements = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

function prepared<P extends unknown[] | object, R = unknown>(sqlite: SQLite.Database, text: string): SQLite.Statement<P, R> {
  let cache = preparedStatements.get(sqlite);
  if (!cache) preparedStatements.set(sqlite, (cache = new Map()));
  let statement = cache.get(text);
  if (!statement) cache.set(text, (statement = sqlite.prepare(text)));
  return statement as SQLite.Statement<P, R>;
}

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
  pool: pg.Pool,
  expected: ReadonlyMap<string, Head>,
  next: ReadonlyMap<string, Head>,
  rows: readonly NewRecordRow[],
  blocks: readonly NewBlockRow[],
  refs: readonly BlockSnapshotRef[] = [],
): Promise<Set<string>> {
  const heads = [...next.values()];
  const was = (h: Head) => expected.get(h.domainId)!;
  const values = [
    heads.map((h) => h.domainId), heads.map((h) => was(h).lastSeq), heads.map((h) => was(h).blockNo),
    heads.map((h) => was(h).headHash), heads.map((h) => h.blockNo), heads.map((h) => h.blockFirstSeq),
    heads.map((h) => h.blockCount), heads.map((h) => h.blockFirstTs), heads.map((h) => h.blockLastTs),
    heads.map((h) => h.blockPrevHash), heads.map((h) => h.blockOpenedAt), heads.map((h) => h.lastSeq),
    heads.map((h) => h.headHash),
    blocks.map((b) => b.domain_id), blocks.map((b) => b.block_no), blocks.map((b) => b.first_seq),
    blocks.map((b) => b.last_seq), blocks.map((b) => b.record_count), blocks.map((b) => b.first_ts),
    blocks.map((b) => b.last_ts), blocks.map((b) => b.prev_hash), blocks.map((b) => b.head_hash),
    blocks.map((b) => b.opened_at), blocks.map((b) => b.closed_at),
    rows.map((r) => r.domain_id), rows.map((r) => r.seq), rows.map((r) => r.block_no), rows.map((r) => r.ucid),
    rows.map((r) => r.ts), rows.map((r) => r.record), rows.map((r) => r.hash),
    refs.map((r) => r.domain_id), refs.map((r) => r.block_no), refs.map((r) => r.hash),
  ];
  // A named statement is parsed and planned once per pooled connection, not once per batch.
  const result = await pool.query<{ domain_id: string }>({ name: 'placet_consent_append', text: APPEND_SQL, values });
  return new Set(result.rows.map((r) => r.domain_id));
}

/** The statement behind appendIfHeadsUnchanged; its parameters are arrays, one per column. */
const APPEND_SQL = `
  with h as (
    update consent_log_heads as h set
      block_no = v.block_no, block_first_seq = v.block_first_seq, block_count = v.block_count,
      block_first_ts = v.block_first_ts, block_last_ts = v.block_last_ts, block_prev_hash = v.block_prev_hash,
      block_opened_at = v.block_opened_at, last_seq = v.last_seq, head_hash = v.head_hash
    from unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::int[], $6::bigint[], $7::int[], $8::bigint[],
                $9::bigint[], $10::text[], $11::bigint[], $12::bigint[], $13::text[])
      as v(domain_id, expected_seq, expected_block, expected_hash, block_no, block_first_seq, block_count, block_first_ts,
           block_last_ts, block_prev_hash, block_opened_at, last_seq, head_hash)
    where h.domain_id = v.domain_id and h.last_seq = v.expected_seq and h.block_no = v.expected_block
      and h.head_hash = v.expected_hash
    returning h.domain_id
  ), closed as (
    insert into consent_log_blocks (domain_id, block_no, state, reason, first_seq, last_seq, record_count,
                                    first_ts, last_ts, prev_hash, head_hash, opened_at, closed_at)
    select b.domain_id, b.block_no, 'archived', 'size', b.first_seq, b.last_seq, b.record_count,
           b.first_ts, b.last_ts, b.prev_hash, b.head_hash, b.opened_at, b.closed_at
    from unnest($14::text[], $15::int[], $16::bigint[], $17::bigint[], $18::int[], $19::bigint[], $20::bigint[],
                $21::text[], $22::text[], $23::bigint[], $24::bigint[])
      as b(domain_id, block_no, first_seq, last_seq, record_count, first_ts, last_ts, prev_hash, head_hash,
           opened_at, closed_at)
    where b.domain_id in (select domain_id from h)
  ), appended as (
    insert into consent_records (domain_id, seq, block_no, ucid, ts, record, hash)
    select r.domain_id, r.seq, r.block_no, r.ucid, r.ts, r.record, r.hash
    from unnest($25::text[], $26::bigint[], $27::int[], $28::text[], $29::bigint[], $30::text[], $31::text[])
      as r(domain_id, seq, block_no, ucid, ts, record, hash)
    where r.domain_id in (select domain_id from h)
  ), refs as (
    insert into consent_log_block_snapshots (domain_id, block_no, hash)
    select s.domain_id, s.block_no, s.hash
    from unnest($32::text[], $33::int[], $34::text[]) as s(domain_id, block_no, hash)
    where s.domain_id in (select domain_id from h)
    on conflict do nothing
  )
  select domain_id from h`;

export interface DomainRevisionRow {
  id: string;
  name: string;
  config_revision: number;
  api_key: string;
}

/**
 * Name, configuration revision and client key of each domain, read once per batch to validate it. The
 * usual batch names one domain; on SQLite that case runs a statement prepared once (Kysely would compile
 * and prepare it anew for every batch).
 */
export async function domainRevisions(db: Db, domainIds: readonly string[]): Promise<DomainRevisionRow[]> {
  const sqlite = sqliteHandleOf(db);
  if (sqlite && domainIds.length === 1) {
    const statement = prepared<[string], DomainRevisionRow>(
      sqlite,
      'select d.id, d.name, d.config_revision, c.api_key from domains d join clients c on c.id = d.client_id where d.id = ?',
    );
    const row = await db.connection().execute(async () => statement.get(domainIds[0]!));
    return row ? [row] : [];
  }
  return db
    .selectFrom('domains as d')
    .innerJoin('clients as c', 'c.id', 'd.client_id')
    .select(['d.id', 'd.name', 'd.config_revision', 'c.api_key'])
    .where('d.id', 'in', domainIds)
    .execute();
}

const SELECT_HEAD = 'select * from consent_log_heads where domain_id = ?';
const INSERT_HEAD = `insert into consent_log_heads (domain_id, block_no, block_first_seq, block_count, block_first_ts,
    block_last_ts, block_prev_hash, block_opened_at, last_seq, head_hash)
  values (@domain_id, @block_no, @block_first_seq, @block_count, @block_first_ts, @block_last_ts, @block_prev_hash,
    @block_opened_at, @last_seq, @head_hash)`;
const INSERT_RECORD =
  'insert into consent_records (domain_id, seq, block_no, ucid, ts, record, hash) values (?, ?, ?, ?, ?, ?, ?)';
const INSERT_BLOCK = `insert into consent_log_blocks (domain_id, block_no, state, reason, first_seq, last_seq, record_count,
    first_ts, last_ts, prev_hash, head_hash, opened_at, closed_at, expired_at)
  values (@domain_id, @block_no, @state, @reason, @first_seq, @last_seq, @record_count, @first_ts, @last_ts,
    @prev_hash, @head_hash, @opened_at, @closed_at, @expired_at)`;
const INSERT_SNAPSHOT_REF =
  'insert into consent_log_block_snapshots (domain_id, block_no, hash) values (?, ?, ?) on conflict do nothing';
const UPDATE_HEAD = `update consent_log_heads set block_no = @blockNo, block_first_seq = @blockFirstSeq,
    block_count = @blockCount, block_first_ts = @blockFirstTs, block_last_ts = @blockLastTs,
    block_prev_hash = @blockPrevHash, block_opened_at = @blockOpenedAt, last_seq = @lastSeq, head_hash = @headHash
  where domain_id = @domainId`;

/**
 * SQLite: the whole append (read the heads, plan, insert, move the heads) as one BEGIN IMMEDIATE
 * transaction of statements prepared once. It is the same work Kysely would do, without compiling and
 * preparing a differently shaped multi-row insert for every batch, which cost about a fifth of the
 * ingest path's CPU. Kysely's connection lock is held meanwhile, so no Kysely transaction on the same
 * connection is open around it; a second process waits on the database's write lock (busy_timeout).
 */
export async function appendWithStatements(
  db: Db,
  sqlite: SQLite.Database,
  domainIds: readonly string[],
  now: number,
  plan: (heads: Map<string, Head>) => AppendPlan,
): Promise<Map<string, Head>> {
  const selectHead = prepared<[string], ConsentLogHeadRow>(sqlite, SELECT_HEAD);
  const insertHead = prepared<[object]>(sqlite, INSERT_HEAD);
  const insertRecord = prepared<unknown[]>(sqlite, INSERT_RECORD);
  const insertBlock = prepared<[object]>(sqlite, INSERT_BLOCK);
  const updateHead = prepared<[object]>(sqlite, UPDATE_HEAD);
  const insertSnapshotRef = prepared<unknown[]>(sqlite, INSERT_SNAPSHOT_REF);
  const run = sqlite.transaction(() => {
    const heads = new Map<string, Head>();
    for (const id of domainIds) {
      let row = selectHead.get(id);
      if (!row) {
        insertHead.run(newHeadRow(id, now));
        row = selectHead.get(id)!;
      }
      heads.set(id, headRowToHead(row));
    }
    const planned = plan(heads);
    for (const r of planned.rows) insertRecord.run(r.domain_id, r.seq, r.block_no, r.ucid, r.ts, r.record, r.hash);
    for (const s of planned.snapshotRefs) insertSnapshotRef.run(s.domain_id, s.block_no, s.hash);
    for (const b of planned.closedBlocks) insertBlock.run({ ...b, expired_at: b.expired_at ?? null });
    for (const head of planned.heads.values()) updateHead.run(head);
    return planned.heads;
  });
  return db.connection().execute(async () => {
    if (sqlite.inTransaction) throw new Error('a transaction is already open on the SQLite connection');
    return run.immediate();
  });
}
