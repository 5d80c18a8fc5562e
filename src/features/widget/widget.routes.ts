import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { HOSTING_SECURITY, LocaleNameSchema, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { requireDomain } from '../domains/domain-scope.js';
import { listLocaleRows } from '../locales/locales.repository.js';
import { listEmbeddings } from '../embeddings/embeddings.service.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { fallbackScript, strictSnippet } from './strict-policy.js';
import { scanPassResponse } from '../onboarding/scan-pass.js';
import { CallCounter } from './call-counter.js';
import { loadConsentTokens } from '../consent-ingest/consent-token.js';
import { IngestStats } from '../consent-ingest/ingest-stats.js';
import { WidgetService } from './widget.service.js';
import { ConsentStatistics } from '../statistics/consent-statistics.js';
import { previewWidget } from './widget-preview.js';
import { ThemeSettingsSchema } from '../themes/themes.schemas.js';

const WidgetQuery = Type.Object({
  apiKey: Type.String({ minLength: 1, maxLength: 128, description: "the client's public apiKey" }),
  domain: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'domain id; omit with autoCreateDomains' })),
  lang: Type.Optional(LocaleNameSchema),
  theme: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
});

/** Public: GET /public/app.js — the widget with the domain's configuration inlined. */
export const widgetRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const counter = new CallCounter(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const stats = new IngestStats(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const statistics = new ConsentStatistics(deps.db, deps.clock, deps.config.counterFlushIntervalMs, deps.log);
  const widget = new WidgetService(deps, counter, await loadConsentTokens(deps.db, deps.config), stats, statistics);
  await widget.init();
  counter.start();
  stats.start();
  statistics.start();
  app.addHook('onClose', async () => {
    await counter.stop();
    await stats.stop();
    await statistics.stop();
  });

  // `/app.js` and `/ccm19.js` at the root too: integrations build `<script base URL> + "/app.js?…"` (Neos).
  for (const url of ['/public/app.js', '/public/ccm19.js', '/app.js', '/ccm19.js']) {
    app.get(
      url,
      {
        // The hot path: per-request info logs cost a third of the throughput (STACK.md pitfall 9).
        logLevel: 'warn',
        schema: {
          tags: ['widget'],
          summary: 'The consent widget with the domain configuration inlined (Cache-Control: no-cache, strong ETag)',
          hide: url !== '/public/app.js',
          querystring: WidgetQuery,
        },
      },
      async (request, reply) => {
        // Onboarding's scanner, with a pass only the server can issue: an inert script (docs/onboarding.md).
        const pass = await scanPassResponse(deps, request.headers, request.query.domain);
        if (pass) return reply.status(pass.status).headers(pass.headers).send(pass.body);
        const h = request.headers;
        const country = deps.config.countryHeader && h[deps.config.countryHeader];
        const result = await widget.serve({
          ...request.query,
          // After the query: a `country` query parameter must not stand in for the trusted header.
          country: typeof country === 'string' ? country : undefined,
          origin: h.origin,
          referer: h.referer,
          acceptLanguage: h['accept-language'],
          acceptEncoding: h['accept-encoding'],
          ifNoneMatch: h['if-none-match'],
          ip: request.ip,
          userAgent: h['user-agent'],
        });
        if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
        return reply.status(result.status).headers(result.headers).send(result.body);
      },
    );
  }
};

/** Theme settings without the two images: a preview shows the images already saved with the theme. */
const PreviewBody = Type.Object(
  {
    themeId: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    lang: Type.Optional(LocaleNameSchema),
    theme: Type.Optional(Type.Partial(Type.Omit(ThemeSettingsSchema, ['logoImage', 'settingsIconImage']), { additionalProperties: false })),
  },
  { additionalProperties: false },
);

const Snippets = Type.Record(Type.String(), Type.String(), {
  description: '`default` plus one snippet per active locale that forces that language',
});

/** Hosting API: GET …/onboarding/embed — the snippets to paste first into <head>. */
export const widgetHostingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/client/:clientId/domain/:domainId/onboarding/embed',
    {
      schema: {
        tags: ['onboarding'],
        security: HOSTING_SECURITY,
        summary: 'The embed snippets of the domain',
        params: Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema }),
        response: { 200: Snippets, ...errorResponses(401, 404) },
      },
    },
    async ({ params }) => {
      const domain = await requireDomain(deps.db, deps.engine, params.clientId, params.domainId);
      const client = await deps.db.selectFrom('clients').select('api_key').where('id', '=', params.clientId).executeTakeFirst();
      if (!client) throw new AppError('CLIENT_NOT_FOUND');
      const locales = (await listLocaleRows(deps.db, domain.id)).filter((l) => l.active === 1);
      const base = `${deps.config.publicUrl}/public/app.js?apiKey=${client.api_key}&amp;domain=${domain.id}`;
      // Strict mode: the policies go before the script tag, so they are in force before anything of the body loads.
      const settings = domainRowToDomain(domain);
      const embeddings = await listEmbeddings(deps, params.clientId, domain.id);
      const strict = strictSnippet(settings, embeddings, new URL(deps.config.publicUrl).origin);
      // Fail closed when the widget cannot be loaded at all (strict-policy.ts, fallbackScript).
      const fallback = fallbackScript(settings, embeddings, deps.config.publicUrl);
      const tag = (query: string) => `${strict ? `${strict}\n` : ''}${fallback}\n<script src="${base}${query}" referrerpolicy="origin"></script>`;
      return Object.fromEntries([['default', tag('')], ...locales.map((l) => [l.name, tag(`&amp;lang=${l.name}`)])]);
    },
  );

  app.post(
    '/client/:clientId/domain/:domainId/theme/preview',
    {
      schema: {
        tags: ['themes'],
        security: HOSTING_SECURITY,
        summary: 'The domain\'s real widget with unsaved theme settings, for a live preview (inert: nothing recorded or counted)',
        description:
          'Answers the widget script with the domain\'s embeddings, locales and placeholders and the theme `themeId` ' +
          '(default: the default theme) with `theme` laid over it. The script carries no consent token and no client key, ' +
          'so decisions made in the preview are refused by the consent endpoint; the call is not counted as a widget load.',
        params: Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema }),
        body: PreviewBody,
        response: { 200: Type.Object({ script: Type.String() }), ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }) => ({ script: await previewWidget(deps, p.clientId, p.domainId, body) }),
  );
};
