import { errors, type BrowserContext, type Page, type Response } from 'playwright-core';
import type { AppError } from '../../errors.js';
import { MAX_URL_LENGTH, type CrawlState } from './crawl-state.js';
import type { Anchor } from './detectors/html.js';
import { PROXY_ERROR_HEADER, type EgressProxy, type ProxyFailure } from './egress-proxy.js';
import { scanFailed, siteError, targetForbidden, type FailureReason } from './scan-errors.js';

/**
 * After `load`, a page is read once its network has been quiet for a while (no request in flight):
 * longer on the first page, where tag managers chain-load their trackers, and for at most SETTLE_MS.
 */
const QUIET_FIRST_MS = 500;
const QUIET_MS = 200;
const SETTLE_MS = 2000;
/** Upper bound of one evaluation in a page: a page stuck in a loop cannot stall the crawl. */
const EVALUATE_MS = 2000;
const MIN_PAGE_MS = 500;
/** Pages after the first get at most this long, so that one stalled page does not use up the whole scan. */
const PAGE_TIMEOUT_MS = 10_000;

interface PageFindings {
  anchors: Anchor[];
  inline: string[];
  text: string;
}

/** Resolves to `fallback` when `work` fails or takes longer than `ms`. */
export function bounded<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

function hostPort(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`;
  } catch {
    return '';
  }
}

/**
 * Crawls with a real Chromium page in the scan's own context: cookies from Set-Cookie headers of every
 * response (also those the browser refuses) and from the browser's store, localStorage and
 * sessionStorage keys of every frame, every script and iframe requested, links and page text.
 */
export async function crawlWithBrowser(context: BrowserContext, state: CrawlState, proxy: EgressProxy): Promise<void> {
  state.mode = 'browser';
  const page = await context.newPage();
  const pending = new Set<Promise<void>>();
  let failedNavigation: string | undefined;
  let inFlight = 0;
  let lastActivity = Date.now();
  const activity = (delta: number) => {
    inFlight = Math.max(0, inFlight + delta);
    lastActivity = Date.now();
  };
  page.on('request', () => activity(1));
  page.on('requestfinished', () => activity(-1));
  page.on('requestfailed', () => activity(-1));
  const quiet = async (quietMs: number, maxMs: number) => {
    const until = Date.now() + maxMs;
    while (Date.now() < until && (inFlight > 0 || Date.now() - lastActivity < quietMs)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  context.on('page', (other) => void (other === page ? undefined : other.close().catch(() => undefined)));
  page.on('request', (request) => {
    try {
      if (request.resourceType() === 'script') state.addScript(request.url());
      else if (request.isNavigationRequest() && request.frame() !== page.mainFrame()) state.addIframe(request.url());
    } catch {
      // the request's frame is already gone
    }
  });
  page.on('response', (response) => {
    const work = (async () => {
      if (response.headers()[PROXY_ERROR_HEADER] === 'FORBIDDEN') state.addBlocked(response.url());
      state.addSetCookieHeaders(await response.headerValues('set-cookie'), response.url());
    })().catch(() => undefined);
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
  page.on('requestfailed', (request) => {
    const url = request.url();
    if (/ERR_TUNNEL_CONNECTION_FAILED/.test(request.failure()?.errorText ?? '') && proxy.failureFor(hostPort(url)) === 'FORBIDDEN') {
      state.addBlocked(url);
    }
    try {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) failedNavigation = url;
    } catch {
      // detached frame
    }
  });

  const visit = async (url: URL): Promise<void> => {
    const first = !state.firstPageDone;
    failedNavigation = undefined;
    inFlight = 0;
    let response: Response | null;
    try {
      const timeout = first ? state.remaining() : Math.min(state.remaining(), PAGE_TIMEOUT_MS);
      response = await page.goto(url.href, { waitUntil: 'load', timeout: Math.max(timeout, 1) });
    } catch (err) {
      const error = navigationError(err, failedNavigation ?? url.href, proxy);
      if (first) throw error;
      state.warn(`${url.href} skipped: ${error.details?.[0]?.message ?? error.message}`);
      return;
    }
    const refused = response?.headers()[PROXY_ERROR_HEADER] as ProxyFailure | undefined;
    if (refused) {
      const error = refused === 'FORBIDDEN'
        ? targetForbidden(`${new URL(response!.url()).host} is on a loopback, private, link-local or metadata network`)
        : scanFailed(refused as FailureReason, `${response!.url()} could not be loaded`);
      if (first) throw error;
      state.warn(`${url.href} skipped: ${error.details?.[0]?.message}`);
      return;
    }
    if (first) {
      const status = response?.status() ?? 200;
      if (status >= 400) throw siteError(`${response!.url()} answered with HTTP status ${status}`);
      const body = response ? await bounded(response.body(), EVALUATE_MS, Buffer.from('?')) : Buffer.from('?');
      if (body.toString('utf8').trim() === '') throw siteError(`${response!.url()} answered with empty content`);
      state.rebase(page.url());
      state.firstPageDone = true;
    } else if (response && response.status() >= 400) {
      state.warn(`${response.url()} answered with HTTP status ${response.status()}`);
    }
    state.visited(page.url());
    await quiet(first ? QUIET_FIRST_MS : QUIET_MS, Math.min(SETTLE_MS, state.remaining() - MIN_PAGE_MS));
    await collect(page, context, state);
    await bounded(Promise.all([...pending]), EVALUATE_MS, []);
  };

  let url: URL | undefined;
  while ((url = state.next())) {
    if (state.remaining() < MIN_PAGE_MS) {
      state.warn(`time limit reached after ${state.pages.length} page(s)`);
      break;
    }
    await visit(url);
  }
  const imprint = state.unreadImprint();
  if (imprint && !state.aborted && state.remaining() >= MIN_PAGE_MS) await visit(imprint);
}

/*
 * Scripts run inside the scanned pages. They are strings on purpose: a transpiler (tsx, vitest) may
 * wrap functions in helpers such as `__name` that do not exist in the page.
 */
const READ_PAGE = `(() => ({
  anchors: Array.from(document.querySelectorAll('a[href]')).filter((a) => String(a.href).length <= ${MAX_URL_LENGTH}).slice(0, 2000).map((a) => ({
    href: typeof a.href === 'string' ? a.href : String(a.getAttribute('href')),
    text: (a.innerText || a.getAttribute('aria-label') || a.title || (a.querySelector('img') || {}).alt || '').trim().slice(0, 200),
  })),
  inline: Array.from(document.scripts).filter((s) => !s.src && s.text.trim() !== '').slice(0, 50)
    .map((s) => s.text.trim().slice(0, 5000)),
  text: document.body ? document.body.innerText.slice(0, 100000) : '',
}))()`;

export const READ_STORAGE = `(() => {
  const keys = (read) => { try { return Object.keys(read()); } catch (e) { return []; } };
  return { origin: location.origin, local: keys(() => localStorage), session: keys(() => sessionStorage) };
})()`;

async function collect(page: Page, context: BrowserContext, state: CrawlState): Promise<void> {
  const findings = await bounded<PageFindings | undefined>(page.mainFrame().evaluate<PageFindings>(READ_PAGE), EVALUATE_MS, undefined);
  if (findings) {
    state.addAnchors(findings.anchors);
    findings.inline.forEach((code) => state.addInlineScript(code));
    state.setPageText(page.url(), findings.text);
  }
  for (const frame of page.frames()) {
    const storage = await bounded(
      frame.evaluate<{ origin: string; local: string[]; session: string[] }>(READ_STORAGE),
      EVALUATE_MS,
      undefined,
    );
    if (!storage || storage.origin === 'null') continue;
    state.addStorage('localStorage', storage.local, storage.origin);
    state.addStorage('sessionStorage', storage.session, storage.origin);
  }
  for (const c of await bounded(context.cookies(), EVALUATE_MS, [])) {
    state.addCookie({ name: c.name, domain: c.domain, path: c.path });
  }
}

export function navigationError(err: unknown, url: string, proxy: EgressProxy): AppError {
  const message = (err as Error).message ?? String(err);
  const firstLine = message.split('\n')[0] ?? message;
  if (err instanceof errors.TimeoutError) return scanFailed('TIMEOUT', `${url} did not load within the scan's time limit`);
  if (/ERR_TUNNEL_CONNECTION_FAILED/.test(message)) {
    const failure = proxy.failureFor(hostPort(url));
    if (failure === 'FORBIDDEN') return targetForbidden(`${new URL(url).host} is on a loopback, private, link-local or metadata network`);
    return scanFailed(failure ?? 'CONNECTION_FAILED', `${url} could not be loaded`);
  }
  if (/ERR_NAME_NOT_RESOLVED/.test(message)) return scanFailed('DNS', `${url}: the host name could not be resolved`);
  if (/ERR_CONNECTION_REFUSED/.test(message)) return scanFailed('CONNECTION_REFUSED', `${url} refused the connection`);
  if (/ERR_(CERT|SSL)/.test(message)) return scanFailed('TLS', `${url}: ${firstLine}`);
  if (/ERR_TOO_MANY_REDIRECTS|ERR_UNSAFE_REDIRECT|ERR_INVALID_REDIRECT/.test(message)) return siteError(`${url}: ${firstLine}`);
  if (/closed|crash/i.test(message)) return scanFailed('BROWSER_CRASHED', 'the browser closed during the scan');
  return scanFailed('CONNECTION_FAILED', `${url}: ${firstLine}`);
}
