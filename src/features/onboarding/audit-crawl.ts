import type { BrowserContext } from 'playwright-core';
import { Visitor } from './audit-visitor.js';
import { bounded } from './browser-crawl.js';
import type { CrawlState } from './crawl-state.js';
import type { EgressProxy } from './egress-proxy.js';
import { isSameSite, pageKey } from './site.js';

/**
 * The moments the audit looks at: before any decision, after "decline", after "accept all", and the widget's own
 * failure: Placet unreachable (the widget's address refused), when only the snippet's fallback stands between the page
 * and its trackers (docs/widget.md, "Placet unreachable").
 */
export const AUDIT_STATES = ['beforeDecision', 'afterDecline', 'afterAcceptAll', 'placetUnreachable'] as const;
export type AuditStateName = (typeof AUDIT_STATES)[number];

export interface AuditRequest {
  url: string;
  /** Playwright's resource type: document (an iframe), script, xhr, fetch, image, ping, … */
  resourceType: string;
  /** The iframe that made the request, when not the page itself. */
  frame?: string;
  /**
   * For a request a script made by code (fetch, XHR, a beacon, …; not a script, frame or stylesheet, and not what the
   * markup asks for): the address of that script, from the DevTools protocol's initiator stack. Chromium reports an
   * image that a script asks for (`new Image().src`) as the document's, so images never have one.
   */
  initiator?: string;
}
export interface AuditStorage {
  name: string;
  origin: string;
}
/** What one page did in one state: its third-party requests and the cookies and storage keys it wrote. */
export interface AuditObservation {
  requests: AuditRequest[];
  /** Requests the page's Content-Security-Policy refused (strict mode): they never left the browser. */
  refusedByPolicy: AuditRequest[];
  cookies: { name: string; domain: string; path: string }[];
  localStorage: AuditStorage[];
  sessionStorage: AuditStorage[];
}
export interface AuditPage {
  url: string;
  /** The widget's banner appeared on this page (before any decision). */
  widget: boolean;
  states: Record<AuditStateName, AuditObservation | null>;
  /** The scripts above the widget's own tag (their address, or their inline text), as the first visitor found them. */
  scriptsBeforeSnippet: string[];
  /** The snippet's fallback is on the page (docs/widget.md, "Placet unreachable"). */
  fallback: boolean;
}


/**
 * The scripts above the widget's `<script>` tag, in page order: each one's address, or its inline text (its first
 * 2,000 characters, enough for the markers). What runs before the widget cannot be blocked (docs/widget.md,
 * "Embedding"); one the widget stopped at its start is there as its blocked copy, with the type it had in
 * `data-ccm-type`. Scripts of other types (JSON-LD, import maps, the widget's loader markup) are left out.
 */
const scriptsBeforeSnippet = (widgetScript: RegExp, snippetInline: readonly string[]) => String.raw`(() => {
  const widget = new RegExp(${JSON.stringify(widgetScript.source)});
  const placet = ${JSON.stringify(snippetInline)};
  const all = Array.from(document.scripts);
  const own = all.findIndex((s) => widget.test(s.src));
  return own < 0 ? [] : all.slice(0, own)
    .filter((s) => /^((text|application)\/(java|ecma)script|module|)$/i.test(s.getAttribute('data-ccm-type') ?? s.getAttribute('type') ?? ''))
    .map((s) => s.src || s.text.trim().slice(0, 2000))
    // The snippet's own inline parts (its fallback, strict mode's switches) are Placet's, not the site's.
    .filter((x) => x !== '' && !placet.some((p) => x.startsWith(p)))
    .slice(0, 200);
})()`;

const SETTLE_MS = 2500;
const MIN_PAGE_MS = 500;

export interface AuditCrawlOptions {
  /** Placet's own origin: the widget's requests are not the site's. */
  readonly placetOrigin: string;
  /** The widget's script address (scan-pass.ts, widgetScriptPattern): what is above it ran before the widget. */
  readonly widgetScript: RegExp;
  /** How the snippet's own inline scripts begin (strict-policy.ts, SNIPPET_INLINE_STARTS): not the site's scripts. */
  readonly snippetInline: readonly string[];
  /** The global the snippet's fallback defines (strict-policy.ts, FALLBACK). */
  readonly fallback: string;
}

/**
 * The enforcement audit's crawl: four visitors (browser contexts) see the site. The first never
 * decides and discovers the pages (breadth first, as the scan); the second declines on the first page
 * and the third accepts all, and both then visit the pages the first found; the fourth visits the pages with a
 * banner while Placet cannot be reached. The time limit is shared: the first visitor gets up to 40 %, the second
 * 40 % of what is left, the third two thirds of what is left then, the fourth the rest (about 12 % of the whole).
 */
