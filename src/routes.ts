import cookie from '@fastify/cookie';
import type { App } from './app.js';
import type { Deps } from './deps.js';
import { assignOperationId } from './plugins/operation-ids.js';
import { assetRoutes } from './features/assets/assets.routes.js';
import { clientRoutes } from './features/clients/clients.routes.js';
import { consentHandoverRoutes } from './features/consent-handover/consent-handover.routes.js';
import { consentIngestRoutes, ingestStatsRoutes } from './features/consent-ingest/consent-ingest.routes.js';
import { consoleRoutes } from './features/console/console.routes.js';
import { consentLogRoutes } from './features/consent-log/consent-log.routes.js';
import { AppendedRecords } from './features/consent-log/consent-log.appended.js';
import { domainApiRoutes } from './features/domain-api/domain-api.routes.js';
import { onboardingRoutes } from './features/onboarding/onboarding.routes.js';
import { widgetHostingRoutes, widgetRoutes } from './features/widget/widget.routes.js';
import { domainRoutes } from './features/domains/domains.routes.js';
import { embeddingRoutes } from './features/embeddings/embeddings.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { hostingAuth } from './features/hosting-auth/hosting-auth.plugin.js';
import { localeRoutes } from './features/locales/locales.routes.js';
import { presetRoutes } from './features/presets/presets.routes.js';
import { placeholderRoutes } from './features/placeholders/placeholders.routes.js';
import { themeRoutes } from './features/themes/themes.routes.js';
import { accountRoutes } from './features/account/account.routes.js';
import { displayRoutes, statisticsRoutes } from './features/statistics/statistics.routes.js';
import { webhookRoutes } from './features/webhooks/webhooks.routes.js';
import { quotaRoutes } from './features/quotas/quotas.routes.js';
import { tcfHostingRoutes, tcfRoutes } from './features/tcf/tcf.routes.js';
import { videoPreviewRoutes } from './features/video-previews/video-previews.routes.js';
import { foundHostingRoutes, foundRoutes } from './features/found/found.routes.js';

/** The route table (STYLE practice 4): every feature plugin and its prefix, in one greppable place. */
export async function registerRoutes(app: App, deps: Deps): Promise<void> {
  app.addHook('onRoute', assignOperationId);
  // What this app's consent writers commit, heard by its webhook feed (consent-log.appended.ts).
  const appended = new AppendedRecords();
  await app.register(healthRoutes, { deps });
  // Console sessions travel in a cookie, read by the Hosting API's auth hook and the console routes; the
  // cookie parser is registered for those two only, so the public endpoints (widget, consent beacon,
  // Domain API) do not parse cookies or run its hook on every request.
  await app.register(async (withCookies) => {
    await withCookies.register(cookie);
    await withCookies.register(
      async (hosting) => {
        hosting.addHook('onRequest', hostingAuth(deps));
        await hosting.register(clientRoutes, { deps });
        await hosting.register(domainRoutes, { deps });
        await hosting.register(embeddingRoutes, { deps });
        await hosting.register(assetRoutes, { deps });
        await hosting.register(placeholderRoutes, { deps });
        await hosting.register(localeRoutes, { deps });
        await hosting.register(themeRoutes, { deps });
        await hosting.register(accountRoutes, { deps });
        await hosting.register(statisticsRoutes, { deps });
        await hosting.register(onboardingRoutes, { deps });
        await hosting.register(presetRoutes);
        await hosting.register(consentLogRoutes, { deps });
        await hosting.register(widgetHostingRoutes, { deps });
        await hosting.register(ingestStatsRoutes, { deps });
        await hosting.register(webhookRoutes, { deps, appended });
        await hosting.register(quotaRoutes, { deps });
        await hosting.register(tcfHostingRoutes, { deps });
        await hosting.register(foundHostingRoutes, { deps });
      },
      { prefix: '/hosting/api' },
    );
    // Pages for people: the landing page at `/`, the plugins' back-end link `/public/`, the console.
    await withCookies.register(consoleRoutes, { deps });
  });
  // Public endpoints called from visitors' browsers: no agency key.
  // Before the widget: it reads the GVL store this plugin loads.
  await app.register(tcfRoutes, { deps });
  await app.register(widgetRoutes, { deps });
  await app.register(consentIngestRoutes, { deps, appended });
  await app.register(displayRoutes, { deps });
  await app.register(consentHandoverRoutes, { deps, appended });
  await app.register(videoPreviewRoutes, { deps });
  await app.register(foundRoutes, { deps });
  // Domain API: authenticated with a client's secret Domain API key.
  await app.register(domainApiRoutes, { deps, prefix: '/api' });
}
