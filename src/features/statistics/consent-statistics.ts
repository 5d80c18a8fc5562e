import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../deps.js';
import { PeriodicFlush } from '../../periodic-flush.js';
import { uaFamilies } from './user-agent.js';

/** Distinct (domain, day, metric) counts held between flushes; beyond it new ones are dropped, not the process. */
const MAX_PENDING = 50_000;

/** What the statistics need of a stored consent record. */
export interface DecisionFacts {
  domainId: string;
  button: string;
  consent: boolean;
  purposes: Record<string, unknown>;
  embeddings: Record<string, unknown>;
}

/**
 * Anonymous consent statistics (docs/statistics.md): counted in memory per domain, UTC day and metric, and added
 * to `consent_statistics` every COUNTER_FLUSH_INTERVAL_MS with atomic upserts (`count = count + k`), so several
 * processes on one PostgreSQL add up, as the call counters do. Nothing that identifies a visitor is kept: no
 * address, no ucid, no User-Agent, only the counts.
 */
export class ConsentStatistics extends PeriodicFlush {
  private pending = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    super(intervalMs);
  }

  /** A counted widget load, with its browser and OS family. */
  call(domainId: string, userAgent: string | undefined): void {
    const { browser, os } = uaFamilies(userAgent);
    this.add(domainId, 'calls');
    this.add(domainId, `browser:${browser}`);
    this.add(domainId, `os:${os}`);
  }

  /** The banner was shown to a visitor without a decision (the widget's display beacon). */
  display(domainId: string): void {
    this.add(domainId, 'displays');
  }

  /** A stored decision: which button, and what it accepted per purpose and per embedding. */
  decision(record: DecisionFacts): void {
    const { domainId, button } = record;
    this.add(domainId, 'decisions');
    if (record.consent) this.add(domainId, 'consented');
    this.add(domainId, button === 'acceptAll' ? 'acceptAll' : button === 'declineAll' ? 'decline' : 'custom');
    for (const purpose of Object.keys(record.purposes)) this.add(domainId, `purpose:${purpose}`);
    for (const embedding of Object.keys(record.embeddings)) this.add(domainId, `embedding:${embedding}`);
  }

  private add(domainId: string, metric: string): void {
    const day = this.clock.now().toISOString().slice(0, 10);
    const key = `${domainId}|${day}|${metric}`;
    const count = this.pending.get(key);
    if (count !== undefined) this.pending.set(key, count + 1);
    else if (this.pending.size < MAX_PENDING) this.pending.set(key, 1);
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const rows = [...pending].map(([key, count]) => {
      const [domainId, day, metric] = key.split('|') as [string, string, string];
      return { domain_id: domainId, day, metric, count };
    });
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      try {
        await this.upsert(chunk);
      } catch {
        // A domain deleted since (foreign key) fails its chunk: write the rows one by one, dropping those.
        for (const row of chunk) {
          try {
            await this.upsert([row]);
          } catch (err) {
            const fk = typeof err === 'object' && err !== null && 'code' in err && /23503|SQLITE_CONSTRAINT_FOREIGNKEY/.test(String(err.code));
            if (!fk) this.log.warn({ err }, 'consent statistics flush failed');
          }
        }
      }
    }
  }

  private async upsert(rows: { domain_id: string; day: string; metric: string; count: number }[]): Promise<void> {
    await this.db
      .insertInto('consent_statistics')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['domain_id', 'day', 'metric']).doUpdateSet({ count: sql`consent_statistics.count + excluded.count` }),
      )
      .execute();
  }
}
