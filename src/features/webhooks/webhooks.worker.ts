import type { Deps } from '../../deps.js';
import { toInt } from '../../db/errors.js';
import {
  claimDue,
  feedWebhook,
  pruneSettled,
  readRuns,
  settle,
  settleDelivered,
  enabledWebhooks,
  type ClaimedDelivery,
  type ConsentEvent,
  type NewDelivery,
  type RecordSize,
} from './webhooks.repository.js';
import type { AppendedRecords } from '../consent-log/consent-log.appended.js';
import { metrics } from '../../metrics.js';
import { sign } from './webhooks.signer.js';
import { firstAfter, TappedRecords } from './webhooks.tap.js';
import { createSender, type Sender } from './webhooks.sender.js';
import type { WebhookRow } from './webhooks.table.js';

const CLAIM_BATCH = 20;
const MAX_BACKOFF_MS = 3_600_000;
/** Passes per tick at most, so one tick never runs unbounded. */
const MAX_ROUNDS = 50;
/** Delivered and failed rows are kept this long for the delivery list, then deleted (hourly). */
export const KEEP_DELIVERIES_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface BatchLimits {
  /** Records per delivery at most (WEBHOOK_BATCH_MAX_EVENTS). */
  maxEvents: number;
  /** Body bytes per delivery at most (WEBHOOK_BATCH_MAX_BYTES); a single larger record still goes alone. */
  maxBytes: number;
}

/** One event of a consent delivery's body: the record exactly as the chain hashed it, byte for byte. */
const eventPart = (seq: number, hash: string, record: string) => `{"seq":${seq},"hash":"${hash}","record":${record}}`;
/** Decimal digits of a chain position (ASCII, one byte each). */
const digits = (n: number) => `${n}`.length;
/** An event's bytes without its record and its seq's digits (a chain hash is always 64 hex characters). */
const PART_BYTES = Buffer.byteLength(eventPart(0, '0'.repeat(64), '')) - 1;
const envelope = (domainId: string, id: string, parts: string) =>
  `{"type":"consent.recorded","id":${JSON.stringify(id)},"data":{"domainId":${JSON.stringify(domainId)},"events":[${parts}]}}`;
const runId = (domainId: string, first: number, last: number) => `consent_${domainId}_${first}_${last}`;

/**
 * The deliveries a run of consecutive records becomes (docs/webhooks.md, "Payload"): each carries up to
 * `maxEvents` records in chain order and stays within `maxBytes`. The id names the first and last chain
 * position, so it is stable across retries (the idempotency key). Only sizes are needed here: the row names its
 * run and `consentBody` builds the body from the log when it is sent, to the byte the size this cut assumed.
 */
export function consentDeliveries(webhook: WebhookRow, events: readonly RecordSize[], limits: BatchLimits): NewDelivery[] {
  const out: NewDelivery[] = [];
  let count = 0;
  let runBytes = 0;
  let first = 0;
  let last = 0;
  const flush = () => {
    if (count === 0) return;
    out.push({
      webhookId: webhook.id,
      eventId: runId(webhook.domain_id, first, last),
      type: 'consent.recorded',
      payload: '',
      events: { count, firstSeq: first, lastSeq: last },
    });
    count = 0;
    runBytes = 0;
  };
  // The envelope's bytes without the digits of its id's two chain positions, measured once: counting bytes per
  // record by building the strings cost the worker about a microsecond per record (bench/webhook-cost.ts).
  const envelopeBytes = Buffer.byteLength(envelope(webhook.domain_id, runId(webhook.domain_id, 0, 0), '')) - 2;
  for (const event of events) {
    const bytes = PART_BYTES + digits(event.seq) + event.bytes;
    if (count > 0) {
      // The body this record would make: the envelope (its id grows with the last seq), the parts, commas.
      const joined = envelopeBytes + digits(first) + digits(event.seq) + runBytes + count + bytes;
      if (count >= limits.maxEvents || joined > limits.maxBytes) flush();
    }
    if (count === 0) first = event.seq;
    count++;
    runBytes += bytes;
    last = event.seq;
  }
  flush();
  return out;
}

