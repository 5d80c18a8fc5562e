import { ConsentStatistics } from '../statistics/consent-statistics.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { requireDomain } from '../domains/domain-scope.js';
import type { AppendedRecords } from '../consent-log/consent-log.appended.js';
import { ConsentWriter } from './consent-ingest.queue.js';
import { CONSENT_BODY_LIMIT, ConsentBody } from './consent-ingest.schemas.js';
import { ConsentLimits, retryAfterOf } from './consent-ingest.limits.js';
import { checkToken, loadConsentTokens } from './consent-token.js';
import { IngestStats, listIngestHours } from './ingest-stats.js';

const tags = ['consent'];

/**
 * POST /public/consent: the widget's beacon. Kept cheap (STYLE practice 14): a fixed schema with bounds,
 * a 16 KiB body limit, cached domain lookups, group commit, no request log line, 204 with no body.
 */
export const consentIngestRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; appended?: AppendedRecords }> = async (app, { deps, appended }) => {
  const tokens = await loadConsentTokens(deps.db, deps.config);
  const stats = new IngestStats(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const statistics = new ConsentStatistics(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const writer = new ConsentWriter(deps, stats, statistics, appended);
  const limits = new ConsentLimits(deps);
  stats.start();
  statistics.start();
  app.addHook('onClose', async () => {
    await writer.close();
    await stats.stop();
    await statistics.stop();
  });

  // sendBeacon and fetch(keepalive) with a string body send text/plain, which needs no CORS preflight.
  // Registered here, the parser applies to this plugin's routes only.
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'string', bodyLimit: CONSENT_BODY_LIMIT },
    app.getDefaultJsonParser('error', 'error'),
  );

  // The widget never reads the answer; a single 400 for every bad request (including an oversized body)
  // keeps its contract simple. Anything else goes on to the app's error handler.
  app.setErrorHandler<FastifyError>((err, _request, reply) => {
    // 429s say when to come back (RFC 9110 Retry-After); the widget does not retry, a script may.
    const retryAfter = err instanceof AppError ? retryAfterOf(err) : undefined;
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .status(400)
        .send(new AppError('CONSENT_INVALID', [{ field: 'body', message: `must be at most ${CONSENT_BODY_LIMIT} bytes` }]).toJSON());
    }
    throw err;
  });

  app.post(
    '/public/consent',
    {
      bodyLimit: CONSENT_BODY_LIMIT,
      logLevel: 'warn',
      // apiKey, domain, ucid, themeId and lang are pattern-checked; embedding ids are looked up among the
      // domain's and never stored otherwise; Origin and Referer are only compared.
      config: { nulSafe: true },
      schema: {
        tags,
        summary: 'Log a consent decision (called by the widget; text/plain or application/json)',
        consumes: ['text/plain', 'application/json'],
        body: ConsentBody,
        response: { 204: Type.Null(), ...errorResponses(400, 403, 415, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      // The checks that need no database, cheapest first: a refused request never reaches the queue.
      const { body } = request;
      try {
        limits.checkAddress(request.ip);
        if (deps.config.consentToken.required) checkToken(tokens, body, Math.floor(deps.clock.now().getTime() / 1000));
        limits.checkDomainAndUcid(body.domain, body.ucid);
      } catch (err) {
        stats.refused(body.domain);
        allowOrigin(reply, request.headers.origin);
        throw err;
      }
      const outcome = await writer.submit({
        body: request.body,
        origin: request.headers.origin,
        referer: request.headers.referer,
        ts: Math.floor(deps.clock.now().getTime() / 1000),
      });
      allowOrigin(reply, outcome.allowOrigin);
      if (!outcome.ok) throw outcome.error;
      return reply.status(204).send(null);
    },
  );

  // Senders that use application/json trigger a preflight. It cannot know the domain yet (no body), so it
  // allows any origin; the POST itself checks the origin against the domain.
  app.options(
    '/public/consent',
    { logLevel: 'warn', schema: { tags, summary: 'CORS preflight for application/json senders', response: { 204: Type.Null() } } },
    async (request, reply) => {
      allowOrigin(reply, request.headers.origin);
      return reply
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '86400')
        .status(204)
        .send(null);
    },
  );
};

function allowOrigin(reply: FastifyReply, origin: string | undefined): void {
  reply.header('vary', 'Origin');
  if (origin !== undefined && origin !== 'null') reply.header('access-control-allow-origin', origin);
}

/** Hosting API: GET …/ingest-stats — a domain's hourly widget loads against its stored and refused consents. */
export const ingestStatsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/client/:clientId/domain/:domainId/ingest-stats',
    {
      schema: {
        tags: ['consent-log'],
        security: HOSTING_SECURITY,
        summary: "The domain's hourly ingest figures, newest first: widget loads, stored and refused consents, suspect hours",
        params: Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema }),
        querystring: Type.Object({
          hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 90, default: 48, description: 'how far back (hours)' })),
        }),
        response: {
          200: Type.Array(
            Type.Object({
              hour: Type.String({ description: 'start of the hour, ISO 8601 UTC' }),
              widgetLoads: Type.Integer(),
              consents: Type.Integer(),
              refused: Type.Integer(),
              suspect: Type.Boolean({ description: 'more consents than 2 × widget loads + 20' }),
            }),
          ),
          ...errorResponses(401, 404),
        },
      },
    },
    async ({ params, query }) => {
      const domain = await requireDomain(deps.db, deps.engine, params.clientId, params.domainId);
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      return listIngestHours(deps.db, domain.id, now - (now % 3600) - ((query.hours ?? 48) - 1) * 3600);
    },
  );
};
