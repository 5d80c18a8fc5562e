import { detectLegalLinks, legalKindOf, type LegalLinks } from './detectors/detect-legal-links.js';
import type { Anchor } from './detectors/html.js';
import { parseSetCookie } from './detectors/set-cookie.js';
import { isCrawlable, isSameSite, pageKey } from './site.js';

export interface CookieSeen {
  name: string;
  domain: string;
  path: string;
  /** Set for another site than the scanned one (an iframe's or a third-party request's cookie). */
  thirdParty: boolean;
}
export interface StorageSeen {
  name: string;
  /** Origin of the frame whose storage holds the key. */
  origin: string;
}

/** Everything one crawl collected, before presets and the address are derived from it. */
export interface RawScan {
  mode: 'browser' | 'http';
  startUrl: string;
  pagesScanned: string[];
  cookies: CookieSeen[];
  localStorage: StorageSeen[];
  sessionStorage: StorageSeen[];
  /** Every script URL seen (first- and third-party); the API lists only third-party ones. */
  scripts: string[];
  iframes: string[];
  inlineScripts: string[];
  blockedRequests: string[];
  legal: LegalLinks;
  /** Visible text of the imprint page, when it was read. */
  imprintText: string | null;
  warnings: string[];
}

const LIMITS = { cookies: 500, storage: 500, scripts: 300, iframes: 100, inline: 100, blocked: 200, anchors: 5000, text: 100_000 };

/**
 * Bounds on size, not only on counts (one page's script URLs once made an 82 MB result): a URL the result
 * reports is cut at MAX_URL_LENGTH characters (what is left still names the host and path that presets
 * match), a link longer than that is not followed, and the strings the result collects (URLs, cookie and
 * storage names, inline scripts) stop at MAX_RESULT_CHARS in total, with a warning. The imprint text has its
 * own bound (LIMITS.text). See docs/onboarding.md.
 */
export const MAX_URL_LENGTH = 2048;
export const MAX_RESULT_CHARS = 1_000_000;

const cut = (url: string) => (url.length > MAX_URL_LENGTH ? url.slice(0, MAX_URL_LENGTH) : url);

/**
 * The crawl's frontier and findings. Breadth first from the start page; links that look like the
 * imprint or privacy policy jump the queue so that they are read even on a small page budget.
 */
export class CrawlState {
  mode: 'browser' | 'http' = 'browser';
  /** The crawl's root: the start URL, or where its first page finally landed after redirects. */
  root: URL;
  /** Set when the first page answered properly; only then is a partial result worth returning. */
  firstPageDone = false;
  /** Set by the scanner's deadline; crawlers stop at the next check. */
  aborted = false;
  readonly warnings: string[] = [];
  readonly pages: string[] = [];
  private readonly queue: URL[] = [];
  private readonly queued = new Set<string>();
  private readonly anchors: Anchor[] = [];
  private readonly cookies = new Map<string, CookieSeen>();
  private readonly storage = { localStorage: new Map<string, StorageSeen>(), sessionStorage: new Map<string, StorageSeen>() };
  private readonly scripts = new Set<string>();
  private readonly iframes = new Set<string>();
  private readonly inline = new Set<string>();
  private readonly blocked = new Set<string>();
  private readonly texts = new Map<string, string>();
  private resultChars = 0;
  private readonly overflow = { longUrls: 0, full: false };

  constructor(
    readonly start: URL,
    readonly maxPages: number,
    readonly deadline: number,
  ) {
    this.root = start;
    this.enqueue(start, false);
  }

  /** Milliseconds left before the deadline. */
  remaining(): number {
    return this.deadline - Date.now();
  }

  /** The next page to visit, or undefined when the budget is used or the frontier is empty. */
  next(): URL | undefined {
    if (this.aborted || this.pages.length >= this.maxPages) return undefined;
    return this.queue.shift();
  }

  /** The first page landed at `finalUrl` (maybe after redirects); the crawl continues from there. */
  rebase(finalUrl: string): void {
    try {
      this.root = new URL(finalUrl);
      this.queued.add(pageKey(this.root));
    } catch {
      // keep the start URL
    }
  }

  visited(url: string): void {
    const key = pageKey(new URL(url));
    this.queued.add(key);
    const kept = cut(key);
    if (!this.pages.includes(kept) && this.charge(kept.length)) this.pages.push(kept);
  }

  addAnchors(anchors: readonly Anchor[]): void {
    for (const anchor of anchors) {
      if (this.anchors.length >= LIMITS.anchors) return;
      if (anchor.href.length > MAX_URL_LENGTH) {
        this.overflow.longUrls++;
        continue;
      }
      let url: URL;
      try {
        url = new URL(anchor.href);
      } catch {
        continue;
      }
      this.anchors.push({ href: url.href, text: anchor.text });
      if (isCrawlable(url, this.root)) this.enqueue(url, legalKindOf(anchor) !== undefined);
    }
  }