export async function crawlForAudit(
  newContext: () => Promise<BrowserContext>,
  state: CrawlState,
  proxy: EgressProxy,
  options: AuditCrawlOptions,
  pages: AuditPage[],
): Promise<void> {
  const isThirdParty = (url: URL) => url.origin !== options.placetOrigin && !isSameSite(url.hostname, state.root.hostname);
  const until = (share: number) => Date.now() + state.remaining() * share;

  // 1. Before any decision, discovering the pages.
  const firstVisitor = await Visitor.open(await newContext(), isThirdParty);
  const passEnd = until(0.4);
  let url: URL | undefined;
  while ((url = state.next())) {
    const left = Math.min(passEnd, state.deadline) - Date.now();
    if (left < MIN_PAGE_MS && state.firstPageDone) {
      state.warn(`time limit: ${state.pages.length} page(s) audited`);
      break;
    }
    const first = !state.firstPageDone;
    const observation = firstVisitor.observe();
    if (!(await firstVisitor.load(url.href, state, proxy, first ? state.remaining() : left, first))) continue;
    if (first) {
      state.rebase(firstVisitor.page.url());
      state.firstPageDone = true;
    }
    state.visited(firstVisitor.page.url());
    const widget = await firstVisitor.bannerShown();
    await firstVisitor.quiet(Math.min(SETTLE_MS, state.remaining() - MIN_PAGE_MS));
    await firstVisitor.collect();
    const above = await bounded(firstVisitor.page.evaluate<string[]>(scriptsBeforeSnippet(options.widgetScript, options.snippetInline)), 2000, []);
    // What the snippet's first line defines (strict-policy.ts, fallbackScript); unknown counts as there.
    const fallback = await bounded(firstVisitor.page.evaluate<boolean>(`typeof window[${JSON.stringify(options.fallback)}] == "function"`), 2000, true);
    const anchors = await bounded(
      firstVisitor.page.evaluate<{ href: string; text: string }[]>(
        `Array.from(document.querySelectorAll('a[href]')).slice(0, 2000).map((a) => ({ href: String(a.href), text: '' }))`,
      ),
      2000,
      [],
    );
    state.addAnchors(anchors);
    pages.push({
      url: pageKey(new URL(firstVisitor.page.url())),
      widget,
      states: { beforeDecision: observation, afterDecline: null, afterAcceptAll: null, placetUnreachable: null },
      scriptsBeforeSnippet: above,
      fallback,
    });
  }
  if (pages.length === 0) return;
  if (!pages.some((p) => p.widget)) {
    state.warn('the Placet widget showed no banner on any page: is the snippet installed first in <head>? Decline and accept all were not audited');
    return;
  }

  // 2. and 3. Decline, then accept all, on the first page with a banner; then every page again.
  for (const [choice, key, share] of [['decline', 'afterDecline', 0.4], ['acceptAll', 'afterAcceptAll', 2 / 3]] as const) {
    const end = until(share);
    const visitor = await Visitor.open(await newContext(), isThirdParty);
    const start = pages.find((p) => p.widget)!;
    if (!(await visitor.load(start.url, state, proxy, end - Date.now(), false)) || !(await visitor.bannerShown())) {
      state.warn(`${start.url}: the banner did not appear again; "${choice}" was not audited`);
      continue;
    }
    await visitor.quiet(Math.min(SETTLE_MS, end - Date.now()));
    await visitor.collect(); // what was written before the click is the first visitor's finding
    const clicked = visitor.observe();
    if (!(await visitor.decide(choice))) {
      state.warn(`${start.url}: the widget's "${choice}" button could not be clicked; "${choice}" was not audited`);
      continue;
    }
    await visitor.quiet(Math.min(SETTLE_MS, end - Date.now()));
    await visitor.collect();
    // What the click itself set off belongs to the page where it happened.
    await visitEach(visitor, pages, key, choice, end, state, proxy, (page, o) => (page === start ? merge(clicked, o) : o));
  }

  // 4. Placet unreachable: each page with a banner again, the widget's address refused as when Placet is down or a
  // proxy blocks it. What loads now is what every visitor gets then, with no banner to decide in: the snippet's
  // fallback must keep it back (docs/widget.md, "Placet unreachable").
  const context = await newContext();
  await context.route((u) => options.widgetScript.test(u.href), (route) => route.abort('connectionrefused'));
  const visitor = await Visitor.open(context, isThirdParty);
  await visitEach(visitor, pages.filter((p) => p.widget), 'placetUnreachable', 'Placet unreachable', until(1), state, proxy);
}

/**
 * `visitor` loads each page of `list` in turn until `end` and keeps what it saw there as the page's state `key`
 * (`keep` may add to it); a warning names how far it got when the time runs out.
 */
async function visitEach(
  visitor: Visitor,
  list: AuditPage[],
  key: Exclude<AuditStateName, 'beforeDecision'>,
  label: string,
  end: number,
  state: CrawlState,
  proxy: EgressProxy,
  keep = (_page: AuditPage, o: AuditObservation) => o,
): Promise<void> {
  for (const page of list) {
    if (end - Date.now() < MIN_PAGE_MS || state.aborted) {
      state.warn(`time limit: "${label}" audited on ${list.filter((p) => p.states[key]).length} of ${list.length} page(s)`);
      break;
    }
    const observation = visitor.observe();
    if (!(await visitor.load(page.url, state, proxy, end - Date.now(), false))) continue;
    await visitor.quiet(Math.min(SETTLE_MS, end - Date.now() - MIN_PAGE_MS));
    await visitor.collect();
    page.states[key] = keep(page, observation);
  }
}

function merge(a: AuditObservation, b: AuditObservation): AuditObservation {
  const union = <T>(x: T[], y: T[], key: (item: T) => string) => {
    const keys = new Set(x.map(key));
    return [...x, ...y.filter((item) => !keys.has(key(item)))];
  };
  return {
    requests: union(a.requests, b.requests, (r) => `${r.resourceType} ${r.url}`),
    // Only the page load's: in strict mode the click's page still has the policies that the reload lifts.
    refusedByPolicy: b.refusedByPolicy,
    cookies: union(a.cookies, b.cookies, (c) => `${c.name} ${c.domain} ${c.path}`),
    localStorage: union(a.localStorage, b.localStorage, (s) => `${s.origin} ${s.name}`),
    sessionStorage: union(a.sessionStorage, b.sessionStorage, (s) => `${s.origin} ${s.name}`),
  };
}
