import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { RecentKeys, addressKey } from '../../plugins/rate-limiter.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { checkToken, loadConsentTokens } from '../consent-ingest/consent-token.js';
import { quotaNoticesFor } from '../quotas/quotas.notices.js';
import { ConsentStatistics } from './consent-statistics.js';
import { readStatistics, statisticsCsv } from './statistics.service.js';

const tags = ['statistics'];
const Day = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', description: 'a day YYYY-MM-DD (UTC)' });
const Counts = Type.Record(Type.String(), Type.Integer());
const DaySchema = Type.Object({
  day: Type.String(),
  calls: Type.Integer({ description: 'counted widget loads (bots and excluded addresses not counted)' }),
  displays: Type.Integer({ description: 'banners shown to a visitor without a decision' }),
  decisions: Type.Integer(),
  acceptAll: Type.Integer(),
  decline: Type.Integer(),
  custom: Type.Integer({ description: 'decisions made with any other button (a selection, an overlay, the API)' }),
  consented: Type.Integer({ description: 'decisions that accepted anything beyond the technically necessary' }),
  bounces: Type.Integer({ description: 'displays minus decisions, at least 0' }),
  acceptanceRate: Type.Number({ description: 'consented ÷ decisions (0–1)' }),
  purposes: Counts,
  embeddings: Counts,
  browsers: Counts,
  os: Counts,
});

/** Hosting API: GET …/statistics — the domain's anonymous consent statistics per day, JSON or CSV. */
export const statisticsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/client/:clientId/domain/:domainId/statistics',
    {
      schema: {
        tags, security: HOSTING_SECURITY,
        summary: 'Anonymous consent statistics per day (needs canUseAnalytics); ?format=csv for a spreadsheet',
        params: Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema }),
        querystring: Type.Object({
          from: Type.Optional(Day),
          to: Type.Optional(Day),
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
        }),
        response: {
          200: Type.Object({ from: Type.String(), to: Type.String(), days: Type.Array(DaySchema), totals: DaySchema }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async ({ params, query }, reply) => {
      const stats = await readStatistics(deps, params.clientId, params.domainId, query.from, query.to);
      if (query.format !== 'csv') return stats;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="statistics-${params.domainId}-${stats.from}-${stats.to}.csv"`)
        .send(statisticsCsv(stats) as never);
    },
  );
};

/** Displays counted per address and domain at most once per this many ms: a reload loop counts once. */
const DISPLAY_WINDOW_MS = 10_000;

/**
 * Public: POST /public/display — the widget's beacon when it shows the banner to a visitor without a decision.
 * It carries the widget token of the delivery (as a consent does), so only a widget Placet served can count a
 * display, and one address counts at most one display per domain in 10 s; nothing is stored but the count.
 */
export const displayRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tokens = await loadConsentTokens(deps.db, deps.config);
  const statistics = new ConsentStatistics(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const seen = new RecentKeys(DISPLAY_WINDOW_MS, deps.clock, 200_000);
  statistics.start();
  app.addHook('onClose', () => statistics.stop());
  // sendBeacon sends a string as text/plain (no CORS preflight); this parser applies to this plugin only.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 1024 }, app.getDefaultJsonParser('error', 'error'));

  app.post(
    '/public/display',
    {
      bodyLimit: 1024,
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Count a banner display (called by the widget; text/plain JSON)',
        consumes: ['text/plain', 'application/json'],
        body: Type.Object({
          domain: Type.String({ pattern: '^[0-9a-f]{7}$' }),
          revision: Type.Integer({ minimum: 1 }),
          token: Type.String({ minLength: 1, maxLength: 200 }),
        }),
        response: { 204: Type.Null(), ...errorResponses(400, 403, 415) },
      },
    },
    async (request, reply) => {
      const { body } = request;
      checkToken(tokens, body, Math.floor(deps.clock.now().getTime() / 1000));
      const ua = request.headers['user-agent'];
      if (quotaNoticesFor(deps).policy.counts(request.ip, ua) && seen.first(`${addressKey(request.ip)}|${body.domain}`)) {
        statistics.display(body.domain);
      }
      // A cross-origin beacon's answer is not read; CORS only keeps a fetch() caller from erroring.
      if (request.headers.origin) reply.header('access-control-allow-origin', request.headers.origin);
      return reply.status(204).send(null);
    },
  );
};
