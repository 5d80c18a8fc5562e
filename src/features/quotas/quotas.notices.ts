import { isoNow, type Deps } from '../../deps.js';
import { monthOf } from '../clients/clients.service.js';
import { enqueue } from '../webhooks/webhooks.repository.js';
import { createMailer, type Mailer } from './quotas.mailer.js';
import { CountingPolicy } from './quotas.policy.js';

/** How long a process remembers that a notice exists before asking the database again (a reset clears them). */
const REMEMBER_MS = 60_000;

/**
 * Watches the totals the widget already computes for its quota check. The first process that sees a client
 * reach a threshold in a month inserts its row in `quota_notices`; the primary key lets exactly one insert
 * win across processes, and only the winner logs "quota reached" (threshold 100), queues the webhook event
 * and sends the e-mail. Never throws into the widget path.
 */
export class QuotaNotices {
  readonly policy: CountingPolicy;
  private readonly seen = new Map<string, number>();
  private readonly mailer: Mailer | undefined;
  private readonly thresholds: number[];
  private pending = new Set<Promise<void>>();

  constructor(private readonly deps: Deps) {
    this.policy = new CountingPolicy(deps.config.quotas);
    this.mailer = createMailer(deps.config);
    this.thresholds = [...new Set([...deps.config.quotas.noticeThresholds, 100])].sort((a, b) => a - b);
  }

  observe(clientId: string, used: number, quota: number): void {
    if (quota <= 0) return;
    const month = monthOf(this.deps.clock.now());
    const nowMs = Date.now();
    for (const threshold of this.thresholds) {
      if (used * 100 < threshold * quota) break;
      const key = `${clientId}|${month}|${threshold}`;
      if ((this.seen.get(key) ?? 0) > nowMs) continue;
      if (this.seen.size > 10_000) this.seen.clear();
      this.seen.set(key, nowMs + REMEMBER_MS);
      const job = this.reached(clientId, month, threshold, used, quota)
        .catch((err: unknown) => this.deps.log.error({ err, clientId }, 'quota notice failed'))
        .finally(() => this.pending.delete(job));
      this.pending.add(job);
    }
  }

  /** Waits for notices in flight (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Forgets what this process remembers (after a manual reset). */
  forget(clientId: string): void {
    for (const key of this.seen.keys()) if (key.startsWith(`${clientId}|`)) this.seen.delete(key);
  }

  private async reached(clientId: string, month: string, threshold: number, used: number, quota: number): Promise<void> {
    const { db } = this.deps;
    const inserted = await db
      .insertInto('quota_notices')
      .values({
        client_id: clientId, month, threshold, used, quota,
        email_status: 'none', email_error: null, created_at: isoNow(this.deps.clock),
      })
      .onConflict((oc) => oc.columns(['client_id', 'month', 'threshold']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return;
    if (threshold === 100) this.deps.log.warn({ clientId, month, used, quota }, 'quota reached');
    if (!this.deps.config.quotas.noticeThresholds.includes(threshold)) return;
    const client = await db.selectFrom('clients').select(['username', 'company']).where('id', '=', clientId).executeTakeFirst();
    const hooks = await db
      .selectFrom('webhooks')
      .select(['id', 'domain_id'])
      .where('client_id', '=', clientId)
      .where('enabled', '=', 1)
      .execute();
    const eventId = `quota_${clientId}_${month}_${threshold}`;
    const payload = JSON.stringify({ type: 'quota.threshold', id: eventId, data: { clientId, month, threshold, used, quota } });
    const nowMs = this.deps.clock.now().getTime();
    await enqueue(db, hooks.map((h) => ({ webhookId: h.id, eventId, type: 'quota.threshold', payload })), () => this.deps.ids.hex(12), nowMs);
    if (!this.mailer) return;
    let status: 'sent' | 'failed' = 'sent';
    let error: string | null = null;
    try {
      await this.mailer({ clientName: client?.company || client?.username || clientId, month, threshold, used, quota });
    } catch (err) {
      status = 'failed';
      error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      this.deps.log.warn({ clientId, month, threshold, error }, 'quota notice e-mail failed');
    }
    await db
      .updateTable('quota_notices')
      .set({ email_status: status, email_error: error })
      .where('client_id', '=', clientId)
      .where('month', '=', month)
      .where('threshold', '=', threshold)
      .execute();
  }
}

const instances = new WeakMap<Deps, QuotaNotices>();

/** The app's one QuotaNotices (keyed by its deps), so the widget path needs no new constructor argument. */
export function quotaNoticesFor(deps: Deps): QuotaNotices {
  let found = instances.get(deps);
  if (!found) {
    found = new QuotaNotices(deps);
    instances.set(deps, found);
  }
  return found;
}
