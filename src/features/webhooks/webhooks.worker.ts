import type { Deps } from '../../deps.js';
import {
  claimDue,
  feedWebhook,
  pruneSettled,
  settle,
  settleDelivered,
  webhooksBehind,
  type ClaimedDelivery,
  type ConsentEvent,
  type NewDelivery,
} from './webhooks.repository.js';
import { sign } from './webhooks.signer.js';
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

/**
 * The deliveries a run of consecutive records becomes (docs/webhooks.md, "Payload"): each carries up to
 * `maxEvents` records in chain order and stays within `maxBytes`. The id names the first and last chain
 * position, so it is stable across retries (the idempotency key). The body is assembled from the stored
 * record text rather than re-serialised: `record` reaches the receiver byte for byte as the chain hashed it.
 */
export function consentDeliveries(webhook: WebhookRow, events: readonly ConsentEvent[], limits: BatchLimits): NewDelivery[] {
  const domain = JSON.stringify(webhook.domain_id);
  const envelope = (id: string, parts: string) =>
    `{"type":"consent.recorded","id":${JSON.stringify(id)},"data":{"domainId":${domain},"events":[${parts}]}}`;
  const idOf = (first: number, last: number) => `consent_${webhook.domain_id}_${first}_${last}`;
  const out: NewDelivery[] = [];
  let run: string[] = [];
  let runBytes = 0;
  let first = 0;
  let last = 0;
  const flush = () => {
    if (run.length === 0) return;
    const id = idOf(first, last);
    out.push({
      webhookId: webhook.id,
      eventId: id,
      type: 'consent.recorded',
      payload: envelope(id, run.join(',')),
      events: { count: run.length, firstSeq: first, lastSeq: last },
    });
    run = [];
    runBytes = 0;
  };
  for (const event of events) {
    const part = `{"seq":${event.seq},"hash":"${event.hash}","record":${event.record}}`;
    const bytes = Buffer.byteLength(part);
    if (run.length > 0) {
      // The body this record would make: the envelope (its id grows with the last seq), the parts, commas.
      const joined = Buffer.byteLength(envelope(idOf(first, event.seq), '')) + runBytes + run.length + bytes;
      if (run.length >= limits.maxEvents || joined > limits.maxBytes) flush();
    }
    if (run.length === 0) first = event.seq;
    run.push(part);
    runBytes += bytes;
    last = event.seq;
  }
  flush();
  return out;
}

/** Exponential backoff: retryBaseMs, ×2 per further attempt, capped at one hour. */
export function backoffMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), MAX_BACKOFF_MS);
}

/**
 * Every process runs one worker. Each tick it copies new consent records into the outbox (a cursor per
 * webhook) and delivers due rows it leased. All state is in the database, so a restart loses nothing and
 * any number of processes share the work (docs/webhooks.md, "Delivery").
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly owner: string;
  private readonly send: Sender;
  private prunedAt = 0;
  private readonly limits: BatchLimits;
  private readonly toDeliveries: (webhook: WebhookRow, events: readonly ConsentEvent[]) => NewDelivery[];

  constructor(
    private readonly deps: Deps,
    send?: Sender,
  ) {
    this.owner = deps.ids.hex(8);
    this.send = send ?? createSender(deps.config.webhooks);
    this.limits = { maxEvents: deps.config.webhooks.batchMaxEvents, maxBytes: deps.config.webhooks.batchMaxBytes };
    this.toDeliveries = (webhook, events) => consentDeliveries(webhook, events, this.limits);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.deps.config.webhooks.pollIntervalMs).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
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
    for (const webhookId of await webhooksBehind(db)) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const fed = await feedWebhook(db, engine, webhookId, this.toDeliveries, this.limits.maxEvents, () => ids.hex(12), this.now());
        if (fed === 0) break;
      }
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.now();
      const leaseUntil = now + this.deps.config.webhooks.timeoutMs * 2 + 30_000;
      const claimed = await claimDue(db, engine, this.owner, now, leaseUntil, CLAIM_BATCH);
      if (claimed.length > 0) await this.deliverAll(claimed);
      if (claimed.length < CLAIM_BATCH) break;
    }
  }

  /** Sends a claimed batch; all successes are settled with one statement, failures one by one. */
  private async deliverAll(claimed: readonly ClaimedDelivery[]): Promise<void> {
    const { config } = this.deps;
    const results = await Promise.all(
      claimed.map(async (d) => {
        const headers = sign(d.secret, d.event_id, Math.floor(this.now() / 1000), d.payload);
        return { d, result: await this.send(d.url, { ...headers }, d.payload) };
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
    for (const { d, result } of results) {
      if (result.ok) continue;
      const attempts = d.attempts + 1;
      const final = attempts >= config.webhooks.maxAttempts;
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

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}
