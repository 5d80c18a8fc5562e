import type { AppendedRecord } from '../consent-log/consent-log.appended.js';
import type { ConsentEvent } from './webhooks.repository.js';

/**
 * The records this process's consent writers just committed for domains with a webhook, held until the feed
 * has queued them (docs/webhooks.md, "Cost on the ingest path"). The feed takes a run from here only when it
 * starts right after the webhook's cursor and has no gap; anything else (another process's appends, records
 * dropped at the cap, a second webhook of the domain that lags behind) it reads from the log, which stays the
 * truth. So the tap can only save reads, never change what is sent.
 */
export class TappedRecords {
  private readonly byDomain = new Map<string, ConsentEvent[]>();
  private held = 0;
  private watched: ReadonlySet<string> = new Set();

  /**
   * @param cap records held at most, all domains together; past it everything is dropped and read from the log
   * @param onBacklog called when half the cap is held, so the feed runs before the next poll
   */
  constructor(
    private readonly cap: number,
    private readonly onBacklog: () => void,
  ) {}

  /** Domains whose records are kept (those with an enabled webhook); the others' are dropped. */
  watch(domainIds: ReadonlySet<string>): void {
    this.watched = domainIds;
    for (const id of [...this.byDomain.keys()]) if (!domainIds.has(id)) this.drop(id);
  }

  add(records: readonly AppendedRecord[]): void {
    for (const r of records) {
      if (!this.watched.has(r.domain_id)) continue;
      let list = this.byDomain.get(r.domain_id);
      if (!list) this.byDomain.set(r.domain_id, (list = []));
      // Commits are heard in order; one heard late is left out and so read from the log with its neighbours.
      if (list.length > 0 && r.seq <= list[list.length - 1]!.seq) continue;
      list.push({ seq: r.seq, hash: r.hash, record: r.record });
      this.held++;
    }
    if (this.held > this.cap) {
      this.byDomain.clear();
      this.held = 0;
    }
    if (this.held * 2 >= this.cap) this.onBacklog();
  }

  /** The held records right after `after`, in chain order and without a gap, at most `limit`; none: undefined. */
  take(domainId: string, after: number, limit: number): ConsentEvent[] | undefined {
    const list = this.byDomain.get(domainId);
    if (!list) return undefined;
    const start = firstAfter(list, after);
    if (list[start]?.seq !== after + 1) return undefined;
    let end = start + 1;
    while (end < list.length && end - start < limit && list[end]!.seq === list[end - 1]!.seq + 1) end++;
    return list.slice(start, end);
  }

  /** The feed has queued the domain's records up to `seq`: they are not needed again. */
  consumed(domainId: string, seq: number): void {
    const list = this.byDomain.get(domainId);
    if (!list) return;
    const n = firstAfter(list, seq);
    if (n === list.length) this.drop(domainId);
    else {
      list.splice(0, n);
      this.held -= n;
    }
  }

  /** Records held now (tests, and the bound the docs state). */
  get size(): number {
    return this.held;
  }

  private drop(domainId: string): void {
    this.held -= this.byDomain.get(domainId)?.length ?? 0;
    this.byDomain.delete(domainId);
  }
}

/** Index of the first event with a seq greater than `seq` (the list is in chain order). */
export function firstAfter(list: readonly ConsentEvent[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
