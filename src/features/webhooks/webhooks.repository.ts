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

/** Adds deliveries to the outbox; an event already queued for the webhook is left as it is (idempotent). */
export async function enqueue(db: Executor, rows: readonly NewDelivery[], newId: () => string, nowMs: number): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        id: newId(),
        webhook_id: r.webhookId,
        event_id: r.eventId,
        type: r.type,
        payload: r.payload,
        status: 'pending' as const,
        next_attempt_at: nowMs,
        lease_until: null,
        lease_owner: null,
        last_status: null,
        last_error: null,
        created_at: nowMs,
        delivered_at: null,
        event_count: r.events?.count ?? 0,
        first_seq: r.events?.firstSeq ?? null,
        last_seq: r.events?.lastSeq ?? null,
      })),
    )
    .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
    .execute();
}

/** Enabled webhooks whose domain's chain has moved past their cursor. */
export async function webhooksBehind(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('webhooks as w')
    .innerJoin('consent_log_heads as h', 'h.domain_id', 'w.domain_id')
    .select('w.id')
    .where('w.enabled', '=', 1)
    .whereRef('h.last_seq', '>', 'w.cursor_seq')
    .execute();
  return rows.map((r) => r.id);
}

export interface ConsentEvent {
  seq: number;
  hash: string;
  record: string;
}

/**
 * Copies the next records after the webhook's cursor into the outbox, grouped into deliveries by
 * `toDeliveries` (runs of consecutive records), and moves the cursor, in one transaction. PostgreSQL: the
 * webhook row is locked with SKIP LOCKED, so a second process skips a webhook another is feeding instead of
 * copying the same records; SQLite has a single writer anyway. `perDelivery` (records one delivery carries at
 * most) rounds the read up to whole deliveries, so a pass does not end with a short run only because of it.
 */
export async function feedWebhook(
  db: Db,
  engine: Engine,
  webhookId: string,
  toDeliveries: (webhook: WebhookRow, events: readonly ConsentEvent[]) => NewDelivery[],
  perDelivery: number,
  newId: () => string,
  nowMs: number,
): Promise<number> {
  return writeTransaction(db, engine, async (trx) => {
    const query = trx.selectFrom('webhooks').selectAll().where('id', '=', webhookId).where('enabled', '=', 1);
    const webhook = await (engine === 'postgres' ? query.forUpdate().skipLocked() : query).executeTakeFirst();
    if (!webhook) return 0;
    const records = await trx
      .selectFrom('consent_records')
      .select(['seq', 'hash', 'record'])
      .where('domain_id', '=', webhook.domain_id)
      .where('seq', '>', toInt(webhook.cursor_seq))
      .orderBy('seq')
      .limit(Math.ceil(FEED_READ / perDelivery) * perDelivery)
      .execute();
    if (records.length === 0) return 0;
    const events = records.map((r) => ({ seq: toInt(r.seq), hash: r.hash, record: r.record }));
    await enqueue(trx, toDeliveries(webhook, events), newId, nowMs);
    await trx
      .updateTable('webhooks')
      .set({ cursor_seq: events[events.length - 1]!.seq })
      .where('id', '=', webhookId)
      .execute();
    return events.length;
  });
}

export type ClaimedDelivery = WebhookDeliveryRow & { url: string; secret: string };

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
    .select(['id', 'url', 'secret'])
    .where('id', 'in', [...new Set(claimed.map((c) => c.webhook_id))])
    .execute();
  const byId = new Map(hooks.map((h) => [h.id, h]));
  return claimed.flatMap((c) => {
    const hook = byId.get(c.webhook_id);
    return hook ? [{ ...c, url: hook.url, secret: hook.secret }] : [];
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
