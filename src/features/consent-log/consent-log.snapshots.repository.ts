import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { RecordOwner } from './consent-log.repository.js';
import type { Snapshot } from './consent-log.snapshot.js';

/**
 * Keeps a served configuration: inserted once per domain and hash, never changed afterwards except its
 * bookkeeping (the highest revision it was served at, when it was last built). Idempotent and safe with
 * several processes (one upsert).
 */
export async function keepSnapshot(db: Executor, domainId: string, snapshot: Snapshot, revision: number, now: number): Promise<void> {
  await db
    .insertInto('consent_snapshots')
    .values({ domain_id: domainId, hash: snapshot.hash, config: snapshot.config, revision, created_at: now, served_at: now })
    .onConflict((oc) =>
      oc.columns(['domain_id', 'hash']).doUpdateSet({
        revision: sql`case when consent_snapshots.revision > excluded.revision then consent_snapshots.revision else excluded.revision end`,
        served_at: sql`excluded.served_at`,
      }),
    )
    .execute();
}

/** Which of the (domain, hash) pairs exist, as `domainId:hash` strings: one indexed query. */
export async function existingSnapshots(db: Executor, pairs: readonly { domainId: string; hash: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .selectFrom('consent_snapshots')
    .select(['domain_id', 'hash'])
    .where((eb) => eb.or(pairs.map((p) => eb.and([eb('domain_id', '=', p.domainId), eb('hash', '=', p.hash)]))))
    .execute();
  return new Set(rows.map((r) => `${r.domain_id}:${r.hash}`));
}

export interface StoredSnapshot {
  hash: string;
  config: string;
  createdAt: number;
}

/** A snapshot of a domain of the owner (client, or Domain API key hash); undefined otherwise. */
export async function findOwnSnapshot(db: Executor, owner: RecordOwner, domainId: string, hash: string): Promise<StoredSnapshot | undefined> {
  let query = db
    .selectFrom('consent_snapshots as s')
    .innerJoin('domains as d', 'd.id', 's.domain_id')
    .select(['s.hash', 's.config', 's.created_at'])
    .where('s.domain_id', '=', domainId)
    .where('s.hash', '=', hash);
  query =
    'clientId' in owner
      ? query.where('d.client_id', '=', owner.clientId)
      : query.innerJoin('clients as c', 'c.id', 'd.client_id').where('c.domain_api_key_hash', '=', owner.keyHash);
  const row = await query.executeTakeFirst();
  return row && { hash: row.hash, config: row.config, createdAt: toInt(row.created_at) };
}

/** Snapshots by hash for one domain (no owner check: callers resolved the domain already). */
export async function snapshotsByHash(db: Executor, domainId: string, hashes: readonly string[]): Promise<StoredSnapshot[]> {
  if (hashes.length === 0) return [];
  const rows = await db
    .selectFrom('consent_snapshots')
    .select(['hash', 'config', 'created_at'])
    .where('domain_id', '=', domainId)
    .where('hash', 'in', [...hashes])
    .execute();
  return rows.map((r) => ({ hash: r.hash, config: r.config, createdAt: toInt(r.created_at) }));
}

/** The snapshots that the records of a block name, with their content, ordered by hash. */
export async function blockSnapshots(db: Executor, domainId: string, blockNo: number): Promise<StoredSnapshot[]> {
  const rows = await db
    .selectFrom('consent_log_block_snapshots as b')
    .leftJoin('consent_snapshots as s', (j) => j.onRef('s.domain_id', '=', 'b.domain_id').onRef('s.hash', '=', 'b.hash'))
    .select(['b.hash', 's.config', 's.created_at'])
    .where('b.domain_id', '=', domainId)
    .where('b.block_no', '=', blockNo)
    .orderBy('b.hash')
    .execute();
  // The foreign key keeps the snapshot while the reference exists; a missing one is reported by verify.
  return rows.map((r) => ({ hash: r.hash, config: r.config ?? '', createdAt: r.created_at === null ? 0 : toInt(r.created_at) }));
}

export interface BlockSnapshotRef {
  domain_id: string;
  block_no: number;
  hash: string;
}

/** Distinct (domain, block, snapshot) references of a batch of rows. */
export function snapshotRefsOf(rows: readonly { domain_id: string; block_no: number; snapshot: string }[]): BlockSnapshotRef[] {
  const seen = new Map<string, BlockSnapshotRef>();
  for (const r of rows) {
    const key = `${r.domain_id}:${r.block_no}:${r.snapshot}`;
    if (!seen.has(key)) seen.set(key, { domain_id: r.domain_id, block_no: r.block_no, hash: r.snapshot });
  }
  return [...seen.values()];
}

/** Records the references of a batch (Kysely path); existing ones are left alone. */
export async function insertSnapshotRefs(trx: Executor, refs: readonly BlockSnapshotRef[]): Promise<void> {
  if (refs.length === 0) return;
  await trx
    .insertInto('consent_log_block_snapshots')
    .values([...refs])
    .onConflict((oc) => oc.columns(['domain_id', 'block_no', 'hash']).doNothing())
    .execute();
}

/** Retention: expired blocks that still hold snapshot references. */
export async function listExpiredBlocksWithSnapshotRefs(db: Executor): Promise<{ domainId: string; blockNo: number }[]> {
  const rows = await db
    .selectFrom('consent_log_blocks as b')
    .select(['b.domain_id', 'b.block_no'])
    .where('b.state', '=', 'expired')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('consent_log_block_snapshots as s')
          .select('s.hash')
          .whereRef('s.domain_id', '=', 'b.domain_id')
          .whereRef('s.block_no', '=', 'b.block_no'),
      ),
    )
    .execute();
  return rows.map((r) => ({ domainId: r.domain_id, blockNo: r.block_no }));
}

/** Retention: a block's references go with its records. */
export async function deleteBlockSnapshotRefs(db: Executor, domainId: string, blockNo: number): Promise<void> {
  await db.deleteFrom('consent_log_block_snapshots').where('domain_id', '=', domainId).where('block_no', '=', blockNo).execute();
}

/**
 * Retention: snapshots no block refers to any more, that the domain no longer serves (its configuration
 * revision moved past every revision the snapshot was served at) and that were last built before
 * `servedBefore`. A snapshot still referred to cannot be deleted: the foreign key refuses it.
 */
export async function deleteUnreferencedSnapshots(db: Db, servedBefore: number): Promise<number> {
  const result = await db
    .deleteFrom('consent_snapshots as s')
    .where('s.served_at', '<', servedBefore)
    .where('s.revision', '<', (eb) => eb.selectFrom('domains as d').select('d.config_revision').whereRef('d.id', '=', 's.domain_id'))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('consent_log_block_snapshots as b')
            .select('b.hash')
            .whereRef('b.domain_id', '=', 's.domain_id')
            .whereRef('b.hash', '=', 's.hash'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
