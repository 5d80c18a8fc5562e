import type { Db } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { Clock } from '../../deps.js';
import { PeriodicFlush } from '../../periodic-flush.js';
import type { FastifyBaseLogger } from 'fastify';
import { monthOf } from '../clients/clients.service.js';

/**
 * Widget calls are counted in memory and added to `call_counts` every few seconds with one atomic
 * upsert per domain and month (`count = count + n`), so several processes add up correctly and a page
 * view costs no database write. `flush()` runs at shutdown too: nothing counted is lost on SIGTERM.
 */
export class CallCounter extends PeriodicFlush {
  private pending = new Map<string, { domainId: string; clientId: string; month: string; n: number }>();
  private monthTotals = new Map<string, { month: string; total: number; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    super(intervalMs);
  }

  count(domainId: string, clientId: string): void {
    const month = monthOf(this.clock.now());
    const key = `${domainId}|${month}`;
    const entry = this.pending.get(key);
    if (entry) entry.n++;
    else this.pending.set(key, { domainId, clientId, month, n: 1 });
  }

  /** This month's calls of a client: the database (re-read at most once per flush interval) plus what this process has not flushed yet. */
  async clientMonthTotal(clientId: string): Promise<number> {
    const month = monthOf(this.clock.now());
    const now = this.clock.now().getTime();
    let cached = this.monthTotals.get(clientId);
    if (!cached || cached.month !== month || now - cached.at >= this.intervalMs) {
      const row = await this.db
        .selectFrom('call_counts as cc')
        .innerJoin('domains as d', 'd.id', 'cc.domain_id')
        .select((eb) => eb.fn.sum('cc.count').as('total'))
        .where('d.client_id', '=', clientId)
        .where('cc.month', '=', month)
        .executeTakeFirst();
      cached = { month, total: toInt(row?.total), at: now };
      this.monthTotals.set(clientId, cached);
    }
    let local = 0;
    for (const p of this.pending.values()) if (p.clientId === clientId && p.month === month) local += p.n;
    return cached.total + local;
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    for (const entry of batch) {
      try {
        await this.db
          .insertInto('call_counts')
          .values({ domain_id: entry.domainId, month: entry.month, count: entry.n })
          .onConflict((oc) =>
            oc.columns(['domain_id', 'month']).doUpdateSet((eb) => ({ count: eb('call_counts.count', '+', eb.ref('excluded.count')) })),
          )
          .execute();
        this.monthTotals.delete(entry.clientId);
      } catch (err) {
        // A deleted domain cannot be counted any more; anything else is kept for the next flush.
        const fk = typeof err === 'object' && err !== null && 'code' in err && /23503|SQLITE_CONSTRAINT_FOREIGNKEY/.test(String(err.code));
        if (!fk) {
          this.log.warn({ err }, 'widget call counter flush failed; will retry');
          const key = `${entry.domainId}|${entry.month}`;
          const current = this.pending.get(key);
          if (current) current.n += entry.n;
          else this.pending.set(key, entry);
        }
      }
    }
  }
}
