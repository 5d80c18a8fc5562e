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
  /** Domain id → hashes of its snapshots known to exist (no string building on the hot path). */
  private readonly known = new Map<string, Set<string>>();
  private size = 0;
  private readonly has = (domainId: string, hash: string) => this.known.get(domainId)?.has(hash) === true;

  constructor(private readonly db: Db) {}

  /** `has(domainId, hash)` for a batch: one query for the pairs this process has not seen yet. */
  async resolve(pairs: readonly { domainId: string; hash: string }[]): Promise<(domainId: string, hash: string) => boolean> {
    let missing: { domainId: string; hash: string }[] | undefined;
    for (const p of pairs) if (!this.has(p.domainId, p.hash)) (missing ??= []).push(p);
    if (missing) {
      const found = await existingSnapshots(this.db, dedupe(missing));
      if (this.size + found.size > MAX_ENTRIES) {
        this.known.clear();
        this.size = 0;
      }
      for (const key of found) {
        const [domainId, hash] = key.split(':') as [string, string];
        let hashes = this.known.get(domainId);
        if (!hashes) this.known.set(domainId, (hashes = new Set()));
        if (!hashes.has(hash)) {
          hashes.add(hash);
          this.size++;
        }
      }
    }
    return this.has;
  }

  isKnown(domainId: string, hash: string): boolean {
    return this.has(domainId, hash);
  }
}

function dedupe(pairs: readonly { domainId: string; hash: string }[]) {
  return [...new Map(pairs.map((p) => [`${p.domainId}:${p.hash}`, p])).values()];
}
