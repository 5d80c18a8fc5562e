import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import { headRowToHead, type Head } from './consent-log.blocks.repository.js';
import type { ConsentLogBlockRow } from './consent-log.table.js';

/** Read side of the log: keyset pages over the primary key and prefix lookups over the ucid index. */

export interface Block {
  blockNo: number;
  state: 'open' | 'archived' | 'expired';
  reason: 'size' | 'manual' | 'retention' | null;
  firstSeq: number;
  lastSeq: number;
  recordCount: number;
  firstTimestamp: number | null;
  lastTimestamp: number | null;
  prevHash: string;
  headHash: string;
  openedAt: number;
  closedAt: number | null;
  expiredAt: number | null;
}

const nullableInt = (v: unknown) => (v === null || v === undefined ? null : toInt(v));

export function blockRowToBlock(row: ConsentLogBlockRow): Block {
  return {
    blockNo: row.block_no,
    state: row.state,
    reason: row.reason,
    firstSeq: toInt(row.first_seq),
    lastSeq: toInt(row.last_seq),
    recordCount: row.record_count,
    firstTimestamp: nullableInt(row.first_ts),
    lastTimestamp: nullableInt(row.last_ts),
    prevHash: row.prev_hash,
    headHash: row.head_hash,
    openedAt: toInt(row.opened_at),
    closedAt: toInt(row.closed_at),
    expiredAt: nullableInt(row.expired_at),
  };
}

/** The open block as a Block: its live summary lives in the head row. */
export function headToOpenBlock(head: Head): Block {
  return {
    blockNo: head.blockNo,
    state: 'open',
    reason: null,
    firstSeq: head.blockFirstSeq,
    lastSeq: head.lastSeq,
    recordCount: head.blockCount,
    firstTimestamp: head.blockFirstTs,
    lastTimestamp: head.blockLastTs,
    prevHash: head.blockPrevHash,
    headHash: head.headHash,
    openedAt: head.blockOpenedAt,
    closedAt: null,
    expiredAt: null,
  };
}

export async function findHead(db: Executor, domainId: string): Promise<Head | undefined> {
  const row = await db.selectFrom('consent_log_heads').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
  return row && headRowToHead(row);
}

export async function listClosedBlocks(db: Executor, domainId: string): Promise<Block[]> {
  const rows = await db
    .selectFrom('consent_log_blocks')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy('block_no')
    .execute();
  return rows.map(blockRowToBlock);
}

export async function findClosedBlock(db: Executor, domainId: string, blockNo: number): Promise<Block | undefined> {
  const row = await db
    .selectFrom('consent_log_blocks')
    .selectAll()
    .where('domain_id', '=', domainId)
    .where('block_no', '=', blockNo)
    .executeTakeFirst();
  return row && blockRowToBlock(row);
}

/**
 * Newest first: records with `fromSeq <= seq < belowSeq`. A block is a contiguous seq range, so the
 * bounds alone select it and the query is a range scan on the primary key (domain_id, seq).
 */
export function pageNewestFirstQuery(db: Executor, domainId: string, fromSeq: number, belowSeq: number, limit: number) {
  return db
    .selectFrom('consent_records')
    .select(['seq', 'record'])
    .where('domain_id', '=', domainId)
    .where('seq', '>=', fromSeq)
    .where('seq', '<', belowSeq)
    .orderBy('seq', 'desc')
    .limit(limit);
}

export async function pageNewestFirst(
  db: Executor,
  domainId: string,
  fromSeq: number,
  belowSeq: number,
  limit: number,
): Promise<{ seq: number; record: string }[]> {
  const rows = await pageNewestFirstQuery(db, domainId, fromSeq, belowSeq, limit).execute();
  return rows.map((r) => ({ seq: toInt(r.seq), record: r.record }));
}

export interface ChainRow {
  seq: number;
  blockNo: number;
  ucid: string;
  ts: number;
  record: string;
  hash: string;
}

/** Chain order (oldest first): records with `afterSeq < seq <= toSeq`, for export and verification. */
export async function pageChainOrder(
  db: Executor,
  domainId: string,
  afterSeq: number,
  toSeq: number,
  limit: number,
): Promise<ChainRow[]> {
  const rows = await db
    .selectFrom('consent_records')
    .select(['seq', 'block_no', 'ucid', 'ts', 'record', 'hash'])
    .where('domain_id', '=', domainId)
    .where('seq', '>', afterSeq)
    .where('seq', '<=', toSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: toInt(r.seq), blockNo: r.block_no, ucid: r.ucid, ts: toInt(r.ts), record: r.record, hash: r.hash }));
}

