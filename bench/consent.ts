/**
 * `npm run bench`: consent ingestion throughput against a no-op route, then prefix lookups and block
 * streaming with over a million records in the log, on SQLite and (when reachable) PostgreSQL.
 * Figures are printed, not asserted. BENCH_DURATION (seconds per load run, default 6), BENCH_ROUNDS
 * (no-op/consent pairs per variant, default 3) and BENCH_RECORDS (default 1099999) change a run.
 * Beside each consent run's ratio: the CPU this process (Placet; the no-op server idles meanwhile) used per
 * stored consent, over the run and a settle pause after it that lets background work (webhook deliveries, a
 * poll interval behind) finish inside the window. On a shared machine the ratio swings with other work; CPU per
 * consent barely does, so it shows what BENCH_WEBHOOK=1 costs when the ratio cannot. BENCH_WEBHOOK=1 replaces the
 * variants with two domains, without and with a consent webhook, alternating inside every round, and prints the
 * drop per round (docs/webhooks.md, "Cost on the ingest path").
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import type { Engine } from '../src/db/database.js';
import { appendRecords, type PreparedRecord } from '../src/features/consent-ingest/consent-ingest.service.js';
import { ConsentTokens, loadConsentTokens } from '../src/features/consent-ingest/consent-token.js';
import { canonicalRecordJson } from '../src/features/consent-log/consent-log.record.js';
import { percentile } from './log-common.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 6);
/** No-op and consent runs alternate this many times per variant: the machine is shared and noisy. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
/** Pause after each consent run, counted in its CPU figure (see the header). */
const SETTLE_MS = 2000;
/** Seconds of load on each route before the measured rounds (see benchIngest). */
const WARMUP_SECONDS = 2;
/** Ten full blocks plus a current block one short of full (a block closes when it reaches 100000). */
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_099_999);
const BLOCK_SIZE = 100_000;
const LOOKUPS = 1000;
const HOSTING_KEY = 'bench-hosting-key-0123456789abcdef';
/** BENCH_WEBHOOK=1: the bench domain has a consent webhook to a local receiver, so every record is also delivered. */
const WEBHOOK = process.env.BENCH_WEBHOOK === '1';
/** The receiver runs in a child process of its own (bench/webhook-receiver.mjs), as an agency's endpoint would. */
let receiver: ChildProcess | undefined;
let receiverPort: Promise<number> | undefined;
const receiverCount = async () => {
  if (!receiver) return { deliveries: 0, records: 0 };
  const answer = new Promise<{ deliveries: number; records: number }>((resolve) =>
    receiver!.once('message', (m) => resolve(m as { deliveries: number; records: number })),
  );
  receiver.send('count');
  return answer;
};
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface LoadResult {
  requestsPerSecond: number;
  okPerSecond: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  /** CPU time of the bench process (the server under test) per answered request, µs. */
  cpuPerRequest: number;
  /** CPU time of the load generator per request, µs (it runs on the same machine). */
  loadCpuPerRequest: number;
}

const loadRows: string[][] = [];
/** Per variant, the ratio of each round: the machine is shared, so the median is the figure to report. */
const ratios = new Map<string, number[]>();
/** Per variant, server CPU µs per request of each round: [no-op, consent]. */
const cpuRatios = new Map<string, [number, number][]>();
const cpuPerConsentUs = new Map<string, number[]>();
const storedCount = async (handle: DatabaseHandle, domainId: string) =>
  Number(
    (await handle.db.selectFrom('consent_records').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', domainId).executeTakeFirstOrThrow()).n,
  );
const dataRows: string[][] = [];
let serverLookupMs: number[] = [];

function load(job: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'load.mjs'), [JSON.stringify({ connections: CONNECTIONS, duration: DURATION, ...job })]);
    // This process's CPU time while the load runs: the server under test (the other server idles meanwhile).
    // Per request it is steadier than requests/s on a shared machine, which moves with the scheduler.
    const cpu = process.cpuUsage();
    child.once('message', (m) => {
      const used = process.cpuUsage(cpu);
      const result = m as LoadResult;
      resolve({ ...result, cpuPerRequest: (used.user + used.system) / Math.max(1, result.total) });
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))));
  });
}

