import type { Db } from '../../db/database.js';
import { existingSnapshots } from './consent-log.snapshots.repository.js';

/** Entries kept before the cache starts over (each is about 100 bytes). */
const MAX_ENTRIES = 100_000;

/**
 * The write path's check that a consent names a snapshot Placet served for its domain. Served snapshots
 * are kept in the database by whichever process served the widget (widget.service.ts), so this is
 * correct with several processes on one database: a hash this process has not seen yet is looked up
 * once, for the whole batch in one query, and remembered. A snapshot exists until no record refers to
 * it and the domain stopped serving it, so a remembered hash stays valid; after that a consent naming it
 * fails its batch's insert (the foreign key of the block's reference) and is retried alone and refused.
 * Unknown hashes are not remembered: one process must not refuse a hash another process has just served.
 */
export class ServedSnapshotCache {
  private readonly known = new Set<string>();

  constructor(private readonly db: Db) {}

  /** `has(domainId, hash)` for a batch: one query for the pairs this process has not seen yet. */
  async resolve(pairs: readonly { domainId: string; hash: string }[]): Promise<(domainId: string, hash: string) => boolean> {
    const missing = new Map<string, { domainId: string; hash: string }>();
    for (const p of pairs) {
      const key = `${p.domainId}:${p.hash}`;
      if (!this.known.has(key)) missing.set(key, p);
    }
    if (missing.size > 0) {
      const found = await existingSnapshots(this.db, [...missing.values()]);
      if (this.known.size + found.size > MAX_ENTRIES) this.known.clear();
      for (const key of found) this.known.add(key);
    }
    return (domainId, hash) => this.known.has(`${domainId}:${hash}`);
  }

  has(domainId: string, hash: string): boolean {
    return this.known.has(`${domainId}:${hash}`);
  }
}