/**
 * Records past the chain head: there should be none. One statement, so the head and the records are read
 * from the same snapshot even while consents are being appended.
 */
export async function countRecordsBeyondHead(db: Executor, domainId: string): Promise<number> {
  const row = await db
    .selectFrom('consent_records')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('domain_id', '=', domainId)
    .where('seq', '>', (eb) =>
      eb.selectFrom('consent_log_heads').select('last_seq').where('domain_id', '=', domainId),
    )
    .executeTakeFirstOrThrow();
  return toInt(row.n);
}

/**
 * Records of the client's domain's current block whose ucid lies in `[low, high)` (a prefix range), in ucid
 * then chain order, at most `limit`: a range scan on the index (domain_id, block_no, ucid, seq), no sort;
 * the block number comes from the head, scoped by the client, in the same statement. Reading one row more
 * than a ucid's history tells whether a second ucid starts with the prefix. No rows: no match, or not the
 * client's domain.
 */
export function prefixRangeQuery(db: Executor, owner: RecordOwner, domainId: string, low: string, high: string, limit: number) {
  return db
    .selectFrom('consent_records')
    .select(['ucid', 'record', 'seq'])
    .where('domain_id', '=', domainId)
    .where('block_no', '=', (eb) => {
      const head = eb
        .selectFrom('consent_log_heads as h')
        .innerJoin('domains as d', 'd.id', 'h.domain_id')
        .select('h.block_no')
        .where('h.domain_id', '=', domainId);
      return 'clientId' in owner
        ? head.where('d.client_id', '=', owner.clientId)
        : head.innerJoin('clients as c', 'c.id', 'd.client_id').where('c.domain_api_key_hash', '=', owner.keyHash);
    })
    .where('ucid', '>=', low)
    .where('ucid', '<', high)
    .orderBy('ucid')
    .orderBy('seq')
    .limit(limit);
}

/** Whose records a read may see: a client, or the client a Domain API key (by its hash) belongs to. */
export type RecordOwner = { clientId: string } | { keyHash: string };

export async function prefixRange(
  db: Executor,
  owner: RecordOwner,
  domainId: string,
  low: string,
  high: string,
  limit: number,
): Promise<{ ucid: string; record: string; seq: number }[]> {
  const rows = await prefixRangeQuery(db, owner, domainId, low, high, limit).execute();
  return rows.map((r) => ({ ucid: r.ucid, record: r.record, seq: toInt(r.seq) }));
}

/**
 * The smallest ucid of a block in `[low, high)` greater than `after` (when given): one seek on the index
 * (domain_id, block_no, ucid, seq).
 */
export function firstUcidQuery(db: Executor, domainId: string, blockNo: number, low: string, high: string, after?: string) {
  let query = db
    .selectFrom('consent_records')
    .select('ucid')
    .where('domain_id', '=', domainId)
    .where('block_no', '=', blockNo)
    .where('ucid', '>=', low)
    .where('ucid', '<', high);
  if (after !== undefined) query = query.where('ucid', '>', after);
  return query.orderBy('ucid').limit(1);
}

export async function firstUcidInRange(
  db: Executor,
  domainId: string,
  blockNo: number,
  low: string,
  high: string,
  after?: string,
): Promise<string | undefined> {
  return (await firstUcidQuery(db, domainId, blockNo, low, high, after).executeTakeFirst())?.ucid;
}

/** One ucid's history in a block, newest first. */
export function recordsOfUcidQuery(db: Executor, domainId: string, blockNo: number, ucid: string) {
  return db
    .selectFrom('consent_records')
    .select(['record', 'seq'])
    .where('domain_id', '=', domainId)
    .where('block_no', '=', blockNo)
    .where('ucid', '=', ucid)
    .orderBy('seq', 'desc');
}

export async function recordsOfUcid(db: Executor, domainId: string, blockNo: number, ucid: string): Promise<{ record: string; seq: number }[]> {
  return (await recordsOfUcidQuery(db, domainId, blockNo, ucid).execute()).map((r) => ({ record: r.record, seq: toInt(r.seq) }));
}
