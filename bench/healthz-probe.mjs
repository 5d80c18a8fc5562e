/* global setTimeout */
// Child of bench/verify-latency.ts: GET the URL one request after the other (keep-alive) until told to
// stop, then send the latencies (ms) back over IPC.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (url) =>
  new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    }).on('error', reject);
  });

let stopped = false;
process.once('message', () => (stopped = true));
const latencies = [];
process.send('started');
while (!stopped) {
  const t = performance.now();
  await get(process.argv[2]);
  latencies.push(performance.now() - t);
  await new Promise((r) => setTimeout(r, 2));
}
process.send(latencies);
agent.destroy();
process.disconnect();
