import type { ConsentStatistics } from '../statistics/consent-statistics.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { AppendedRecords } from '../consent-log/consent-log.appended.js';
import { ServedSnapshotCache } from '../consent-log/consent-log.snapshot-cache.js';
import { metrics } from '../../metrics.js';
import { DomainSnapshotCache, type DomainSnapshot } from './consent-ingest.lookups.js';
import { prepareRecord, type ConsentRequest, type PreparedRecord } from './consent-ingest.service.js';
import { createLogWriter, type LogWriter } from './consent-ingest.writer.js';
import type { IngestStats } from './ingest-stats.js';

export type Outcome =
  | { ok: true; allowOrigin: string | undefined }
  | { ok: false; error: AppError; allowOrigin: string | undefined };

interface Pending {
  request: ConsentRequest;
  done: (outcome: Outcome) => void;
}

interface Ready {
  pending: Pending;
  record: PreparedRecord;
  allowOrigin: string | undefined;
}

/** Records per batch; a larger backlog is written as several consecutive batches. */
const MAX_BATCH = 1000;

/**
 * Group commit (STACK.md): requests wait in a queue and are written together, and each is answered only
 * after its batch committed. An idle queue starts at once (after the current I/O phase, so requests
 * parsed in the same tick join); while a batch is being written, new requests gather for the next one.
 */
export class ConsentWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private pumping = false;
  private inflight = 0;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly idle: (() => void)[] = [];
  private readonly snapshots: DomainSnapshotCache;
  /** Configurations served for each domain, which a consent must name (docs/consent-log.md, "Snapshots"). */
  private readonly served: ServedSnapshotCache;
  private readonly writer: LogWriter;

  constructor(
    private readonly deps: Deps,
    private readonly stats: IngestStats,
    private readonly statistics?: ConsentStatistics,
    appended?: AppendedRecords,
  ) {
    this.snapshots = new DomainSnapshotCache(deps.db);
    this.served = new ServedSnapshotCache(deps.db);
    this.writer = createLogWriter(deps, appended);
    metrics.trackConsentQueue(this, (writer) => writer.queue.length);
  }

  /** Requests waiting for a batch. */
  get depth(): number {
    return this.queue.length;
  }

  submit(request: ConsentRequest): Promise<Outcome> {
    if (this.closed) {
      const error = new AppError('UNAVAILABLE', undefined, 'The server is shutting down.');
      return Promise.resolve({ ok: false, error, allowOrigin: undefined });
    }
    // The bound on the queue (CONSENT_QUEUE_MAX): past it the database is not keeping up; refuse at once.
    if (this.queue.length >= this.deps.config.limits.consentQueueMax) {
      const error = new AppError('RATE_LIMITED', [{ field: 'queue', message: 'the consent queue is full', retryAfter: 1 }]);
      return Promise.resolve({ ok: false, error, allowOrigin: undefined });
    }
    return new Promise((done) => {
      this.queue.push({ request, done });
      this.schedule();
    });
  }

  /** Writes what is queued, then refuses new work (the app's onClose hook). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.isIdle()) return;
    this.schedule();
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private isIdle(): boolean {
    return !this.pumping && this.inflight === 0 && this.queue.length === 0;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.pump();
    });
  }

  /**
   * Takes batches off the queue. The next batch is validated while the previous one is being written
   * (on PostgreSQL that hides a round trip); writes themselves never overlap, so each batch is chained
   * onto the result of the one before.
   */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const { ready, snapshots } = await this.prepare(this.queue.splice(0, MAX_BATCH));
        await this.writing;
        this.joinLateArrivals(ready, snapshots);
        if (ready.length === 0) continue;
        this.inflight++;
        this.writing = this.commit(ready).finally(() => {
          this.inflight--;
          if (this.queue.length > 0) this.schedule();
          this.notifyIdle();
        });
      }
    } finally {
      this.pumping = false;
      this.notifyIdle();
    }
  }

  private notifyIdle(): void {
    if (this.isIdle()) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Validates a batch against current domain snapshots; answers invalid requests at once. */
  private async prepare(batch: Pending[]): Promise<{ ready: Ready[]; snapshots: Map<string, DomainSnapshot> }> {
    try {
      const [snapshots, served] = await Promise.all([
        this.snapshots.resolve([...new Set(batch.map((p) => p.request.body.domain))]),
        this.served.resolve(batch.map((p) => ({ domainId: p.request.body.domain, hash: p.request.body.snapshot }))),
      ]);
      const ready: Ready[] = [];
      for (const pending of batch) this.validate(pending, snapshots, ready, served);
      return { ready, snapshots };
    } catch (err) {
      for (const pending of batch) this.fail(pending, err);
      return { ready: [], snapshots: new Map() };
    }
  }

  private validate(
    pending: Pending,
    snapshots: ReadonlyMap<string, DomainSnapshot>,
    ready: Ready[],
    served: (domainId: string, hash: string) => boolean,
  ): void {
    const prepared = prepareRecord(snapshots.get(pending.request.body.domain), pending.request, served);
    if (prepared.ok) ready.push({ pending, record: prepared.record, allowOrigin: prepared.allowOrigin });
    else {
      if (snapshots.has(pending.request.body.domain)) this.stats.refused(pending.request.body.domain);
      pending.done(prepared);
    }
  }

  /**
   * Requests that arrived while the previous batch was being written join this one when their domain's
   * snapshot was read for it (a moment ago, in this batch's check): the batch then holds nearly every
   * waiting request, one commit instead of two, and a rename is still logged from the next batch on.
   * Requests for other domains stay queued, in order, for the next batch and its own check.
   */
  private joinLateArrivals(ready: Ready[], snapshots: ReadonlyMap<string, DomainSnapshot>): void {
    if (this.queue.length === 0 || snapshots.size === 0) return;
    const rest: Pending[] = [];
    for (const pending of this.queue) {
      const { domain, snapshot } = pending.request.body;
      // A snapshot hash this process has not checked yet waits for the next batch's lookup.
      const served = this.served.isKnown(domain, snapshot);
      if (ready.length < MAX_BATCH && served && snapshots.has(domain)) this.validate(pending, snapshots, ready, () => true);
      else rest.push(pending);
    }
    this.queue = rest;
  }

  private async commit(ready: Ready[]): Promise<void> {
    try {
      await this.writer.write(ready.map((r) => r.record));
      metrics.consentBatch(ready.length);
      for (const r of ready) {
        this.stats.stored(r.record.domainId);
        if (r.record.facts) this.statistics?.decision(r.record.facts);
        r.pending.done({ ok: true, allowOrigin: r.allowOrigin });
      }
    } catch (err) {
      if (ready.length === 1) return this.fail(ready[0]!.pending, err);
      // One bad record (say, its domain was deleted a moment ago) must not fail the others: retry alone.
      this.deps.log.warn({ err }, 'consent batch failed; retrying its records one by one');
      for (const r of ready) {
        try {
          await this.writer.write([r.record]);
          this.stats.stored(r.record.domainId);
          if (r.record.facts) this.statistics?.decision(r.record.facts);
          r.pending.done({ ok: true, allowOrigin: r.allowOrigin });
        } catch (single) {
          this.fail(r.pending, single);
        }
      }
    }
  }

  private fail(pending: Pending, err: unknown): void {
    this.deps.log.error({ err }, 'consent not logged');
    pending.done({ ok: false, error: new AppError('INTERNAL'), allowOrigin: undefined });
  }
}
