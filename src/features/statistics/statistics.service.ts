import type { Deps } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { clientFeatures } from '../clients/clients.service.js';
import { requireFeature } from '../clients/feature-gates.js';
import { requireDomain } from '../domains/domain-scope.js';

/** At most this many days per read: a year and a day. */
export const MAX_STATISTICS_DAYS = 366;

export interface StatisticsDay {
  day: string;
  calls: number;
  displays: number;
  decisions: number;
  acceptAll: number;
  decline: number;
  custom: number;
  /** Decisions that accepted anything beyond the technically necessary. */
  consented: number;
  /** Banners shown without a decision: displays minus decisions, never below 0 (docs/statistics.md). */
  bounces: number;
  /** consented ÷ decisions, 0–1 (0 without decisions). */
  acceptanceRate: number;
  purposes: Record<string, number>;
  embeddings: Record<string, number>;
  browsers: Record<string, number>;
  os: Record<string, number>;
}

const emptyDay = (day: string): StatisticsDay => ({
  day, calls: 0, displays: 0, decisions: 0, acceptAll: 0, decline: 0, custom: 0, consented: 0, bounces: 0, acceptanceRate: 0,
  purposes: {}, embeddings: {}, browsers: {}, os: {},
});

const PLAIN = new Set(['calls', 'displays', 'decisions', 'acceptAll', 'decline', 'custom', 'consented']);
const MAPS: Record<string, 'purposes' | 'embeddings' | 'browsers' | 'os'> = {
  purpose: 'purposes', embedding: 'embeddings', browser: 'browsers', os: 'os',
};

function addTo(target: StatisticsDay, metric: string, n: number): void {
  if (PLAIN.has(metric)) {
    target[metric as 'calls'] += n;
    return;
  }
  const colon = metric.indexOf(':');
  const map = MAPS[metric.slice(0, colon)];
  if (map) target[map][metric.slice(colon + 1)] = (target[map][metric.slice(colon + 1)] ?? 0) + n;
}

function finish(d: StatisticsDay): StatisticsDay {
  d.bounces = Math.max(0, d.displays - d.decisions);
  d.acceptanceRate = d.decisions === 0 ? 0 : Math.round((d.consented / d.decisions) * 10_000) / 10_000;
  return d;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `from`..`to` (YYYY-MM-DD, inclusive); default the last 30 days up to today (UTC). */
export function statisticsRange(deps: Deps, from?: string, to?: string): { from: string; to: string; days: string[] } {
  const today = Date.parse(`${isoDay(deps.clock.now().getTime())}T00:00:00Z`);
  const end = to ? Date.parse(`${to}T00:00:00Z`) : today;
  const start = from ? Date.parse(`${from}T00:00:00Z`) : end - 29 * 86_400_000;
  if (Number.isNaN(start) || Number.isNaN(end) || start > end) {
    throw new AppError('VALIDATION_FAILED', [{ field: 'querystring.from', message: 'must be a day on or before `to`' }]);
  }
  const count = (end - start) / 86_400_000 + 1;
  if (count > MAX_STATISTICS_DAYS) {
    throw new AppError('VALIDATION_FAILED', [{ field: 'querystring.from', message: `at most ${MAX_STATISTICS_DAYS} days at once` }]);
  }
  return { from: isoDay(start), to: isoDay(end), days: Array.from({ length: count }, (_, i) => isoDay(start + i * 86_400_000)) };
}

/** The domain's statistics per day, and their totals; the client needs `canUseAnalytics`. */
export async function readStatistics(deps: Deps, clientId: string, domainId: string, from?: string, to?: string) {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  requireFeature(await clientFeatures(deps.db, clientId), 'canUseAnalytics', 'features.canUseAnalytics');
  const range = statisticsRange(deps, from, to);
  const rows = await deps.db
    .selectFrom('consent_statistics')
    .select(['day', 'metric', 'count'])
    .where('domain_id', '=', domainId)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .execute();
  const byDay = new Map(range.days.map((d) => [d, emptyDay(d)]));
  const totals = emptyDay(`${range.from}..${range.to}`);
  for (const row of rows) {
    const n = Number(row.count);
    addTo(byDay.get(row.day)!, row.metric, n);
    addTo(totals, row.metric, n);
  }
  return { from: range.from, to: range.to, days: [...byDay.values()].map(finish), totals: finish(totals) };
}

const csvCell = (v: string | number) => (typeof v === 'number' ? String(v) : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The same as CSV: one line per day, a column per figure and per purpose, embedding, browser and OS seen. */
export function statisticsCsv(stats: Awaited<ReturnType<typeof readStatistics>>): string {
  const keys = (pick: (d: StatisticsDay) => Record<string, number>) => [...new Set(stats.days.flatMap((d) => Object.keys(pick(d))))].sort();
  const groups = [
    ['purpose', keys((d) => d.purposes), (d: StatisticsDay) => d.purposes],
    ['embedding', keys((d) => d.embeddings), (d: StatisticsDay) => d.embeddings],
    ['browser', keys((d) => d.browsers), (d: StatisticsDay) => d.browsers],
    ['os', keys((d) => d.os), (d: StatisticsDay) => d.os],
  ] as const;
  const plain = ['calls', 'displays', 'decisions', 'acceptAll', 'decline', 'custom', 'consented', 'bounces', 'acceptanceRate'] as const;
  const header = ['day', ...plain, ...groups.flatMap(([prefix, ks]) => ks.map((k) => `${prefix}:${k}`))];
  const lines = stats.days.map((d) =>
    [d.day, ...plain.map((k) => d[k]), ...groups.flatMap(([, ks, pick]) => ks.map((k) => pick(d)[k] ?? 0))].map(csvCell).join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}

/** "Reset statistics" with a manual archive (reference model §3): the domain's counts are deleted. */
export async function resetStatistics(db: Executor, domainId: string): Promise<void> {
  await db.deleteFrom('consent_statistics').where('domain_id', '=', domainId).execute();
}
