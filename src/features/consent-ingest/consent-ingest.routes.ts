import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { ConsentWriter } from './consent-ingest.queue.js';
import { CONSENT_BODY_LIMIT, ConsentBody } from './consent-ingest.schemas.js';

const tags = ['consent'];

/**
 * POST /public/consent: the widget's beacon. Kept cheap (STYLE practice 14): a fixed schema with bounds,
 * a 16 KiB body limit, cached domain lookups, group commit, no request log line, 204 with no body.
 */
export const consentIngestRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const writer = new ConsentWriter(deps);
  app.addHook('onClose', () => writer.close());

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
        response: { 204: Type.Null(), ...errorResponses(400, 415, 500, 503) },
      },
    },
    async (request, reply) => {
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
