import type { Insertable } from 'kysely';
import type { ConsentRecordTable } from './consent-log.table.js';

/**
 * A record as it was just committed to a domain's chain: the row the writer stored, so the stored text and its
 * chain hash, byte for byte. Handed over as the writer has it: no copy per record on the ingest path.
 */
export type AppendedRecord = Pick<Insertable<ConsentRecordTable>, 'domain_id' | 'seq' | 'hash' | 'record'>;

export type AppendedListener = (records: readonly AppendedRecord[]) => void;

/**
 * Tells this process's readers of the log what its own writers just committed, so that a reader that follows
 * the log (the webhook feed) need not read those records back. One per app instance, never global: two app
 * instances on one database stand for two processes and must not see each other's appends, exactly as two
 * processes would not. Only a hint: the database stays the truth, and a listener must read the log for
 * anything it did not get here (another process's appends, records it dropped).
 */
export class AppendedRecords {
  private readonly listeners = new Set<AppendedListener>();

  /** Returns the unsubscribe function. */
  subscribe(listener: AppendedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after the commit, in commit order; a listener's failure never reaches the writer. */
  publish(records: readonly AppendedRecord[]): void {
    if (records.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(records);
      } catch {
        // A hint lost: the listener reads the log instead.
      }
    }
  }
}
