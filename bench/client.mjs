/* global fetch, Buffer */
// Client for bench/consent.ts's large-log figures, run as a child process so that its own work (fetch,
// JSON parsing, gunzip) does not run on the server's event loop. Takes one job and answers over IPC.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

// Lookups use node:http with a keep-alive agent: lighter than fetch, so the figure is mostly the server's.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      })
      .on('error', reject);
  });
}

const job = await new Promise((resolve) => process.once('message', resolve));

if (job.kind === 'lookups') {
  for (const url of job.warmup) await get(url);
  const latencies = [];
  let found = 0;
  for (const url of job.urls) {
    const t = performance.now();
    const list = JSON.parse((await get(url)).toString());
    latencies.push(performance.now() - t);
    if (list.length > 0) found++;
  }
  process.send({ latencies, found });
  agent.destroy();
  process.disconnect();
} else {
  const t = performance.now();
  const res = await fetch(job.url, { headers: job.headers });
  const bytes = (await res.arrayBuffer()).byteLength;
  process.send({ ms: performance.now() - t, bytes, status: res.status });
  process.disconnect();
}
