// Load generator for bench/consent.ts, run as a child process so it does not share the server's event
// loop. Reads one JSON job from argv, runs autocannon and sends the summary back over IPC.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

const job = JSON.parse(process.argv[2]);
const prefix = randomBytes(8).toString('hex');
let counter = 0;

/** A valid consent body with a ucid never used before (random prefix + counter, 64 hex). */
function body() {
  const ucid = prefix + (counter++).toString(16).padStart(48, '0');
  return JSON.stringify({ ...job.body, ucid });
}

const cpuStart = process.cpuUsage();
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: job.origin },
      setupRequest: (request) => ({ ...request, body: body() }),
    },
  ],
});

const cpuUsed = process.cpuUsage(cpuStart);
process.send({
  // The load generator's own CPU per request: when it is the larger of the two, it bounds the no-op route.
  loadCpuPerRequest: (cpuUsed.user + cpuUsed.system) / Math.max(1, result.requests.total),
  requestsPerSecond: result.requests.average,
  // Answers that stored something, per second: the figure the ratio uses, so refused or failed requests
  // (cheap to answer) can never raise it.
  okPerSecond: result['2xx'] / result.duration,
  total: result.requests.total,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  p50: result.latency.p50,
  p99: result.latency.p99,
});
