/**
 * `node --import tsx bench/webhook-cost.ts`: the CPU the webhook worker spends in Placet's process per consent
 * record, with one record per delivery (WEBHOOK_BATCH_MAX_EVENTS=1, what delivery cost before batching) and
 * with runs of 100. A load-independent complement to `BENCH_WEBHOOK=1 npm run bench`, whose ratios swing on a
 * shared machine: process.cpuUsage() counts this process's CPU only, whatever else runs. The receiver is a child
 * process (bench/webhook-receiver.mjs), as in the consent bench. WEBHOOK_COST_RECORDS (default 20000) records are
 * appended to a SQLite log first, then the worker's passes run until the receiver has them all.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { randomIds, systemClock } from '../src/deps.js';
import { appendRecords, type PreparedRecord } from '../src/features/consent-ingest/consent-ingest.service.js';
import { canonicalRecordJson } from '../src/features/consent-log/consent-log.record.js';
import { WebhookWorker } from '../src/features/webhooks/webhooks.worker.js';
import { AppendedRecords } from '../src/features/consent-log/consent-log.appended.js';
import { registry } from '../src/metrics.js';

const RECORDS = Number(process.env.WEBHOOK_COST_RECORDS ?? 20_000);
/**
 * WEBHOOK_COST_CASES: the cases to run, in order (default 1,100,1,100): a batch cap, read back from the log; with
 * a `t` after it (`100t`), the records reach the worker through the in-process tap as the app's consent writer
 * hands them over (webhooks.tap.ts), so the feed does not read them back.
 */
const CASES = (process.env.WEBHOOK_COST_CASES ?? '1,100,1,100').split(',').map((c) => ({ maxEvents: Number.parseInt(c, 10), tap: c.endsWith('t') }));
const HOSTING_KEY = 'bench-hosting-key-0123456789abcdef';

async function hosting<T>(app: App, method: 'POST' | 'GET', url: string, payload?: unknown): Promise<T> {
  const res = await app.inject({ method, url: `/hosting/api${url}`, headers: { authorization: `Bearer ${HOSTING_KEY}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

async function main(): Promise<void> {
  const receiver = fork(path.join(import.meta.dirname, 'webhook-receiver.mjs'));
  const port = await new Promise<number>((resolve) => receiver.once('message', (m) => resolve((m as { port: number }).port)));
  const received = () =>
    new Promise<number>((resolve) => {
      receiver.once('message', (m) => resolve((m as { records: number }).records));
      receiver.send('count');
    });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-webhook-cost-'));
  const file = path.join(dir, 'bench.sqlite');
  const handle = connect({ kind: 'sqlite', file });
  // The app's own worker polls every 10 minutes: only the measured worker below runs.
  const env = { DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn', HOSTING_API_KEY: HOSTING_KEY, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '600000' };
  const app = await buildApp({ config: loadConfig(env), database: handle });
  console.log(`Webhook worker cost: ${RECORDS} records per case, SQLite, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}\n`);
  try {
    for (const { maxEvents, tap } of CASES) {
      const client = await hosting<{ id: string; apiKey: string }>(app, 'POST', '/client', {
        username: `cost${randomBytes(4).toString('hex')}`, password: 'correct horse battery', emailAddress: 'bench@example.com',
      });
      const domain = await hosting<{ id: string; name: string }>(app, 'POST', `/client/${client.id}/domain`, { name: `cost${maxEvents}.example` });
      await hosting(app, 'POST', `/client/${client.id}/domain/${domain.id}/webhook`, { url: `http://127.0.0.1:${port}/hook` });
      const js = await app.inject({ method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, headers: { origin: `https://${domain.name}` } });
      const snapshot = /\\"sh\\":\\"([0-9a-f]{64})\\"/.exec(js.body)![1]!;
      const t0 = Math.floor(Date.now() / 1000);
      const records: PreparedRecord[] = Array.from({ length: RECORDS }, () => {
        const ucid = randomBytes(32).toString('hex');
        const text = canonicalRecordJson({
          consent: true, ucid, timestamp: t0, purposes: { '41ba25c': 'Technisch notwendig', a717ff5: 'Statistik' }, embeddings: {},
          manipulationPrevention: true, button: 'acceptAll', lang: 'de_DE', revision: 1, legalRevision: 1,
          themeId: null, gpc: null, dnt: null, snapshot, v: 2,
        });
        return { domainId: domain.id, ucid, ts: t0, text, snapshot };
      });
      // The tap case keeps every record appended below (the app's default cap is for records fed as they come).
      const config = loadConfig({ ...env, WEBHOOK_BATCH_MAX_EVENTS: String(maxEvents), WEBHOOK_TAP_MAX_RECORDS: tap ? '100000' : '0' });
      const appended = new AppendedRecords();
      const worker = new WebhookWorker({ config, db: handle.db, engine: 'sqlite', clock: systemClock, ids: randomIds, log: app.log }, undefined, appended);
      // A first pass finds the domain's webhook, so the tap keeps what the appends below hand over.
      await worker.runOnce();
      const publish = tap ? appended.publish.bind(appended) : undefined;
      for (let i = 0; i < RECORDS; i += 5000) await appendRecords(handle.db, 'sqlite', 100_000, records.slice(i, i + 5000), t0, publish);
      const fedFromTap = async () =>
        (await registry.getSingleMetric('placet_webhook_feed_records_total')!.get()).values.find((v) => v.labels.source === 'tap')?.value ?? 0;
      const tappedBefore = await fedFromTap();
      const before = await received();
      const cpu = process.cpuUsage();
      const started = performance.now();
      while ((await received()) - before < RECORDS) await worker.runOnce();
      const used = process.cpuUsage(cpu);
      const ms = performance.now() - started;
      await worker.stop();
      const deliveries = await handle.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      console.log(
        `batch max ${String(maxEvents).padStart(3)}${tap ? ', tap' : ', log'}: ${((used.user + used.system) / RECORDS).toFixed(1)} µs CPU per record ` +
          `(user ${(used.user / 1000).toFixed(0)} ms, system ${(used.system / 1000).toFixed(0)} ms), wall ${ms.toFixed(0)} ms, outbox rows so far ${String(deliveries.n)}, ` +
          `${String((await fedFromTap()) - tappedBefore)} records from the tap`,
      );
    }
  } finally {
    await app.close();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
    receiver.kill();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
