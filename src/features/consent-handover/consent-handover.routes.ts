import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errorResponses } from '../../schemas/common.js';
import type { AppendedRecords } from '../consent-log/consent-log.appended.js';
import { ConsentWriter } from '../consent-ingest/consent-ingest.queue.js';
import { loadConsentTokens } from '../consent-ingest/consent-token.js';
import { IngestStats } from '../consent-ingest/ingest-stats.js';
import { HANDOVER_BODY_LIMIT, HandedOver, IssueBody, IssuedToken, RedeemBody } from './consent-handover.schemas.js';
import { issueToken, redeemToken, type HandoverLimits, type Refused } from './consent-handover.service.js';
import { RateWindow } from './rate-window.js';

const tags = ['consent'];

/**
 * Cross-domain consent hand-over (docs/widget.md, "Consent sharing between hosts"): a page of a sharing set
 * asks for a short-lived, single-use token for the decision its visitor holds; the page the visitor goes
 * to redeems it, which logs a `handover` record, and only then adopts the decision. Both take text/plain
 * JSON, so the widget's calls need no CORS preflight.
 */
export const consentHandoverRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; appended?: AppendedRecords }> = async (app, { deps, appended }) => {
  // Its own queue onto the same write path as POST /public/consent: records are validated and chained
  // alike, and the chain is correct with any number of writers (consent-ingest.service.ts).
  // Its counters add up with POST /public/consent's in ingest_stats (atomic upserts): a hand-over counts as a
  // stored consent of its domain.
  const stats = new IngestStats(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const writer = new ConsentWriter(deps, stats, undefined, appended);
  stats.start();
  app.addHook('onClose', async () => {
    await writer.close();
    await stats.stop();
  });
  const limits: HandoverLimits = {
    issue: new RateWindow(deps.config.handover.ratePerMinute),
    redeem: new RateWindow(deps.config.handover.ratePerMinute),
    tokens: await loadConsentTokens(deps.db, deps.config),
  };
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'string', bodyLimit: HANDOVER_BODY_LIMIT },
    app.getDefaultJsonParser('error', 'error'),
  );
  const common = { bodyLimit: HANDOVER_BODY_LIMIT, logLevel: 'warn' as const, config: { nulSafe: true } };
  const headersOf = (request: FastifyRequest) => ({
    origin: request.headers.origin,
    referer: request.headers.referer,
    address: request.ip,
  });

  app.post(
    '/public/handover',
    {
      ...common,
      schema: {
        tags,
        summary: 'Issue a hand-over token for the decision the calling page holds (called by the widget)',
        consumes: ['text/plain', 'application/json'],
        body: IssueBody,
        response: { 200: IssuedToken, ...errorResponses(400, 409, 415, 429, 500) },
      },
    },
    async (request, reply) => {
      const result = await issueToken(deps, limits, { body: request.body, ...headersOf(request) });
      if (!result.ok) return failed(reply, result);
      allowOrigin(reply, result.allowOrigin);
      return { token: result.token, expiresAt: result.expiresAt };
    },
  );

  app.post(
    '/public/handover/redeem',
    {
      ...common,
      schema: {
        tags,
        summary: 'Redeem a hand-over token: logs a `handover` record and answers the decision (called by the widget)',
        consumes: ['text/plain', 'application/json'],
        body: RedeemBody,
        response: { 200: HandedOver, ...errorResponses(400, 403, 409, 415, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const result = await redeemToken(deps, writer, limits, { body: request.body, ...headersOf(request) });
      if (!result.ok) return failed(reply, result);
      allowOrigin(reply, result.allowOrigin);
      return result.handedOver;
    },
  );
};

function failed(reply: FastifyReply, result: Refused): never {
  allowOrigin(reply, result.allowOrigin);
  if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
  throw result.error;
}

function allowOrigin(reply: FastifyReply, origin: string | undefined): void {
  reply.header('vary', 'Origin');
  if (origin !== undefined) reply.header('access-control-allow-origin', origin);
}