/** The no-op baseline: a bare Fastify with the same text/plain JSON parsing and a schema, answering 204. */
async function startNoop(): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.post(
    '/noop',
    { schema: { body: { type: 'object', required: ['apiKey', 'domain', 'ucid'], properties: { ucid: { type: 'string', pattern: '^[0-9a-f]{64}$' } } } } },
    async (_request, reply) => reply.status(204).send(),
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/noop`, close: () => app.close() };
}

async function openStore(engine: Engine): Promise<{ handle: DatabaseHandle; env: Record<string, string>; drop(): Promise<void> }> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-bench-'));
    const file = path.join(dir, 'bench.sqlite');
    return {
      handle: connect({ kind: 'sqlite', file }),
      env: { DATABASE_URL: `sqlite:${file}` },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    handle: connect({ kind: 'postgres', url: PG_URL }, { pgSchema: schema, pgPoolSize: 10 }),
    env: { DATABASE_URL: PG_URL },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

async function pgReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function hosting<T>(app: App, method: 'POST' | 'GET', url: string, payload?: unknown): Promise<T> {
  const res = await app.inject({ method, url: `/hosting/api${url}`, headers: { authorization: `Bearer ${HOSTING_KEY}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

async function fixture(app: App, name: string) {
  const client = await hosting<{ id: string; apiKey: string }>(app, 'POST', '/client', {
    username: `bench${randomBytes(4).toString('hex')}`, password: 'correct horse battery', emailAddress: 'bench@example.com',
  });
  const domain = await hosting<{ id: string; name: string }>(app, 'POST', `/client/${client.id}/domain`, { name });
  const embeddings: string[] = [];
  for (const [n, purpose] of [['Maps', '15c61c3'], ['Stats', 'a717ff5']] as const) {
    embeddings.push((await hosting<{ id: string }>(app, 'POST', `/client/${client.id}/domain/${domain.id}/embedding`, { name: n, purpose })).id);
  }
  const { apiKey } = await hosting<{ apiKey: string }>(app, 'POST', `/client/${client.id}/domain-api-key`);
  return { client, domain, embeddings, domainApiKey: apiKey };
}

/** The snapshot hash the widget of the fixture's domain is served with, as a real page gets it. */
async function servedHash(app: App, f: Awaited<ReturnType<typeof fixture>>): Promise<string> {
  const res = await app.inject({
    method: 'GET', url: `/public/app.js?apiKey=${f.client.apiKey}&domain=${f.domain.id}`, headers: { origin: `https://${f.domain.name}` },
  });
  const hash = /\\"sh\\":\\"([0-9a-f]{64})\\"/.exec(res.body)?.[1];
  if (!hash) throw new Error(`no snapshot hash in app.js: ${res.statusCode}`);
  return hash;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function benchIngest(engine: Engine, app: App, config: Config, baseUrl: string, noopUrl: string, handle: DatabaseHandle): Promise<void> {
  // The token the widget body Placet serves would carry (docs/consent-log.md, "Widget tokens"): every
  // consent is checked against it, as in production.
  const tokens = await loadConsentTokens(handle.db, config);
  type Fixture = Awaited<ReturnType<typeof fixture>>;
  const consentBody = async (f: Fixture) => ({
    apiKey: f.client.apiKey, domain: f.domain.id, consent: true, embeddings: f.embeddings,
    manipulationPrevention: true, button: 'acceptAll', lang: 'de_DE', revision: 1, legalRevision: 1,
    token: tokens.mint(f.domain.id, 1, ConsentTokens.issueTime(Math.floor(Date.now() / 1000))),
    snapshot: await servedHash(app, f),
  });
  const f = await fixture(app, 'bench.example');
  const body = await consentBody(f);
  interface Variant { label: string; prepare: () => Promise<void>; f: Fixture; body: Record<string, unknown> }
  const plain = (label: string, prepare: () => Promise<void> = async () => undefined): Variant => ({ label, prepare, f, body });
  let variants: Variant[];
  if (WEBHOOK) {
    // BENCH_WEBHOOK=1: the same ingest on two domains, one of them with a consent webhook to a local receiver,
    // in alternate runs of each round, so the drop is read off one run rather than two runs an hour apart.
    receiverPort ??= new Promise<number>((resolve) => {
      receiver = fork(path.join(import.meta.dirname, 'webhook-receiver.mjs'));
      // The agency's endpoint is another machine: here it shares the two cores with Placet and the load
      // generator, so it runs at the lowest priority and takes only CPU they leave idle (it catches up in the
      // settle pause). Its cost is the receiver's, not Placet's; CPU µs/consent shows Placet's own.
      if (receiver.pid !== undefined) os.setPriority(receiver.pid, 19);
      receiver.once('message', (m) => resolve((m as { port: number }).port));
    });
    const port = await receiverPort;
    const hooked = await fixture(app, 'hooked.example');
    await hosting(app, 'POST', `/client/${hooked.client.id}/domain/${hooked.domain.id}/webhook`, { url: `http://127.0.0.1:${port}/hook` });
    variants = [plain('no webhook'), { label: 'webhook on', prepare: async () => undefined, f: hooked, body: await consentBody(hooked) }];
  } else if (engine === 'sqlite') {
    const synchronous = (mode: 'normal' | 'full') => async () => void (await sql.raw(`pragma synchronous = ${mode}`).execute(handle.db));
    variants = [plain('WAL, synchronous=NORMAL (default)', synchronous('normal')), plain('WAL, synchronous=FULL', synchronous('full'))];
  } else variants = [plain('synchronous_commit=on (default)')];
  let acknowledged = 0;
  // Warm-up, not reported: the first seconds of a route compile its code paths and size the young
  // generation; both routes get them, so the rounds compare steady states.
  await load({ url: noopUrl, origin: 'https://bench.example', body: { ...body }, duration: WARMUP_SECONDS });
  for (const v of variants) acknowledged += (await load({ url: `${baseUrl}/public/consent`, origin: `https://${v.f.domain.name}`, body: v.body, duration: WARMUP_SECONDS })).ok;
  // Rounds outside, variants inside: every variant meets the machine in the same state, round after round.
  for (let round = 1; round <= ROUNDS; round++) {
    for (const { label, prepare, f: { domain: { id: domainId, name: host } }, body: variantBody } of variants) {
      await prepare();
      const noop = await load({ url: noopUrl, origin: 'https://bench.example', body: { ...variantBody } });
      const storedBefore = await storedCount(handle, domainId);
      const cpu = process.cpuUsage();
      const ingest = await load({ url: `${baseUrl}/public/consent`, origin: `https://${host}`, body: variantBody });
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const used = process.cpuUsage(cpu);
      const cpuPerConsent = (used.user + used.system) / Math.max(1, (await storedCount(handle, domainId)) - storedBefore);
      const key = `${engine}: ${label}`;
      cpuPerConsentUs.set(key, [...(cpuPerConsentUs.get(key) ?? []), cpuPerConsent]);
      acknowledged += ingest.ok;
      // Only 2xx answers count on either side: a refused consent is cheaper than a stored one.
      const ratio = ingest.okPerSecond / noop.okPerSecond;
      ratios.set(key, [...(ratios.get(key) ?? []), ratio]);
      cpuRatios.set(key, [...(cpuRatios.get(key) ?? []), [noop.cpuPerRequest, ingest.cpuPerRequest]]);
      loadRows.push([`${engine}: no-op route`, fmt(noop.requestsPerSecond), fmt(noop.p50), fmt(noop.p99), fmt(noop.non2xx + noop.errors), fmt(noop.cpuPerRequest, 1), fmt(noop.loadCpuPerRequest, 1), '', '']);
      loadRows.push([
        `${engine}: POST /public/consent, ${label}`,
        fmt(ingest.requestsPerSecond), fmt(ingest.p50), fmt(ingest.p99), fmt(ingest.non2xx + ingest.errors),
        fmt(ingest.cpuPerRequest, 1), fmt(ingest.loadCpuPerRequest, 1), fmt(ratio, 2), fmt(cpuPerConsent),
      ]);
    }
  }
  if (engine === 'sqlite') await sql`pragma synchronous = normal`.execute(handle.db);
  for (const v of new Set(variants.map((x) => x.f))) {
    const verify = await hosting<{ ok: boolean; checkedRecords: number }>(app, 'GET', `/client/${v.client.id}/domain/${v.domain.id}/consent-log/verify`);
    console.log(`${engine}: ${v.domain.name}: chain verify ${verify.ok ? 'ok' : 'FAILED'} (${fmt(verify.checkedRecords)} records)`);
  }
  const stored = await handle.db.selectFrom('consent_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  console.log(`${engine}: ${fmt(acknowledged)} consents acknowledged, ${fmt(Number(stored.n))} stored`);
}

async function benchLargeLog(engine: Engine, app: App, baseUrl: string, handle: DatabaseHandle): Promise<void> {
  const f = await fixture(app, 'big.example');
  const started = performance.now();
  const batch = 5000;
  let current: string[] = [];
  // Recent timestamps, so the retention job (a minute after start) has nothing to delete.
  const t0 = Math.floor(Date.now() / 1000) - 86_400;
  const snapshot = await servedHash(app, f);
  for (let done = 0; done < RECORDS; ) {
    const records: PreparedRecord[] = [];
    for (let i = 0; i < batch && done < RECORDS; i++, done++) {
      const ucid = randomBytes(32).toString('hex');
      const ts = t0 + Math.floor(done / 50);
      const text = canonicalRecordJson({
        consent: true, ucid, timestamp: ts,
        purposes: { '41ba25c': 'Technisch notwendig', '15c61c3': 'Sonstiges', a717ff5: 'Statistik' },
        embeddings: { [f.embeddings[0]!]: 'Maps', [f.embeddings[1]!]: 'Stats' },
        manipulationPrevention: true, button: 'acceptAll', lang: 'de_DE', revision: 1, legalRevision: 1,
        themeId: null, gpc: null, dnt: null, snapshot, v: 2,
      });
      records.push({ domainId: f.domain.id, ucid, ts, text, snapshot });
      if (done % BLOCK_SIZE === 0) current = [];
      current.push(ucid);
    }
    await appendRecords(handle.db, engine, BLOCK_SIZE, records, t0);
  }
  const loadSeconds = (performance.now() - started) / 1000;
  console.log(`${engine}: loaded ${fmt(RECORDS)} chained records in ${fmt(loadSeconds, 1)} s (${fmt(RECORDS / loadSeconds)} records/s)`);

  // Measure the steady state, not the maintenance a bulk load of a million rows sets off: the WAL checkpoint
  // (SQLite) and autovacuum/analyze (PostgreSQL) would otherwise run during the lookups.
  const settled = performance.now();
  if (engine === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(handle.db);
  else {
    await sql`vacuum analyze consent_records`.execute(handle.db);
    await sql`checkpoint`.execute(handle.db);
  }
  console.log(`${engine}: checkpoint${engine === 'postgres' ? ', vacuum and analyze' : ''} after the load took ${fmt((performance.now() - settled) / 1000, 1)} s`);

  const key = f.domainApiKey;
  const consents = `${baseUrl}/api/domains/${f.domain.id}/consents`;
  // Warm-up (first calls compile the route's code paths), not measured.
  const warmup = current.slice(0, 200).map((u) => `${consents}/${u.slice(0, 16)}?apiKey=${key}`);
  const urls = Array.from({ length: LOOKUPS }, (_, i) => {
    const ucid = current[Math.floor(Math.random() * current.length)]!;
    return `${consents}/${i % 4 === 0 ? ucid.toUpperCase() : ucid.slice(0, 16)}?apiKey=${key}`;
  });
  serverLookupMs = [];
  const lookups = await client<{ latencies: number[]; found: number }>({ kind: 'lookups', warmup, urls });
  const latencies = [...lookups.latencies].sort((a, b) => a - b);
  const server = serverLookupMs.slice(warmup.length).sort((a, b) => a - b);
  dataRows.push([`${engine}: prefix lookup (${LOOKUPS}×, ${fmt(lookups.found)} hits), client`, `p50 ${fmt(percentile(latencies, 50), 2)} ms`, `p99 ${fmt(percentile(latencies, 99), 2)} ms`, `max ${fmt(latencies.at(-1)!, 2)} ms`]);
  dataRows.push([`${engine}: prefix lookup, server time`, `p50 ${fmt(percentile(server, 50), 2)} ms`, `p99 ${fmt(percentile(server, 99), 2)} ms`, `max ${fmt(server.at(-1)!, 2)} ms`]);

  const exportUrl = `${baseUrl}/hosting/api/client/${f.client.id}/domain/${f.domain.id}/consent-log/blocks/1/export?apiKey=${HOSTING_KEY}`;
  for (const [label, url, encoding] of [
    [`current block via GET …/consents (${fmt(current.length)} records)`, `${consents}?apiKey=${key}`, 'identity'],
    [`archived block 1 via export NDJSON (${fmt(BLOCK_SIZE)} records)`, exportUrl, 'identity'],
    [`archived block 1 via export NDJSON, gzip (${fmt(BLOCK_SIZE)} records)`, exportUrl, 'gzip'],
  ] as const) {
    const r = await client<{ ms: number; bytes: number; status: number }>({ kind: 'stream', url, headers: { 'accept-encoding': encoding } });
    dataRows.push([`${engine}: stream ${label}`, `${fmt(r.ms)} ms`, `${fmt(r.bytes / 1e6, 1)} MB`, `status ${r.status}`]);
  }
}

function client<T>(job: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'client.mjs'));
    child.once('message', (m) => resolve(m as T));
    child.send(job);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`bench client exited with ${code}`))));
  });
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

