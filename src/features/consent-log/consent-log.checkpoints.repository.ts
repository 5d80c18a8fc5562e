import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { Checkpoint } from './consent-log.checkpoint.js';

export interface StoredCheckpoint extends Checkpoint {
  keyId: string;
  signature: string;
}

type Row = { domain_id: string; seq: number | string; head_hash: string; signed_at: number | string; key_id: string; signature: string };
const rowToCheckpoint = (r: Row): StoredCheckpoint => ({
  domainId: r.domain_id,
  seq: toInt(r.seq),
  headHash: r.head_hash,
  signedAt: toInt(r.signed_at),
  keyId: r.key_id,
  signature: r.signature,
});

/** Stores a signed checkpoint; a second signature of the same position (another process) is dropped. */
export async function insertCheckpoint(db: Executor, c: StoredCheckpoint): Promise<void> {
  await db
    .insertInto('consent_log_checkpoints')
    .values({ domain_id: c.domainId, seq: c.seq, head_hash: c.headHash, signed_at: c.signedAt, key_id: c.keyId, signature: c.signature })
    .onConflict((oc) => oc.columns(['domain_id', 'seq']).doNothing())
    .execute();
}

export async function checkpointAt(db: Executor, domainId: string, seq: number): Promise<StoredCheckpoint | undefined> {
  const row = await db.selectFrom('consent_log_checkpoints').selectAll().where('domain_id', '=', domainId).where('seq', '=', seq).executeTakeFirst();
  return row && rowToCheckpoint(row);
}

/** A domain's checkpoints in chain order. */
export async function listCheckpoints(db: Executor, domainId: string): Promise<StoredCheckpoint[]> {
  const rows = await db.selectFrom('consent_log_checkpoints').selectAll().where('domain_id', '=', domainId).orderBy('seq').execute();
  return rows.map(rowToCheckpoint);
}

/** Closed blocks whose head has no checkpoint yet (at most `limit`). */
export async function closedBlocksWithoutCheckpoint(db: Executor, limit: number) {
  const rows = await db
    .selectFrom('consent_log_blocks as b')
    .select(['b.domain_id', 'b.last_seq', 'b.head_hash'])
    .where('b.record_count', '>', 0)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('consent_log_checkpoints as c').select('c.seq').whereRef('c.domain_id', '=', 'b.domain_id').whereRef('c.seq', '=', 'b.last_seq'),
        ),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ domainId: r.domain_id, seq: toInt(r.last_seq), headHash: r.head_hash }));
}

/** Chain heads that moved past their last checkpoint, which is older than `signedBefore` (or absent). */
export async function headsDueForCheckpoint(db: Executor, signedBefore: number, limit: number) {
  const rows = await db
    .selectFrom('consent_log_heads as h')
    .select(['h.domain_id', 'h.last_seq', 'h.head_hash'])
    .where('h.last_seq', '>', 0)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('consent_log_checkpoints as c')
            .select('c.seq')
            .whereRef('c.domain_id', '=', 'h.domain_id')
            .where((w) => w.or([w('c.signed_at', '>=', signedBefore), w('c.seq', '>=', w.ref('h.last_seq'))])),
        ),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ domainId: r.domain_id, seq: toInt(r.last_seq), headHash: r.head_hash }));
}
