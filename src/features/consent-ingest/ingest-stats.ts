import { existingDomainIds } from '../domains/domains.service.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { Clock } from '../../deps.js';
import { PeriodicFlush } from '../../periodic-flush.js';

type Field = 'loads' | 'consents' | 'refused';
interface Pending {
  domainId: string;
  hour: number;
  loads: number;
  consents: number;
  refused: number;
}

/** Distinct (domain, hour) counters held between flushes; a flood of unknown ids cannot grow it further. */
const MAX_PENDING = 10_000;

/**
 * Hourly per-domain counters of counted widget loads, stored consents and refused consents, kept in
 * memory and added to `ingest_stats` every COUNTER_FLUSH_INTERVAL_MS with one atomic upsert per domain and
 * hour (`n = n + k`), so several processes add up (the same scheme as call-counter.ts).
 */
export class IngestStats extends PeriodicFlush {
  private pending = new Map<string, Pending>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    super(intervalMs);
  }

  loaded(domainId: string): void {
    this.add(domainId, 'loads');
  }

  stored(domainId: string): void {
    this.add(domainId, 'consents');
  }

  refused(domainId: string): void {
    this.add(domainId, 'refused');
  }

  private add(domainId: string, field: Field): void {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const hour = now - (now % 3600);
    const key = `${domainId}|${hour}`;
    let entry = this.pending.get(key);
    if (!entry) {
      if (this.pending.size >= MAX_PENDING) return;
      entry = { domainId, hour, loads: 0, consents: 0, refused: 0 };
      this.pending.set(key, entry);
    }
    entry[field]++;
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const pending = [...this.pending.values()];
    this.pending = new Map();
    // Refusals are counted before the domain is known to exist: keep the ids that name a domain, in one
    // query per 500, so a flood of made-up ids costs no failing upserts.
    let existing: Set<string>;
    try {
      existing = await existingDomainIds(this.db, [...new Set(pending.map((e) => e.domainId))]);
    } catch (err) {
      this.log.warn({ err }, 'ingest stats flush failed');
      return;
    }
    const batch = pending.filter((e) => existing.has(e.domainId));
    for (const entry of batch) {
      try {
        await this.db
          .insertInto('ingest_stats')
          .values({ domain_id: entry.domainId, hour: entry.hour, loads: entry.loads, consents: entry.consents, refused: entry.refused })
          .onConflict((oc) =>
            oc.columns(['domain_id', 'hour']).doUpdateSet((eb) => ({
              loads: eb('ingest_stats.loads', '+', eb.ref('excluded.loads')),
              consents: eb('ingest_stats.consents', '+', eb.ref('excluded.consents')),
              refused: eb('ingest_stats.refused', '+', eb.ref('excluded.refused')),
            })),
          )
          .execute();
      } catch (err) {
        // An unknown or deleted domain cannot be counted; anything else is dropped with a warning (these are
        // indicators, not billing figures).
        const fk = typeof err === 'object' && err !== null && 'code' in err && /23503|SQLITE_CONSTRAINT_FOREIGNKEY/.test(String(err.code));
        if (!fk) this.log.warn({ err }, 'ingest stats flush failed');
      }
    }
  }
}

export interface IngestHour {
  /** ISO time of the hour's start (UTC). */
  hour: string;
  widgetLoads: number;
  consents: number;
  refused: number;
  /** More stored consents than a page load each can explain (docs/consent-log.md, "Floods"). */
  suspect: boolean;
}

/** Consents an hour may hold before it is flagged: two per counted load, plus a small allowance. */
export const suspectThreshold = (loads: number) => 2 * loads + 20;

/** The domain's hours since `sinceHour`, newest first. The caller has checked that the domain is the client's. */
export async function listIngestHours(db: Db, domainId: string, sinceHour: number): Promise<IngestHour[]> {
  const rows = await db
    .selectFrom('ingest_stats')
    .select(['hour', 'loads', 'consents', 'refused'])
    .where('domain_id', '=', domainId)
    .where('hour', '>=', sinceHour)
    .orderBy('hour', 'desc')
    .execute();
  return rows.map((r) => {
    const loads = toInt(r.loads);
    const consents = toInt(r.consents);
    return {
      hour: new Date(toInt(r.hour) * 1000).toISOString(),
      widgetLoads: loads,
      consents,
      refused: toInt(r.refused),
      suspect: consents > suspectThreshold(loads),
    };
  });
}
