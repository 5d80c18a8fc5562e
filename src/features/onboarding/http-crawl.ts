import type { AppError } from '../../errors.js';
import type { CrawlState } from './crawl-state.js';
import { extractAnchors, extractResources, htmlToText } from './detectors/html.js';
import { fetchPage, type FetchedPage } from './http-fetch.js';
import { connectionError, siteError } from './scan-errors.js';
import type { TargetGuard } from './target-guard.js';

export const SCANNER_USER_AGENT = 'Mozilla/5.0 (compatible; PlacetScanner/0.1; +https://github.com/placet)';
const MIN_PAGE_MS = 300;

/**
 * The fallback crawl without a browser: pages over plain HTTP, cookies from Set-Cookie headers of the
 * pages (and their redirects), scripts and iframes from the HTML. It cannot see what scripts set
 * (document.cookie, localStorage, sessionStorage); the result says so in `warnings`.
 */
export async function crawlOverHttp(state: CrawlState, guard: TargetGuard, signal: AbortSignal): Promise<void> {
  state.mode = 'http';
  state.warn('HTTP-only crawl: cookies, localStorage and sessionStorage entries set by scripts are not seen');
  let url: URL | undefined;
  while ((url = state.next())) {
    if (state.remaining() < MIN_PAGE_MS) {
      state.warn(`time limit reached after ${state.pages.length} page(s)`);
      break;
    }
    await visit(state, url, guard, signal);
  }
  const imprint = state.unreadImprint();
  if (imprint && !state.aborted && state.remaining() >= MIN_PAGE_MS) await visit(state, imprint, guard, signal);
}

async function visit(state: CrawlState, url: URL, guard: TargetGuard, signal: AbortSignal): Promise<boolean> {
  const first = !state.firstPageDone;
  let page: FetchedPage;
  try {
    page = await fetchPage(url, { guard, signal, timeoutMs: Math.max(state.remaining(), 1), userAgent: SCANNER_USER_AGENT });
  } catch (err) {
    if (first) throw firstPageError(err, url.href);
    state.warn(`${url.href} skipped: ${connectionError(err, url.href).details?.[0]?.message ?? 'failed'}`);
    return false;
  }
  for (const hop of page.hops) state.addSetCookieHeaders(hop.setCookies, hop.url);
  if (first) {
    if (page.status >= 400) throw siteError(`${page.url} answered with HTTP status ${page.status}`);
    if (page.body.trim() === '') throw siteError(`${page.url} answered with empty content`);
    state.rebase(page.url);
    state.firstPageDone = true;
  } else if (page.status >= 400) {
    state.warn(`${page.url} answered with HTTP status ${page.status}`);
  }
  state.visited(page.url);
  if (!/html|^$/i.test(page.contentType)) return true;
  const pageUrl = new URL(page.url);
  state.addAnchors(extractAnchors(page.body, pageUrl));
  const resources = extractResources(page.body, pageUrl);
  resources.scripts.forEach((s) => state.addScript(s));
  resources.iframes.forEach((f) => state.addIframe(f));
  resources.inlineScripts.forEach((code) => state.addInlineScript(code));
  state.setPageText(page.url, htmlToText(page.body));
  return true;
}

function firstPageError(err: unknown, url: string): AppError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'TOO_MANY_REDIRECTS' || code === 'BAD_REDIRECT') return siteError(`${url}: ${(err as Error).message}`);
  return connectionError(err, url);
}
