import { sql } from 'kysely';
import type { Db, Engine, Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import { writeTransaction } from '../consent-log/consent-log.blocks.repository.js';
import type { WebhookDeliveryRow, WebhookRow } from './webhooks.table.js';

/** Records read after a webhook's cursor per pass, at least (rounded up to whole deliveries). */
const FEED_READ = 500;

export async function listWebhooks(db: Executor, clientId: string, domainId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('domain_id', '=', domainId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findWebhook(db: Executor, clientId: string, domainId: string, id: string) {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('domain_id', '=', domainId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The domain's last chain position: a new webhook starts after it (it receives decisions made from now on). */
export async function domainLastSeq(db: Executor, domainId: string): Promise<number> {
  const row = await db.selectFrom('consent_log_heads').select('last_seq').where('domain_id', '=', domainId).executeTakeFirst();
  return row ? toInt(row.last_seq) : 0;
}

export interface NewDelivery {
  webhookId: string;
  eventId: string;
  type: string;
  payload: string;
  /** A consent delivery's run of records: how many, first and last chain position. */
  events?: { count: number; firstSeq: number; lastSeq: number };
}

/** A lease on outbox rows: the process `owner` sends them and no other may until `until` (Unix ms). */
export interface Lease {
  owner: string;
  until: number;
}

/**
 * Adds deliveries to the outbox, leased to `lease` when given; an event already queued for the webhook is left
 * as it is (idempotent). Returns the ids of the rows it wrote, in the order of `rows`.
 */
export async function enqueue(db: Executor, rows: readonly NewDelivery[], newId: () => string, nowMs: number, lease?: Lease): Promise<string[]> {
  if (rows.length === 0) return [];
  const values = rows.map((r) => ({
    id: newId(),
    webhook_id: r.webhookId,
    event_id: r.eventId,
    type: r.type,
    payload: r.payload,
    status: 'pending' as const,
    next_attempt_at: nowMs,
    lease_until: lease?.until ?? null,
    lease_owner: lease?.owner ?? null,
    last_status: null,
    last_error: null,
    created_at: nowMs,
    delivered_at: null,
    event_count: r.events?.count ?? 0,
    first_seq: r.events?.firstSeq ?? null,
    last_seq: r.events?.lastSeq ?? null,
  }));
  await db
    .insertInto('webhook_deliveries')
    .values(values)
    .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
    .execute();
  return values.map((v) => v.id);
}

/**
 * The enabled webhooks, in one read per pass: the domains they watch (whose appends the feed wants to hear of,
 * webhooks.tap.ts) and those whose domain's chain has moved past their cursor (the ones to feed).
 */
export async function enabledWebhooks(db: Executor): Promise<{ domains: Set<string>; behind: string[] }> {
  const rows = await db
    .selectFrom('webhooks as w')
    .leftJoin('consent_log_heads as h', 'h.domain_id', 'w.domain_id')
    .select(['w.id', 'w.domain_id', 'w.cursor_seq', 'h.last_seq'])
    .where('w.enabled', '=', 1)
    .execute();
  return {
    domains: new Set(rows.map((r) => r.domain_id)),
    behind: rows.filter((r) => r.last_seq !== null && toInt(r.last_seq) > toInt(r.cursor_seq)).map((r) => r.id),
  };
}

export interface ConsentEvent {
  seq: number;
  hash: string;
  record: string;
}

/** What cutting records into runs needs: the chain position and the record's length in UTF-8 bytes. */
export interface RecordSize {
  seq: number;
  bytes: number;
}

/** What one feeding pass queued: the webhook, its new outbox rows (leased to the feeder) and the records read. */
export interface Fed {
  webhook: WebhookRow;
  queued: (NewDelivery & { id: string })[];
  events: ConsentEvent[];
  /** The pass read as many records as it may: more may be waiting. */
  full: boolean;
  /** The records came from `tapped`, not from the log. */
  fromTap: boolean;
}

/**
 * Queues the next records after the webhook's cursor as deliveries, cut into runs by `toDeliveries`, and moves
 * the cursor, in one transaction. A delivery row names its run (`first_seq`…`last_seq`) and carries no copy of
 * the records: the feeder, which holds the lease on the rows it queued, sends them at once from the records it
 * read here; a retry (or another process, once the lease ran out) reads the run from the log again
 * (`readRuns`). PostgreSQL: the webhook row is locked with SKIP LOCKED, so a second process skips a webhook
 * another is feeding instead of queuing the same records; SQLite has a single writer anyway. `perDelivery`
 * (records one delivery carries at most) rounds the read up to whole deliveries, so a pass does not end with a
 * short run only because of it. `tapped` may supply the records after the cursor from memory (webhooks.tap.ts),
 * exactly as the log holds them; without them the log is read. Undefined when there was nothing to queue.
 */
export async function feedWebhook(
  db: Db,
  engine: Engine,
  webhookId: string,
  toDeliveries: (webhook: WebhookRow, events: readonly RecordSize[]) => NewDelivery[],
  perDelivery: number,
  newId: () => string,
  nowMs: number,
  lease: Lease,
  tapped?: (domainId: string, after: number, limit: number) => ConsentEvent[] | undefined,
): Promise<Fed | undefined> {
  return writeTransaction(db, engine, async (trx) => {
    const query = trx.selectFrom('webhooks').selectAll().where('id', '=', webhookId).where('enabled', '=', 1);
    const webhook = await (engine === 'postgres' ? query.forUpdate().skipLocked() : query).executeTakeFirst();
    if (!webhook) return undefined;
    const cursor = toInt(webhook.cursor_seq);
    const limit = Math.ceil(FEED_READ / perDelivery) * perDelivery;
    const fromMemory = tapped?.(webhook.domain_id, cursor, limit);
    const events = fromMemory ?? (await readAfter(trx, webhook.domain_id, cursor, limit));
    if (events.length === 0) return undefined;
    // Bytes, not characters: a record may hold non-ASCII texts and the byte cap is on the body.
    const deliveries = toDeliveries(webhook, events.map((e) => ({ seq: e.seq, bytes: Buffer.byteLength(e.record) })));
    const ids = await enqueue(trx, deliveries, newId, nowMs, lease);
    await trx
      .updateTable('webhooks')
      .set({ cursor_seq: events[events.length - 1]!.seq })
      .where('id', '=', webhookId)
      .execute();
    return { webhook, queued: deliveries.map((d, i) => ({ ...d, id: ids[i]! })), events, full: events.length >= limit, fromTap: fromMemory !== undefined };
  });
}

async function readAfter(db: Executor, domainId: string, cursor: number, limit: number): Promise<ConsentEvent[]> {
  const rows = await db
    .selectFrom('consent_records')
    .select(['seq', 'hash', 'record'])
    .where('domain_id', '=', domainId)
    .where('seq', '>', cursor)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: toInt(r.seq), hash: r.hash, record: r.record }));
}

/**
 * The records of runs of one domain's chain (`first`…`last`, inclusive), in chain order: one query per contiguous
 * range (an `OR` of ranges in one query cost SQLite 5.5 µs per record, a range each 2.2). The log is
 * append-only, so a run reads the same bytes on every retry.
 */
export async function readRuns(db: Executor, domainId: string, runs: readonly { first: number; last: number }[]): Promise<ConsentEvent[]> {
  // Adjacent runs (a backlog's, claimed together) merge into one range: one index range scan each.
  const spans: { first: number; last: number }[] = [];
  for (const r of [...runs].sort((a, b) => a.first - b.first)) {
    const prev = spans.at(-1);
    if (prev && r.first <= prev.last + 1) prev.last = Math.max(prev.last, r.last);
    else spans.push({ ...r });
  }
  const out: ConsentEvent[] = [];
  for (const span of spans) {
    const rows = await db
      .selectFrom('consent_records')
      .select(['seq', 'hash', 'record'])
      .where('domain_id', '=', domainId)
      .where('seq', '>=', span.first)
      .where('seq', '<=', span.last)
      .orderBy('seq')
      .execute();
    for (const r of rows) out.push({ seq: toInt(r.seq), hash: r.hash, record: r.record });
  }
  return out;
}

export type ClaimedDelivery = WebhookDeliveryRow & { url: string; secret: string; domain_id: string };

/**
 * Leases up to `limit` due deliveries to `owner` until `leaseUntil`. PostgreSQL picks them with
 * FOR UPDATE SKIP LOCKED, so two processes never claim the same row; a lease that ran out (its process
 * died) makes the row due again.
 */
export async function claimDue(
  db: Db,
  engine: Engine,
  owner: string,
  nowMs: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowMs)]))
    // A switched-off webhook sends nothing: what it had pending was given up when it was switched off (giveUpPending),
    // and what was queued for it since (a test delivery, another process's run) waits until it is switched on.
    .where('webhook_id', 'in', db.selectFrom('webhooks').select('id').where('enabled', '=', 1))
    .orderBy('next_attempt_at')
    // Runs of one feed share next_attempt_at: claim them in chain order (they are sent concurrently, so
    // receivers still order by seq, but a claim then holds the oldest records).
    .orderBy('first_seq')
    .limit(limit);
  if (engine === 'postgres') due = due.forUpdate().skipLocked();
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  if (claimed.length === 0) return [];
  const hooks = await db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret', 'domain_id'])
    .where('id', 'in', [...new Set(claimed.map((c) => c.webhook_id))])
    .execute();
  const byId = new Map(hooks.map((h) => [h.id, h]));
  return claimed.flatMap((c) => {
    const hook = byId.get(c.webhook_id);
    return hook ? [{ ...c, url: hook.url, secret: hook.secret, domain_id: hook.domain_id }] : [];
  });
}

