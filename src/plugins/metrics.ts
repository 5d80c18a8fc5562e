import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { pgPoolOf } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { matchesHash, sha256Hex } from '../deps.js';
import { AppError } from '../errors.js';
import { metrics, registry } from '../metrics.js';

/**
 * `GET /metrics` in the Prometheus text format, only when METRICS_TOKEN is set, and only with
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). Without the token there is no route
 * and no per-request timing at all.
 */
export function registerMetrics(app: FastifyInstance, config: Config, db: Db): void {
  const token = config.metricsToken;
  if (token === undefined) return;
  const tokenHash = sha256Hex(token);
  metrics.collectDefaults();
  const pool = pgPoolOf(db);
  if (pool !== undefined) {
    const untrack = metrics.trackPool(pool);
    app.addHook('onClose', async () => untrack());
  }
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids and keys would make a series per request.
    metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (match === null || !matchesHash(match[1]!, tokenHash)) {
      throw new AppError('UNAUTHORIZED', undefined, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
