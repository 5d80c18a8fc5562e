import type { ColumnType, Selectable } from 'kysely';

/** A `bigint` column: pg returns int8 as a string, SQLite as a number; repositories normalise with `toInt`. */
type Int8 = ColumnType<number | string, number, number>;

/**
 * One consent decision, append-only. `record` is the canonical JSON of the record (consent-log.record.ts)
 * exactly as it was hashed, so the Domain API and the export stream it without re-serialising.
 */
export interface ConsentRecordTable {
  domain_id: string;
  /** Position in the domain's chain: 1, 2, 3, … without gaps. */
  seq: Int8;
  block_no: number;
  /** 64 lowercase hex characters. */
  ucid: string;
  /** Unix seconds. */
  ts: Int8;
  record: string;
  /** SHA-256 hex of `prev_hash + record`. */
  hash: string;
}

/**
 * The head of a domain's chain and the live summary of its open block. One row per domain that has ever
 * logged a consent; every writer locks it, so appends, archiving and retention are serialised per domain.
 */
export interface ConsentLogHeadTable {
  domain_id: string;
  block_no: number;
  /** Seq of the open block's first record (= last_seq + 1 while it is empty). */
  block_first_seq: Int8;
  block_count: number;
  block_first_ts: Int8 | null;
  block_last_ts: Int8 | null;
  /** Chain head when the open block started. */
  block_prev_hash: string;
  block_opened_at: Int8;
  last_seq: Int8;
  head_hash: string;
}

/** Closed blocks: archived (records kept, hidden from the Domain API) or expired (records deleted). */
export interface ConsentLogBlockTable {
  domain_id: string;
  block_no: number;
  state: 'archived' | 'expired';
  /** Why the block closed: `size` (reached the block size), `manual` (archive call), `retention`. */
  reason: 'size' | 'manual' | 'retention';
  first_seq: Int8;
  last_seq: Int8;
  record_count: number;
  first_ts: Int8 | null;
  last_ts: Int8 | null;
  prev_hash: string;
  head_hash: string;
  opened_at: Int8;
  closed_at: Int8;
  expired_at: Int8 | null;
}

/** What a visitor saw: a domain's visible widget configuration as canonical JSON (consent-log.snapshot.ts). */
export interface ConsentSnapshotTable {
  domain_id: string;
  /** SHA-256 hex of `config`. */
  hash: string;
  config: string;
  /** Highest configuration revision of the domain this snapshot was served at. */
  revision: number;
  /** Unix seconds: first built, and last built by a widget cache miss. */
  created_at: Int8;
  served_at: Int8;
}

/** The snapshots the records of a block name (written with the records, deleted with the block's records). */
export interface ConsentLogBlockSnapshotTable {
  domain_id: string;
  block_no: number;
  hash: string;
}

/** A signed checkpoint: Placet's Ed25519 signature over a domain's chain head at `seq`. */
export interface ConsentLogCheckpointTable {
  domain_id: string;
  seq: Int8;
  head_hash: string;
  signed_at: Int8;
  /** First 16 bytes (hex) of the SHA-256 of the raw public key. */
  key_id: string;
  /** base64url Ed25519 signature of the checkpoint message (consent-log.checkpoint.ts). */
  signature: string;
}

/** Tables of the consent log, merged into the Database interface. */
/** A range of a domain's chain set aside by the agency (consent-log.quarantine.ts); records stay in the chain. */
export interface ConsentQuarantineTable {
  id: string;
  domain_id: string;
  from_seq: number | string;
  to_seq: number | string;
  reason: string;
  created_at: string;
}

export interface ConsentLogTables {
  consent_records: ConsentRecordTable;
  consent_log_heads: ConsentLogHeadTable;
  consent_log_blocks: ConsentLogBlockTable;
  consent_snapshots: ConsentSnapshotTable;
  consent_log_block_snapshots: ConsentLogBlockSnapshotTable;
  consent_log_checkpoints: ConsentLogCheckpointTable;
  consent_quarantine: ConsentQuarantineTable;
}

export type ConsentRecordRow = Selectable<ConsentRecordTable>;
export type ConsentLogHeadRow = Selectable<ConsentLogHeadTable>;
export type ConsentLogBlockRow = Selectable<ConsentLogBlockTable>;