export interface Outcome {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

/** Records an attempt's outcome, only while `owner` still holds the lease (a late process changes nothing). */
export async function settle(db: Executor, id: string, owner: string, outcome: Outcome): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      next_attempt_at: outcome.nextAttemptAt,
      last_status: outcome.lastStatus,
      last_error: outcome.lastError,
      delivered_at: outcome.deliveredAt,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Gives up a webhook's pending deliveries, with `reason` as their error; returns how many. One a process is sending
 * at this moment loses its lease too, so that process's outcome changes nothing (settle needs the lease): it may
 * still arrive, and is listed as given up.
 */
export async function giveUpPending(db: Executor, webhookId: string, nowMs: number, reason: string): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: nowMs, last_error: reason, lease_owner: null, lease_until: null })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks successful deliveries with one statement per attempt count (nearly always one): the hot case of a
 * busy domain costs one write per batch, not one per event. Only rows `owner` still leases are changed.
 */
export async function settleDelivered(
  db: Executor,
  owner: string,
  rows: readonly { id: string; attempts: number; status: number | null }[],
  nowMs: number,
): Promise<void> {
  const groups = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.attempts}|${r.status ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r.id]);
  }
  for (const [key, ids] of groups) {
    const [attempts, status] = key.split('|') as [string, string];
    await db
      .updateTable('webhook_deliveries')
      .set({
        status: 'delivered',
        attempts: Number(attempts),
        next_attempt_at: nowMs,
        last_status: status === '' ? null : Number(status),
        last_error: null,
        delivered_at: nowMs,
        lease_owner: null,
        lease_until: null,
      })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .execute();
  }
}

/** Recent deliveries of one webhook, newest first, scoped by client and domain. */
export async function listDeliveries(db: Executor, clientId: string, domainId: string, webhookId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .where('w.client_id', '=', clientId)
    .where('w.domain_id', '=', domainId)
    .where('w.id', '=', webhookId)
    .orderBy('d.created_at', 'desc')
    .orderBy(sql`d.id`, 'desc')
    .limit(limit)
    .execute();
}

/** Deletes delivered and failed rows created before `beforeMs`; pending ones are never deleted. */
export async function pruneSettled(db: Executor, beforeMs: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', beforeMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
