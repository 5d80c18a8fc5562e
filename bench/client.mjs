/* global fetch */
// Client for bench/consent.ts's large-log figures, run as a child process so that its own work (fetch,
// JSON parsing, gunzip) does not run on the server's event loop. Takes one job and answers over IPC.
import { performance } from 'node:perf_hooks';

const job = await new Promise((resolve) => process.once('message', resolve));

if (job.kind === 'lookups') {
  for (const url of job.warmup) await (await fetch(url)).arrayBuffer();
  const latencies = [];
  let found = 0;
  for (const url of job.urls) {
    const t = performance.now();
    const list = await (await fetch(url)).json();
    latencies.push(performance.now() - t);
    if (list.length > 0) found++;
  }
  process.send({ latencies, found });
  process.disconnect();
} else {
  const t = performance.now();
  const res = await fetch(job.url, { headers: job.headers });
  const bytes = (await res.arrayBuffer()).byteLength;
  process.send({ ms: performance.now() - t, bytes, status: res.status });
  process.disconnect();
}
