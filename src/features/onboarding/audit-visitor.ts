import type { BrowserContext, Frame, Page, Request, Response } from 'playwright-core';
import type { AuditObservation, AuditRequest } from './audit-crawl.js';
import { READ_STORAGE, bounded, navigationError } from './browser-crawl.js';
import type { CrawlState } from './crawl-state.js';
import { parseSetCookie } from './detectors/set-cookie.js';
import { PROXY_ERROR_HEADER, type EgressProxy, type ProxyFailure } from './egress-proxy.js';
import { scanFailed, siteError, targetForbidden, type FailureReason } from './scan-errors.js';

/**
 * The widget as a visitor meets it: its host element, in whose open shadow root the banner's buttons are
 * (widget/src: `#ccm-widget`, button row `.n`, `.a` accept all, `.d` decline, `.s`/`.k` settings).
 * Playwright's CSS selectors pierce open shadow roots.
 */
const WIDGET = {
  dialog: '#ccm-widget [role="dialog"]',
  acceptAll: '#ccm-widget .n button.a',
  decline: '#ccm-widget .n button.d',
  settings: '#ccm-widget .n button.s, #ccm-widget .n button.k',
  /** In the settings layer the first `.a` button saves the selection, which is empty after opening. */
  save: '#ccm-widget .n button.a',
} as const;
/** The widget's own storage (`ccm_consent`, `ccm_reloaded`, …) is not something the site wrote. */
const OWN_STORAGE = /^ccm_/;

const LIMITS = { requests: 200, writes: 200 };
const QUIET_MS = 500;
const BANNER_WAIT_MS = 2000;
const PAGE_TIMEOUT_MS = 10_000;

export const emptyObservation = (): AuditObservation => ({ requests: [], refusedByPolicy: [], cookies: [], localStorage: [], sessionStorage: [] });

/**
 * Runs first in every frame: reports each `document.cookie` write and each `setItem` to the audit, so that
 * a script that writes again what it wrote before (the same name, even the same value) is still seen.
 * Keys set as properties (`localStorage.x = 1`) are found by comparing the keys after each page.
 */
const WRITE_BINDING = '__placetAuditWrite';
const WATCH_WRITES = `(() => {
  const report = (kind, value) => { try { window.${WRITE_BINDING}(kind, String(value)); } catch (e) {} };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (cookie && cookie.set) {
    Object.defineProperty(Document.prototype, 'cookie', {
      configurable: true, enumerable: cookie.enumerable, get: cookie.get,
      set(value) { report('cookie', value); return cookie.set.call(this, value); },
    });
  }
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    let kind = 'localStorage';
    try { if (this === window.sessionStorage) kind = 'sessionStorage'; } catch (e) {}
    report(kind, key);
    return setItem.call(this, key, value);
  };
})()`;

/** A cookie string that removes its cookie (what the widget does to cookies it must delete). */
function isDeletion(raw: string): boolean {
  const maxAge = /;\s*max-age\s*=\s*(-?\d+)/i.exec(raw);
  if (maxAge) return Number(maxAge[1]) <= 0;
  const expires = /;\s*expires\s*=\s*([^;]+)/i.exec(raw);
  return expires ? Date.parse(expires[1]!) < Date.now() : false;
}

/** Request types a script makes by code, whose initiator the audit records (AuditRequest.initiator). */
const BY_CODE = new Set(['fetch', 'xhr', 'ping', 'image', 'other', 'websocket', 'eventsource']);

/**
 * One browser context = one visitor. It remembers every cookie and storage key it has seen, so that a
 * page's observation lists only what that page wrote, and records the third-party requests of its page.
 */
