import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../deps.js';
import { PeriodicFlush } from '../../periodic-flush.js';
import { uaFamilies } from './user-agent.js';

/** Distinct (domain, day) entries held between flushes; beyond it new ones are dropped, not the process. */
const MAX_PENDING = 10_000;

/** What the statistics need of a stored consent record. */
export interface DecisionFacts {
  domainId: string;
  button: string;
  consent: boolean;
  purposes: Record<string, unknown>;
  embeddings: Record<string, unknown>;
}

/** One domain's counts of one day: plain figures, and per purpose, embedding, browser and OS. */
interface Counts {
  domainId: string;
  day: string;
  plain: Record<string, number>;
  purpose: Record<string, number>;
  embedding: Record<string, number>;
  browser: Record<string, number>;
  os: Record<string, number>;
}

const bump = (map: Record<string, number>, key: string) => {
  map[key] = (map[key] ?? 0) + 1;
};

/**
 * Anonymous consent statistics (docs/statistics.md): counted in memory per domain and UTC day, and added to
 * `consent_statistics` every COUNTER_FLUSH_INTERVAL_MS with atomic upserts (`count = count + k`), so several
 * processes on one PostgreSQL add up, as the call counters do. Nothing that identifies a visitor is kept: no
 * address, no ucid, no User-Agent, only the counts. Counting is on the consent write path, so it costs one
 * map lookup per decision (the day's string is made once a day, not per call).
 */
export class ConsentStatistics extends PeriodicFlush {
  private pending = new Map<string, Counts>();
  private day = '';
  private dayEnds = 0;

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
    const c = this.counts(domainId);
    if (!c) return;
    const { browser, os } = uaFamilies(userAgent);
    bump(c.plain, 'calls');
    bump(c.browser, browser);
    bump(c.os, os);
  }

  /** The banner was shown to a visitor without a decision (the widget's display beacon). */
  display(domainId: string): void {
    const c = this.counts(domainId);
    if (c) bump(c.plain, 'displays');
  }

  /** A stored decision: which button, and what it accepted per purpose and per embedding. */
  decision(record: DecisionFacts): void {
    const c = this.counts(record.domainId);
    if (!c) return;
    const { button } = record;
    bump(c.plain, 'decisions');
    if (record.consent) bump(c.plain, 'consented');
    bump(c.plain, button === 'acceptAll' ? 'acceptAll' : button === 'declineAll' ? 'decline' : 'custom');
    for (const purpose in record.purposes) bump(c.purpose, purpose);
    for (const embedding in record.embeddings) bump(c.embedding, embedding);
  }

  private counts(domainId: string): Counts | undefined {
    const now = this.clock.now().getTime();
    if (now >= this.dayEnds || now < this.dayEnds - 86_400_000) {
      this.day = new Date(now).toISOString().slice(0, 10);
      this.dayEnds = (Math.floor(now / 86_400_000) + 1) * 86_400_000;
    }
    const key = `${domainId}|${this.day}`;
    let c = this.pending.get(key);
    if (!c) {
      if (this.pending.size >= MAX_PENDING) return undefined;
      c = { domainId, day: this.day, plain: {}, purpose: {}, embedding: {}, browser: {}, os: {} };
      this.pending.set(key, c);
    }
    return c;
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const rows: { domain_id: string; day: string; metric: string; count: number }[] = [];
    for (const c of pending.values()) {
      const row = (metric: string, count: number) => rows.push({ domain_id: c.domainId, day: c.day, metric, count });
      for (const [k, n] of Object.entries(c.plain)) row(k, n);
      for (const group of ['purpose', 'embedding', 'browser', 'os'] as const) {
        for (const [k, n] of Object.entries(c[group])) row(`${group}:${k}`, n);
      }
    }
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
