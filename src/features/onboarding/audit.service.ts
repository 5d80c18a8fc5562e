import type { Deps } from '../../deps.js';
import { requireDomain } from '../domains/domain-scope.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { listEmbeddings } from '../embeddings/embeddings.service.js';
import { FALLBACK, SNIPPET_INLINE_STARTS } from '../widget/strict-policy.js';
import { crawlForAudit, type AuditPage } from './audit-crawl.js';
import { AuditRules, refusedAfterAcceptAll } from './audit-rules.js';
import { onboardingLinks } from './onboarding.repository.js';
import type { AuditResult, AuditViolation } from './onboarding.schemas.js';
import { widgetScriptPattern } from './scan-pass.js';
import { domainStartUrl } from './scan.service.js';
import type { Scanner } from './scanner.js';

const MAX_VIOLATIONS = 1000;

/**
 * GET …/onboarding/audit: the domain's pages in Chromium with the widget as a visitor meets it, before any
 * decision, after "decline" and after "accept all" (docs/onboarding.md, "Enforcement audit").
 */
export async function auditDomain(deps: Deps, scanner: Scanner, clientId: string, domainId: string): Promise<AuditResult> {
  const domain = await requireDomain(deps.db, deps.engine, clientId, domainId);
  const placetOrigin = new URL(deps.config.publicUrl).origin;
  const consentUrl = `${deps.config.publicUrl}/public/consent`;
  const pages: AuditPage[] = [];
  const raw = await scanner.audit(
    domainStartUrl(domain),
    // The audit's clicks are not visitors' decisions: they never reach the consent log.
    async (context) => {
      await context.route(
        (url) => url.href.startsWith(consentUrl),
        (route) => route.fulfill({ status: 204, headers: { 'access-control-allow-origin': '*' } }),
      );
    },
    (newContext, state, proxy) => crawlForAudit(newContext, state, proxy, { placetOrigin, widgetScript: widgetScriptPattern(deps.config.publicUrl), snippetInline: SNIPPET_INLINE_STARTS, fallback: FALLBACK }, pages),
  );
  const rules = new AuditRules(
    await listEmbeddings(deps, clientId, domainId),
    await onboardingLinks(deps.db, domainId),
    domainRowToDomain(domain).requireConsentForMandatoryEmbeddings,
  );
  const violations: AuditViolation[] = [];
  const placement: string[] = [];
  const refused: string[] = [];
  for (const page of pages) {
    const early = rules.scriptsNeedingConsent(page.scriptsBeforeSnippet);
    const warning = rules.placement(page.url, early);
    if (warning) placement.push(warning);
    const earlySet = new Set(early);
    for (const state of ['beforeDecision', 'afterDecline'] as const) {
      const observation = page.states[state];
      if (observation) violations.push(...rules.violations(page.url, state, observation, earlySet));
    }
    // With the widget unreachable its markers block nothing: the fix is the fallback, whatever the embedding's markup.
    const down = page.states.placetUnreachable;
    if (down) violations.push(...rules.violations(page.url, 'placetUnreachable', down, earlySet).map((v) => ({ ...v, fix: unreachableFix(v, page.fallback) })));
    const accepted = page.states.afterAcceptAll;
    if (accepted) refused.push(...refusedAfterAcceptAll(page.url, accepted.refusedByPolicy));
  }
  // Pages with the widget but without the snippet's fallback: there, Placet being unreachable runs every tracker.
  const bare = pages.filter((p) => p.widget && !p.fallback).map((p) => new URL(p.url).pathname);
  if (bare.length > 0) placement.push(noFallback(bare));
  return {
    url: raw.startUrl,
    pagesAudited: pages.map((p) => p.url),
    widgetFound: pages.some((p) => p.widget),
    pages: pages.map((p) => ({ url: p.url, widget: p.widget, ...p.states })),
    violations: violations.slice(0, MAX_VIOLATIONS),
    blockedRequests: raw.blockedRequests,
    warnings: [...raw.warnings, ...placement, ...refused, ...(violations.length > MAX_VIOLATIONS ? [`${violations.length - MAX_VIOLATIONS} more violations not listed`] : [])],
    durationMs: raw.durationMs,
  };
}

/** The fix of what loaded on a page while the widget's address was refused (crawlForAudit, its fourth visitor). */
export const unreachableFix = (v: Pick<AuditViolation, 'page' | 'kind' | 'value'>, fallback: boolean) => {
  const what = v.kind === 'request' ? new URL(v.value).host : `${v.kind} ${v.value}`;
  const path = new URL(v.page).pathname;
  // With the fallback: the browser fetches the page's <script src> and <iframe src> ahead of the parser (preload),
  // before the fallback learns that the widget failed and writes its policy, which then keeps them from running.
  return fallback
    ? `${what} on ${path} while Placet could not be reached, although the snippet's fallback is on the page: a script or ` +
        'frame in the HTML is requested as the browser reads ahead, before the fallback\'s policy applies (the policy keeps it ' +
        'from running: what it would write or send is listed too if it ran), as it is before consent when Placet is up, and ' +
        'the same fix stops the request (script-loader markup, data-ccm-src, or strictBlocking); anything that ran comes ' +
        'before the fallback, which must be the first thing in <head>'
    : `${what} on ${path} while Placet could not be reached: the snippet has no fallback, so when the widget cannot be ` +
        `loaded the page runs every tracker it has; ${PASTE_FALLBACK}`;
};

const PASTE_FALLBACK = 'paste the whole snippet from GET …/onboarding/embed (its first line is the fallback) first in <head>';

/** The warning for pages whose snippet lacks its fallback (docs/widget.md, "Placet unreachable"). */
export const noFallback = (paths: string[]) =>
  `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}: the Placet snippet has no fallback, so when the ` +
  `widget cannot be loaded (Placet unreachable, an error page instead of it) these pages run every tracker they have; ${PASTE_FALLBACK}`;