export class Visitor {
  private readonly seen = new Set<string>();
  private current: AuditObservation | undefined;
  private readonly requestsSeen = new Set<string>();
  /** Each recorded request's entry, where it went, so a refusal by policy can take it out again. */
  private readonly recorded = new WeakMap<Request, { target: AuditObservation; key: string; entry: AuditRequest }>();
  /** What the current observation holds already (one entry per cookie or key, however often written). */
  private readonly written = new Set<string>();
  private inFlight = 0;
  private lastActivity = Date.now();
  /**
   * Who made a request by code, by address, from the DevTools protocol (Playwright's request has no initiator); either
   * side may arrive first, so an entry waiting for its initiator is kept by address too. Both are bounded by the
   * requests an observation may hold.
   */
  private readonly initiators = new Map<string, string>();
  private readonly awaitingInitiator = new Map<string, AuditRequest>();

  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly isThirdParty: (url: URL) => boolean,
  ) {
    page.on('request', (request) => {
      this.activity(1);
      const target = this.current;
      if (!target) return;
      let url: URL;
      try {
        url = new URL(request.url());
      } catch {
        return;
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !this.isThirdParty(url)) return;
      const key = `${request.resourceType()} ${url.href}`;
      if (this.requestsSeen.has(key) || target.requests.length >= LIMITS.requests) return;
      this.requestsSeen.add(key);
      let frame: string | undefined;
      try {
        const origin = request.frame();
        if (origin !== page.mainFrame() && !request.isNavigationRequest()) frame = origin.url();
      } catch {
        // the frame is gone
      }
      const entry: AuditRequest = { url: url.href, resourceType: request.resourceType(), ...(frame ? { frame } : {}) };
      if (BY_CODE.has(entry.resourceType)) {
        const initiator = this.initiators.get(request.url());
        if (initiator) entry.initiator = initiator;
        else this.awaitingInitiator.set(request.url(), entry);
      }
      target.requests.push(entry);
      this.recorded.set(request, { target, key, entry });
    });
    page.on('requestfinished', () => this.activity(-1));
    page.on('requestfailed', (request) => {
      this.activity(-1);
      // Refused by the page's Content-Security-Policy (strict mode's, or the site's own): Chromium reports the
      // request and its failure, but nothing left the browser, so it is no leak; it is listed apart.
      const seen = this.recorded.get(request);
      if (!seen || request.failure()?.errorText !== 'csp') return;
      const at = seen.target.requests.indexOf(seen.entry);
      if (at >= 0) seen.target.requests.splice(at, 1);
      if (seen.target === this.current) this.requestsSeen.delete(seen.key);
      if (seen.target.refusedByPolicy.length < LIMITS.requests) seen.target.refusedByPolicy.push(seen.entry);
    });
  }

  static async open(context: BrowserContext, isThirdParty: (url: URL) => boolean): Promise<Visitor> {
    // The binding must exist before the page does; writes reported before the visitor exists are dropped.
    const ready: { visitor?: Visitor } = {};
    await context.exposeBinding(WRITE_BINDING, ({ frame }: { frame: Frame }, kind: unknown, value: unknown) => {
      if (typeof kind === 'string' && typeof value === 'string') ready.visitor?.onWrite(frame.url(), kind, value);
    });
    await context.addInitScript(WATCH_WRITES);
    const visitor = new Visitor(await context.newPage(), context, isThirdParty);
    ready.visitor = visitor;
    await visitor.watchInitiators();
    visitor.page.on('response', (response) => {
      void response.headerValues('set-cookie').then(
        (headers) => headers.flatMap((h) => h.split('\n')).forEach((h) => visitor.onWrite(response.url(), 'cookie', h)),
        () => undefined,
      );
    });
    return visitor;
  }

  /**
   * The script behind each request made by code (docs/onboarding.md, "Enforcement audit": a tracker SDK compiled into
   * the site's own JavaScript needs another fix than a marker). The first script address on the initiator's stack,
   * following async parents (a fetch in a promise or timer). Without the protocol (another browser), no initiators.
   */
  private async watchInitiators(): Promise<void> {
    let cdp;
    try {
      cdp = await this.context.newCDPSession(this.page);
      await cdp.send('Network.enable');
    } catch {
      return;
    }
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.initiator.type !== 'script' || !this.thirdParty(e.request.url)) return;
      let script: string | undefined;
      for (let stack = e.initiator.stack; stack && !script; stack = stack.parent) script = stack.callFrames.find((f) => f.url)?.url;
      if (!script) return;
      const waiting = this.awaitingInitiator.get(e.request.url);
      if (waiting) {
        waiting.initiator = script;
        this.awaitingInitiator.delete(e.request.url);
      } else if (this.initiators.size < LIMITS.requests) this.initiators.set(e.request.url, script);
    });
  }

  private thirdParty(address: string): boolean {
    try {
      return this.isThirdParty(new URL(address));
    } catch {
      return false;
    }
  }

  /** A cookie string (document.cookie or Set-Cookie) or a storage key written by `frameUrl`. */
  private onWrite(frameUrl: string, kind: string, value: string): void {
    const target = this.current;
    let url: URL;
    try {
      url = new URL(frameUrl);
    } catch {
      return;
    }
    if (!target || (url.protocol !== 'http:' && url.protocol !== 'https:')) return;
    if (kind === 'cookie') {
      const cookie = parseSetCookie(value, url);
      if (!cookie || OWN_STORAGE.test(cookie.name) || isDeletion(value)) return;
      this.seen.add(`c ${cookie.name} ${cookie.domain} ${cookie.path}`);
      this.add(target, 'cookies', `${cookie.name} ${cookie.domain} ${cookie.path}`, cookie);
    } else if (kind === 'localStorage' || kind === 'sessionStorage') {
      if (OWN_STORAGE.test(value) || value.length > 200) return;
      this.seen.add(`${kind} ${url.origin} ${value}`);
      this.add(target, kind, `${url.origin} ${value}`, { name: value, origin: url.origin });
    }
  }

  private add<K extends 'cookies' | 'localStorage' | 'sessionStorage'>(
    target: AuditObservation,
    kind: K,
    key: string,
    entry: AuditObservation[K][number],
  ): void {
    if (this.written.has(`${kind} ${key}`) || target[kind].length >= LIMITS.writes) return;
    this.written.add(`${kind} ${key}`);
    (target[kind] as AuditObservation[K][number][]).push(entry);
  }

  private activity(delta: number): void {
    this.inFlight = Math.max(0, this.inFlight + delta);
    this.lastActivity = Date.now();
  }

  /** Starts a new observation; requests from now on and writes found by the next `collect` go there. */
  observe(): AuditObservation {
    this.current = emptyObservation();
    this.requestsSeen.clear();
    this.written.clear();
    return this.current;
  }

  async quiet(maxMs: number): Promise<void> {
    const until = Date.now() + Math.max(maxMs, 0);
    this.inFlight = 0;
    while (Date.now() < until && (this.inFlight > 0 || Date.now() - this.lastActivity < QUIET_MS)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Adds the cookies and storage keys that appeared since the last look and were not reported as writes
   * (keys set as properties, cookies the browser stored without a script or a response we saw).
   */
  async collect(): Promise<void> {
    const target = this.current ?? emptyObservation();
    const fresh = (key: string) => !this.seen.has(key) && (this.seen.add(key), true);
    for (const c of await bounded(this.context.cookies(), 2000, [])) {
      if (OWN_STORAGE.test(c.name) || !fresh(`c ${c.name} ${c.domain} ${c.path}`)) continue;
      this.add(target, 'cookies', `${c.name} ${c.domain} ${c.path}`, { name: c.name, domain: c.domain, path: c.path });
    }
    for (const frame of this.page.frames()) {
      const storage = await bounded(
        frame.evaluate<{ origin: string; local: string[]; session: string[] }>(READ_STORAGE),
        2000,
        undefined,
      );
      if (!storage || storage.origin === 'null') continue;
      for (const [kind, names] of [['localStorage', storage.local], ['sessionStorage', storage.session]] as const) {
        for (const name of names) {
          if (OWN_STORAGE.test(name) || name.length > 200 || !fresh(`${kind} ${storage.origin} ${name}`)) continue;
          this.add(target, kind, `${storage.origin} ${name}`, { name, origin: storage.origin });
        }
      }
    }
  }

  /** Loads a page; the first page's failures are the audit's errors (as in the scan), later ones warnings. */
  async load(url: string, state: CrawlState, proxy: EgressProxy, budgetMs: number, first: boolean): Promise<boolean> {
    let response: Response | null;
    try {
      response = await this.page.goto(url, { waitUntil: 'load', timeout: Math.max(1, Math.min(budgetMs, PAGE_TIMEOUT_MS)) });
    } catch (err) {
      const error = navigationError(err, url, proxy);
      if (first) throw error;
      state.warn(`${url} skipped: ${error.details?.[0]?.message ?? error.message}`);
      return false;
    }
    const refused = response?.headers()[PROXY_ERROR_HEADER] as ProxyFailure | undefined;
    if (refused) {
      const error = refused === 'FORBIDDEN'
        ? targetForbidden(`${new URL(response!.url()).host} is on a loopback, private, link-local or metadata network`)
        : scanFailed(refused as FailureReason, `${response!.url()} could not be loaded`);
      if (first) throw error;
      state.warn(`${url} skipped: ${error.details?.[0]?.message}`);
      return false;
    }
    const status = response?.status() ?? 200;
    if (status >= 400) {
      if (first) throw siteError(`${response!.url()} answered with HTTP status ${status}`);
      state.warn(`${response!.url()} answered with HTTP status ${status}`);
    }
    return true;
  }

  async bannerShown(): Promise<boolean> {
    return this.page.locator(WIDGET.dialog).first().waitFor({ timeout: BANNER_WAIT_MS }).then(() => true, () => false);
  }

  /** Clicks like a visitor: "decline" (or, without that button, settings → save with nothing chosen), or "accept all". */
  async decide(choice: 'decline' | 'acceptAll'): Promise<boolean> {
    const click = (selector: string) =>
      this.page.locator(selector).first().click({ timeout: 2000 }).then(() => true, () => false);
    if (choice === 'acceptAll') return click(WIDGET.acceptAll);
    if ((await this.page.locator(WIDGET.decline).count()) > 0) return click(WIDGET.decline);
    return (await click(WIDGET.settings)) && (await click(WIDGET.save));
  }
}