/**
 * The body of a consent delivery, from the run's records as the log holds them (assembled from the stored
 * text rather than re-serialised: `record` reaches the receiver byte for byte as the chain hashed it).
 * Undefined when the log no longer holds the whole run (retention deleted its block).
 */
export function consentBody(domainId: string, eventId: string, first: number, last: number, events: readonly ConsentEvent[]): string | undefined {
  // `events` is in chain order and holds this run among others: find its start, then expect it unbroken.
  const parts: string[] = [];
  for (let i = firstAfter(events, first - 1), seq = first; seq <= last; i++, seq++) {
    const e = events[i];
    if (e?.seq !== seq) return undefined;
    parts.push(eventPart(e.seq, e.hash, e.record));
  }
  return envelope(domainId, eventId, parts.join(','));
}

/** Exponential backoff: retryBaseMs, ×2 per further attempt, capped at one hour. */
export function backoffMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), MAX_BACKOFF_MS);
}

/** What sending a delivery needs of its row and webhook. */
type Outgoing = Pick<ClaimedDelivery, 'id' | 'webhook_id' | 'event_id' | 'attempts' | 'url' | 'secret'>;

/**
 * Every process runs one worker. Each tick it queues new consent records as runs in the outbox (a cursor per
 * webhook) and sends them at once, then delivers due rows it leased (retries, runs whose feeder died). All state
 * is in the database, so a restart loses nothing and any number of processes share the work (docs/webhooks.md,
 * "Delivery").
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly owner: string;
  private readonly send: Sender;
  private prunedAt = 0;
  private readonly limits: BatchLimits;
  private readonly toDeliveries: (webhook: WebhookRow, events: readonly RecordSize[]) => NewDelivery[];
  private readonly tap: TappedRecords;
  private readonly unsubscribe: (() => void) | undefined;

  /** `appended`: this app's consent writers' commits, which the feed then need not read back from the log. */
  constructor(
    private readonly deps: Deps,
    send?: Sender,
    appended?: AppendedRecords,
  ) {
    this.owner = deps.ids.hex(8);
    this.send = send ?? createSender(deps.config.webhooks);
    this.limits = { maxEvents: deps.config.webhooks.batchMaxEvents, maxBytes: deps.config.webhooks.batchMaxBytes };
    this.toDeliveries = (webhook, events) => consentDeliveries(webhook, events, this.limits);
    // At half the cap the feed runs at once instead of waiting for the next poll: records held in memory for a
    // second would outlive several scavenges and be promoted, which costs the ingest more than the read saves.
    // Only a started worker does so; one driven by runOnce() (tests, the cost bench) is never ticked behind its back.
    this.tap = new TappedRecords(deps.config.webhooks.tapMaxRecords, () => {
      if (this.timer && !this.running) setImmediate(() => void this.tick());
    });
    this.unsubscribe = deps.config.webhooks.tapMaxRecords > 0 ? appended?.subscribe((records) => this.tap.add(records)) : undefined;
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.deps.config.webhooks.pollIntervalMs).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    await this.running;
    this.send.close?.();
  }

  /** One pass unless one is running already; errors are logged, never thrown (the next tick retries). */
  tick(): Promise<void> {
    this.running ??= this.runOnce()
      .catch((err: unknown) => this.deps.log.error({ err }, 'webhook worker pass failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async runOnce(): Promise<void> {
    const { db, engine, ids } = this.deps;
    if (this.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = this.now();
      await pruneSettled(db, this.now() - KEEP_DELIVERIES_MS);
    }
    const { domains, behind } = await enabledWebhooks(db);
    this.tap.watch(domains);
    const fromTap = (domainId: string, after: number, limit: number) => this.tap.take(domainId, after, limit);
    for (const webhookId of behind) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const now = this.now();
        const lease = { owner: this.owner, until: this.leaseUntil(now) };
        const fed = await feedWebhook(db, engine, webhookId, this.toDeliveries, this.limits.maxEvents, () => ids.hex(12), now, lease, fromTap);
        if (!fed) break;
        // The runs just queued are leased to this process: sent now, from the records the feed read.
        const { webhook, queued, events } = fed;
        this.tap.consumed(webhook.domain_id, events[events.length - 1]!.seq);
        metrics.webhookFeed(fed.fromTap ? 'tap' : 'log', events.length);
        await this.deliverAll(
          queued.map((q) => ({
            delivery: { id: q.id, webhook_id: webhook.id, event_id: q.eventId, attempts: 0, url: webhook.url, secret: webhook.secret },
            payload: consentBody(webhook.domain_id, q.eventId, q.events!.firstSeq, q.events!.lastSeq, events),
          })),
        );
        // The end of what was there: records that arrived meanwhile wait for the next pass, rather than being
        // chased as a string of short runs (each delivery costs about as much as a hundred records).
        if (!fed.full) break;
      }
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.now();
      const claimed = await claimDue(db, engine, this.owner, now, this.leaseUntil(now), CLAIM_BATCH);
      if (claimed.length > 0) {
        const bodies = await this.bodies(claimed);
        await this.deliverAll(claimed.map((delivery) => ({ delivery, payload: bodies.get(delivery.id) })));
      }
      if (claimed.length < CLAIM_BATCH) break;
    }
  }

  /** How long a lease holds: past the longest a send can take, so a live process never loses one mid-send. */
  private leaseUntil(nowMs: number): number {
    return nowMs + this.deps.config.webhooks.timeoutMs * 2 + 30_000;
  }

  /**
   * Sends leased deliveries with their bodies; all successes are settled with one statement, failures one by
   * one. A delivery without a body (its run is no longer in the log) fails for good.
   */
  private async deliverAll(batch: readonly { delivery: Outgoing; payload: string | undefined }[]): Promise<void> {
    const { config } = this.deps;
    const results = await Promise.all(
      batch.map(async ({ delivery: d, payload }) => {
        // The log no longer holds the run: nothing to send, ever (a retry would find the same).
        if (payload === undefined) return { d, result: { ok: false, error: 'records no longer in the consent log' }, final: true };
        const bytes = Buffer.from(payload);
        const headers = sign(d.secret, d.event_id, Math.floor(this.now() / 1000), bytes);
        return { d, result: await this.send(d.url, { ...headers }, bytes), final: false };
      }),
    );
    const now = this.now();
    const delivered = results.filter((r) => r.result.ok);
    await settleDelivered(
      this.deps.db,
      this.owner,
      delivered.map((r) => ({ id: r.d.id, attempts: r.d.attempts + 1, status: r.result.status ?? null })),
      now,
    );
    for (const { d, result, final: gone } of results) {
      if (result.ok) continue;
      const attempts = d.attempts + 1;
      const final = gone || attempts >= config.webhooks.maxAttempts;
      await settle(this.deps.db, d.id, this.owner, {
        status: final ? 'failed' : 'pending',
        attempts,
        nextAttemptAt: final ? now : now + backoffMs(config.webhooks.retryBaseMs, attempts),
        lastStatus: result.status ?? null,
        lastError: result.error ?? 'failed',
        deliveredAt: null,
      });
      if (final) this.deps.log.warn({ webhookId: d.webhook_id, eventId: d.event_id }, 'webhook delivery given up');
    }
  }

  /**
   * Each claimed delivery's body. A consent run's (empty `payload`) is read from the log, one query per domain
   * and contiguous range of its runs in the batch (`readRuns`); other events, and consent rows queued before bodies
   * were built at send time, carry theirs.
   */
  private async bodies(claimed: readonly ClaimedDelivery[]): Promise<Map<string, string | undefined>> {
    const out = new Map<string, string | undefined>();
    const runs = new Map<string, ClaimedDelivery[]>();
    for (const d of claimed) {
      if (d.payload !== '' || d.first_seq === null || d.last_seq === null) out.set(d.id, d.payload);
      else runs.set(d.domain_id, [...(runs.get(d.domain_id) ?? []), d]);
    }
    for (const [domainId, list] of runs) {
      const span = (d: ClaimedDelivery) => ({ first: toInt(d.first_seq!), last: toInt(d.last_seq!) });
      const events = await readRuns(this.deps.db, domainId, list.map(span));
      for (const d of list) {
        const { first, last } = span(d);
        out.set(d.id, consentBody(domainId, d.event_id, first, last, events));
      }
    }
    return out;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}
