import client from 'prom-client';

/**
 * Prometheus metrics (README "Metrics"), through prom-client, the maintained Node client. One registry per
 * process; features report with the one-line calls below, which cost an increment when nobody scrapes.
 * `GET /metrics` exists only with METRICS_TOKEN set (src/plugins/metrics.ts).
 */
export const registry = new client.Registry();

const httpDuration = new client.Histogram({
  name: 'placet_http_request_duration_seconds',
  help: 'Time to answer HTTP requests, by method, route pattern and status (its _count is the request count)',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const consentsIngested = new client.Counter({
  name: 'placet_consents_ingested_total',
  help: 'Consent records written to the consent log',
  registers: [registry],
});

const ingestBatchSize = new client.Histogram({
  name: 'placet_consent_ingest_batch_size',
  help: 'Records per group commit of the consent log',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  registers: [registry],
});

const queues = new Set<WeakRef<object>>();
const queueDepthOf = new WeakMap<object, () => number>();
new client.Gauge({
  name: 'placet_consent_queue_depth',
  help: 'Consent requests waiting for the next group commit',
  registers: [registry],
  collect() {
    let depth = 0;
    for (const ref of queues) {
      const owner = ref.deref();
      if (owner === undefined) queues.delete(ref);
      else depth += queueDepthOf.get(owner)?.() ?? 0;
    }
    this.set(depth);
  },
});

const widgetCache = new client.Counter({
  name: 'placet_widget_cache_requests_total',
  help: 'Widget script lookups in the in-memory cache, by result (hit or miss)',
  labelNames: ['result'] as const,
  registers: [registry],
});

const webhookFeed = new client.Counter({
  name: 'placet_webhook_feed_records_total',
  help: 'Consent records queued for webhooks, by where the feed found them (tap: this process had just written them; log: read back)',
  labelNames: ['source'] as const,
  registers: [registry],
});

const scanDuration = new client.Histogram({
  name: 'placet_scan_duration_seconds',
  help: 'Duration of website scans, by outcome (ok or failed)',
  labelNames: ['outcome'] as const,
  buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
  registers: [registry],
});

interface PoolLike {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}
const pools = new Set<PoolLike>();
new client.Gauge({
  name: 'placet_db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, waiting clients)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const sum = (pick: (pool: PoolLike) => number) => [...pools].reduce((n, pool) => n + pick(pool), 0);
    this.set({ state: 'total' }, sum((p) => p.totalCount));
    this.set({ state: 'idle' }, sum((p) => p.idleCount));
    this.set({ state: 'waiting' }, sum((p) => p.waitingCount));
  },
});

let defaultsCollected = false;

export const metrics = {
  /** Process metrics (CPU, memory, event-loop lag, handles), switched on with /metrics. */
  collectDefaults(): void {
    if (defaultsCollected) return;
    defaultsCollected = true;
    client.collectDefaultMetrics({ register: registry, prefix: 'placet_' });
  },
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    httpDuration.observe({ method, route, status: String(status) }, seconds);
  },
  /** A group commit of `size` consent records succeeded. */
  consentBatch(size: number): void {
    consentsIngested.inc(size);
    ingestBatchSize.observe(size);
  },
  /** Reports `depth(owner)` as queue depth for as long as `owner` lives. */
  trackConsentQueue<T extends object>(owner: T, depth: (owner: T) => number): void {
    queueDepthOf.set(owner, () => depth(owner));
    queues.add(new WeakRef(owner));
  },
  widgetCache(hit: boolean): void {
    widgetCache.inc({ result: hit ? 'hit' : 'miss' });
  },
  /** The webhook feed queued `records` it found in memory (`tap`) or read from the log (`log`). */
  webhookFeed(source: 'tap' | 'log', records: number): void {
    webhookFeed.inc({ source }, records);
  },
  /** Runs a scan and records its duration and outcome. */
  async timeScan<T>(scan: () => Promise<T>): Promise<T> {
    const end = scanDuration.startTimer();
    try {
      const result = await scan();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      end({ outcome: 'failed' });
      throw err;
    }
  },
  /** Reports a pg pool's connections until the returned function is called. */
  trackPool(pool: PoolLike): () => void {
    pools.add(pool);
    return () => void pools.delete(pool);
  },
};