  private enqueue(url: URL, priority: boolean): void {
    const key = pageKey(url);
    if (this.queued.has(key) || key.length > MAX_URL_LENGTH) return;
    this.queued.add(key);
    const clean = new URL(key);
    if (priority) this.queue.unshift(clean);
    else this.queue.push(clean);
  }

  isThirdParty(host: string): boolean {
    return !isSameSite(host.replace(/^\./, ''), this.root.hostname);
  }

  addCookie(cookie: { name: string; domain: string; path: string }): void {
    const key = `${cookie.name}\u0000${cookie.domain}\u0000${cookie.path}`;
    if (this.cookies.has(key) || this.cookies.size >= LIMITS.cookies || !this.charge(key.length)) return;
    this.cookies.set(key, { ...cookie, thirdParty: this.isThirdParty(cookie.domain) });
  }

  addSetCookieHeaders(headers: readonly string[], url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    for (const header of headers.flatMap((h) => h.split('\n'))) {
      const cookie = parseSetCookie(header, parsed);
      if (cookie) this.addCookie(cookie);
    }
  }

  addStorage(kind: 'localStorage' | 'sessionStorage', names: readonly string[], origin: string): void {
    const map = this.storage[kind];
    for (const name of names) {
      const key = `${name}\u0000${origin}`;
      if (!map.has(key) && map.size < LIMITS.storage && name.length <= 200 && this.charge(key.length)) map.set(key, { name, origin });
    }
  }

  addScript(url: string): void {
    this.addUrl(this.scripts, LIMITS.scripts, url);
  }

  addIframe(url: string): void {
    this.addUrl(this.iframes, LIMITS.iframes, url);
  }

  addInlineScript(code: string): void {
    const kept = code.slice(0, 5000);
    if (this.inline.size < LIMITS.inline && !this.inline.has(kept) && this.charge(kept.length)) this.inline.add(kept);
  }

  addBlocked(url: string): void {
    this.addUrl(this.blocked, LIMITS.blocked, url, false);
  }

  private addUrl(set: Set<string>, limit: number, url: string, httpOnly = true): void {
    if (set.size >= limit || (httpOnly && !/^https?:/.test(url))) return;
    if (url.length > MAX_URL_LENGTH) this.overflow.longUrls++;
    const kept = cut(url);
    if (!set.has(kept) && this.charge(kept.length)) set.add(kept);
  }

  /** Takes `chars` from the result's budget; false (and a warning, once) when it is used up. */
  private charge(chars: number): boolean {
    if (this.resultChars + chars > MAX_RESULT_CHARS) {
      if (!this.overflow.full) this.warn(`the findings reached the result's size limit (${MAX_RESULT_CHARS} characters); the rest was left out`);
      this.overflow.full = true;
      return false;
    }
    this.resultChars += chars;
    return true;
  }

  setPageText(url: string, text: string): void {
    this.texts.set(pageKey(new URL(url)), text.slice(0, LIMITS.text));
  }

  warn(message: string): void {
    if (this.warnings.length < 50) this.warnings.push(message);
  }

  legal(): LegalLinks {
    return detectLegalLinks(this.anchors, this.root);
  }

  /** The imprint URL when it was found but not read yet (the crawler reads it even past the page budget). */
  unreadImprint(): URL | undefined {
    const { imprintUrl } = this.legal();
    if (!imprintUrl) return undefined;
    const url = new URL(imprintUrl);
    return this.texts.has(pageKey(url)) || !isCrawlable(url, this.root) ? undefined : url;
  }

  result(): RawScan {
    const legal = this.legal();
    const longUrls = this.overflow.longUrls > 0
      ? [`${this.overflow.longUrls} URLs were longer than ${MAX_URL_LENGTH} characters: cut there, or not followed when links`]
      : [];
    return {
      mode: this.mode,
      startUrl: this.start.href,
      pagesScanned: [...this.pages],
      cookies: [...this.cookies.values()],
      localStorage: [...this.storage.localStorage.values()],
      sessionStorage: [...this.storage.sessionStorage.values()],
      scripts: [...this.scripts],
      iframes: [...this.iframes],
      inlineScripts: [...this.inline],
      blockedRequests: [...this.blocked],
      legal,
      imprintText: legal.imprintUrl ? (this.texts.get(pageKey(new URL(legal.imprintUrl))) ?? null) : null,
      warnings: [...this.warnings, ...longUrls],
    };
  }
}
