import http from 'node:http';
import https from 'node:https';
import { loadConfig } from '../config.js';

/**
 * `placet healthcheck` (the image's HEALTHCHECK): exits 0 when this instance answers `GET /healthz` with
 * 200 within 4 s, else 1. It asks the local process over loopback, so over HTTPS the certificate is not
 * checked (it is made out to the public name, not to 127.0.0.1).
 */
const config = loadConfig();
const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
const get = config.tls ? https.get : http.get;
const req = get({ host, port: config.port, path: '/healthz', timeout: 4000, rejectUnauthorized: false }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', (err) => {
  process.stderr.write(`healthcheck: ${err.message}\n`);
  process.exit(1);
});