async function main(): Promise<void> {
  const load1 = os.loadavg()[0]!.toFixed(1);
  console.log(`Placet consent bench: ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} CPUs, load average ${load1}, Node ${process.version}\n`);
  const noop = await startNoop();
  const engines: Engine[] = ['sqlite'];
  if (await pgReachable()) engines.push('postgres');
  else console.log(`PostgreSQL at ${PG_URL} is not reachable: skipped.\n`);

  for (const engine of engines) {
    const store = await openStore(engine);
    // The limits of a real site (README "Security model", defaults), except that the load generator's address
    // is exempt from the per-address limit and the per-domain limit is raised past what one machine can send:
    // every limit is still checked on every request, so its cost is in the figures.
    const config = loadConfig({
      ...store.env, LOG_LEVEL: 'warn', HOSTING_API_KEY: HOSTING_KEY, CONSENT_LOG_BLOCK_SIZE: String(BLOCK_SIZE),
      RATE_LIMIT_EXEMPT: '127.0.0.1', CONSENT_RATE_PER_DOMAIN: '100000000',
      ...(WEBHOOK ? { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } : {}),
      // Passed through, so a run can compare the webhook feed with and without its tap, or with other run lengths
      // (docs/webhooks.md).
      ...Object.fromEntries(['WEBHOOK_TAP_MAX_RECORDS', 'WEBHOOK_BATCH_MAX_EVENTS'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))),
    });
    const app = await buildApp({ config, database: store.handle });
    // Server-side time of each prefix lookup (from the request's arrival to the response's end), beside
    // the client's end-to-end figure: on a 2-core machine shared by client, server and database the
    // difference is scheduling.
    app.addHook('onResponse', async (request, reply) => {
      if (/\/consents\/[0-9a-fA-F]+\?/.test(request.url)) serverLookupMs.push(reply.elapsedTime);
    });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      await benchIngest(engine, app, config, baseUrl, noop.url, store.handle);
      await benchLargeLog(engine, app, baseUrl, store.handle);
    } finally {
      await app.close();
      await store.handle.close();
      await store.drop();
    }
  }
  await noop.close();

  console.log('\nIngestion (autocannon, latency in ms; ratio = consent 2xx/s ÷ no-op 2xx/s measured just before)');
  // CPU µs/req: during the load run only; CPU µs/consent: the run plus a settle pause, per stored record, so work
  // that follows the answers (the webhook worker, group commits) counts too.
  printTable(['run', 'req/s', 'p50', 'p99', 'non-2xx', 'CPU µs/req', 'load gen. CPU µs/req', 'ratio', 'CPU µs/consent'], loadRows);
  if (WEBHOOK) {
    const received = await receiverCount();
    console.log(`\nWebhook deliveries received during the run: ${fmt(received.deliveries)}, carrying ${fmt(received.records)} consent records`);
    receiver?.kill();
  }
  console.log('\nMedian ratio per variant (target: sqlite >= 0.7, postgres >= 0.35)');
  for (const [key, list] of ratios) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`  ${key}: ${fmt(percentile(sorted, 50), 2)} (rounds: ${list.map((r) => fmt(r, 2)).join(', ')})`);
  }
  if (WEBHOOK) {
    // Each round ran both domains back to back; the drop is taken per round, then the median, so a round the
    // machine was busier for both does not count as a drop (target: <= 0.05, issue #19).
    for (const engine of new Set([...ratios.keys()].map((k) => k.split(':')[0]!))) {
      const off = ratios.get(`${engine}: no webhook`) ?? [];
      const on = ratios.get(`${engine}: webhook on`) ?? [];
      const drops = off.map((r, i) => r - (on[i] ?? r));
      console.log(`  ${engine}: webhook drop (no webhook − webhook on, per round): ${fmt(percentile([...drops].sort((a, b) => a - b), 50), 2)} (rounds: ${drops.map((d) => fmt(d, 2)).join(', ')})`);
    }
  }
  // The ratio is about (server CPU per no-op request) ÷ (server CPU per consent) when the server's core is the
  // bottleneck; the load generator occupies the other core. This is that quotient, from CPU time alone.
  console.log('\nServer CPU per request, µs, median of the rounds: no-op, consent (no-op ÷ consent)');
  for (const [key, list] of cpuRatios) {
    const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
    const noop = median(list.map(([n]) => n));
    const consent = median(list.map(([, c]) => c));
    console.log(`  ${key}: ${fmt(noop, 1)}, ${fmt(consent, 1)} (${fmt(noop / consent, 2)})`);
  }
  console.log('\nMedian CPU of this process per stored consent, µs (run + settle pause)');
  for (const [key, list] of cpuPerConsentUs) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`  ${key}: ${fmt(percentile(sorted, 50))} (rounds: ${list.map((r) => fmt(r)).join(', ')})`);
  }
  console.log(`\nLarge log (${fmt(RECORDS)} records, blocks of ${fmt(BLOCK_SIZE)})`);
  printTable(['measure', '', '', ''], dataRows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
