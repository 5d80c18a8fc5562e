import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { addressKey, exemptAddresses, WindowLimiter } from '../../plugins/rate-limiter.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { checkToken, loadConsentTokens } from '../consent-ingest/consent-token.js';
import { foundChunk } from './found.code.js';
import { sendScriptChunk } from '../widget/script-chunk.js';
import {
  FOUND_LIMITS,
  FoundAdoptBody,
  FoundItemSchema,
  FoundListQuery,
  FoundListSchema,
  FoundReportBody,
  FoundStateBody,
} from './found.schemas.js';
import { adoptFound, listFound, recordReport, setFoundState } from './found.service.js';
import { FoundRescan } from './found.rescan.js';
import { Scanner } from '../onboarding/scanner.js';

const tags = ['found'];

/**
 * Public: POST /public/found (the reporter chunk's beacon) and GET /public/found.js (the chunk). Hardened
 * like /public/consent: a small body limit, a fixed schema, the widget token, the origin checked against the
 * domain, per-address and per-domain limits, and a per-domain cap on distinct items (docs/found-items.md).
 */
export const foundRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tokens = await loadConsentTokens(deps.db, deps.config);
  const { limits } = deps.config;
  const perAddress = new WindowLimiter(limits.enabled ? FOUND_LIMITS.reportsPerAddressPerMinute : 0, 60_000, deps.clock);
  const perDomain = new WindowLimiter(limits.enabled ? FOUND_LIMITS.reportsPerDomainPerMinute : 0, 60_000, deps.clock);
  const exempt = exemptAddresses(limits);
  const chunk = await foundChunk();
  if (deps.config.foundRescanHours > 0) {
    // Its own scanner (one Chromium per process, started at the first scan), so re-scans never wait behind
    // an agency's onboarding scan and onboarding's concurrency limit stays what it says.
    const scanner = new Scanner({ ...deps.config.scan, log: deps.log });
    const rescan = new FoundRescan(deps, scanner);
    rescan.start();
    app.addHook('onClose', async () => {
      await rescan.stop();
      await scanner.close();
    });
  }
  // sendBeacon sends a string as text/plain (no CORS preflight); this parser applies to this plugin only.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: FOUND_LIMITS.bodyBytes }, app.getDefaultJsonParser('error', 'error'));
  app.setErrorHandler<FastifyError>((err, request, reply) => {
    // The beacon's answer is not read, but a fetch() caller (and the tests) sees why, with CORS.
    if (request.headers.origin) reply.header('access-control-allow-origin', request.headers.origin);
    if (err instanceof AppError && err.code === 'RATE_LIMITED' && err.details?.[0]?.retryAfter !== undefined) {
      reply.header('retry-after', String(err.details[0].retryAfter));
    }
    throw err;
  });

  app.post(
    '/public/found',
    {
      bodyLimit: FOUND_LIMITS.bodyBytes,
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Report scripts, iframes, cookies and storage keys no embedding declares (called by the reporter chunk; text/plain JSON)',
        consumes: ['text/plain', 'application/json'],
        body: FoundReportBody,
        response: { 204: Type.Null(), ...errorResponses(400, 403, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const ip = request.ip;
      const limited = (wait: number) => {
        if (wait > 0) throw new AppError('RATE_LIMITED', [{ message: 'too many reports; the widget reports once per day', retryAfter: wait }]);
      };
      limited(exempt(ip) ? 0 : perAddress.hit(addressKey(ip)));
      checkToken(tokens, body, Math.floor(deps.clock.now().getTime() / 1000));
      // After the token: forged reports naming a domain cannot use up that domain's budget.
      limited(perDomain.hit(body.domain));
      await recordReport(deps, body, { origin: request.headers.origin, referer: request.headers.referer });
      if (request.headers.origin) reply.header('access-control-allow-origin', request.headers.origin);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/public/found.js',
    { logLevel: 'warn', schema: { tags: ['widget'], summary: 'The found-items reporter chunk (loaded by domains that record scripts or scan permanently)' } },
    async (request, reply) => sendScriptChunk(reply, request.headers['accept-encoding'], chunk),
  );
};

const ItemParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema, itemId: PathIdSchema });

/** Hosting API: the domain's found items, and ignoring or adopting one. */
export const foundHostingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/client/:clientId/domain/:domainId/found',
    {
      schema: {
        tags,
        security: HOSTING_SECURITY,
        summary: 'Scripts, iframes, cookies and storage keys found on visitors\' pages that no embedding declares, newest first',
        params: Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema }),
        querystring: FoundListQuery,
        response: { 200: FoundListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params, query }) =>
      listFound(deps, params.clientId, params.domainId, { kind: query.kind, state: query.state, limit: query.limit ?? 100, offset: query.offset ?? 0 }),
  );

  app.patch(
    '/client/:clientId/domain/:domainId/found/:itemId',
    {
      schema: {
        tags,
        security: HOSTING_SECURITY,
        summary: 'Ignore a found item (or make it new again); under blockNewScripts an ignored script may run',
        params: ItemParams,
        body: FoundStateBody,
        response: { 200: FoundItemSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params, body }) => setFoundState(deps, params.clientId, params.domainId, params.itemId, body.state),
  );

  app.post(
    '/client/:clientId/domain/:domainId/found/:itemId/adopt',
    {
      schema: {
        tags,
        security: HOSTING_SECURITY,
        summary: 'Adopt a found item into an embedding: its host as a script or iframe marker, or its name as an asset',
        params: ItemParams,
        body: FoundAdoptBody,
        response: { 200: FoundItemSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async ({ params, body }) => adoptFound(deps, params.clientId, params.domainId, params.itemId, body.embeddingId),
  );
};
