/**
 * `npx tsx bench/verify-latency.ts`: does a long consent-log operation stall other requests? On a SQLite
 * file with BENCH_VERIFY_RECORDS chained records (default 1099999: ten full blocks of 100000 and a current block of 99999) in one domain, a separate process asks
 * `GET /healthz` one request after the other while the server (1) idles, (2) runs `GET …/consent-log/verify`
 * over the whole log, (3) streams the whole current block through the Domain API. Prints p50, p99 and the
 * longest /healthz answer of each phase (docs/consent-log.md, "Long operations"). Printed, not asserted.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { appendMany, hosting, openStore, percentile, realisticDomain, servedHash, startApp } from './log-common.js';

const RECORDS = Number(process.env.BENCH_VERIFY_RECORDS ?? 1_099_999);
const BLOCK_SIZE = 100_000;

const store = await openStore('sqlite');
const app = await startApp(store, BLOCK_SIZE);
try {
  const d = await realisticDomain(app);
  const hash = await servedHash(app, d);
  const started = performance.now();
  await appendMany(store, 'sqlite', d.domain.id, d.embeddings, hash, RECORDS, BLOCK_SIZE);
  console.log(`sqlite: loaded ${RECORDS.toLocaleString('en-US')} records in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const { apiKey } = await hosting<{ apiKey: string }>(app, 'POST', `/client/${d.client.id}/domain-api-key`);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });

  /** /healthz latencies from a separate process while `work` runs (or for `idleMs`). */
  const probe = async (work: () => Promise<unknown>) => {
    const child = fork(path.join(import.meta.dirname, 'healthz-probe.mjs'), [`${address}/healthz`]);
    await new Promise((resolve) => child.once('message', resolve)); // the probe is running
    // The server's own view: how late its event loop ran timers (in-process, independent of the probe).
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const t = performance.now();
    await work();
    const ms = performance.now() - t;
    lag.disable();
    child.send('stop');
    const latencies = (await new Promise((resolve) => child.once('message', resolve))) as number[];
    latencies.sort((a, b) => a - b);
    return {
      ms, n: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1)!,
      lagP99: lag.percentile(99) / 1e6, lagMax: lag.max / 1e6,
    };
  };
  const show = (label: string, r: Awaited<ReturnType<typeof probe>>) =>
    console.log(`${label.padEnd(44)} ${(r.ms / 1000).toFixed(1).padStart(6)} s   /healthz ×${r.n}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms; event-loop delay p99 ${r.lagP99.toFixed(1)} ms, max ${r.lagMax.toFixed(1)} ms`);

  show('idle (3 s)', await probe(() => new Promise((r) => setTimeout(r, 3000))));
  show(`verify of ${RECORDS.toLocaleString('en-US')} records`, await probe(async () => {
    const res = await fetch(`${address}/hosting/api/client/${d.client.id}/domain/${d.domain.id}/consent-log/verify`, { headers: { authorization: 'Bearer bench-hosting-key-0123456789abcdef' } });
    const body = (await res.json()) as { ok: boolean; checkedRecords: number };
    if (!body.ok || body.checkedRecords !== RECORDS) throw new Error(`verify: ${JSON.stringify(body)}`);
  }));
  // Read by a separate process (bench/client.mjs), so that parsing 40 MB does not run on the server's loop.
  show('Domain API: whole current block', await probe(async () => {
    const client = fork(path.join(import.meta.dirname, 'client.mjs'));
    const done = new Promise((resolve) => client.once('message', resolve));
    client.send({ kind: 'stream', url: `${address}/api/domains/${d.domain.id}/consents?apiKey=${apiKey}` });
    const result = (await done) as { status: number; bytes: number };
    if (result.status !== 200) throw new Error(`stream: ${result.status}`);
  }));
} finally {
  await app.close();
  await store.handle.close();
  await store.drop();
}
