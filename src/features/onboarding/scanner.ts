import type { FastifyBaseLogger } from 'fastify';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { crawlWithBrowser } from './browser-crawl.js';
import { CrawlState, type RawScan } from './crawl-state.js';
import { EgressProxy } from './egress-proxy.js';
import { crawlOverHttp } from './http-crawl.js';
import { connectionError, scanFailed } from './scan-errors.js';
import { Semaphore } from './semaphore.js';
import { BrowserUnavailableError, SharedBrowser } from './shared-browser.js';
import { TargetGuard, type Resolver } from './target-guard.js';

type ScanConfig = Config['scan'];
type Prepare = (context: BrowserContext) => Promise<void>;
/** A crawl that opens its own browser contexts (the enforcement audit, audit-crawl.ts). */
export type AuditCrawl = (newContext: () => Promise<BrowserContext>, state: CrawlState, proxy: EgressProxy) => Promise<void>;

export interface ScannerOptions extends ScanConfig {
  readonly log: FastifyBaseLogger;
  /** Test seams (never configurable): see TargetGuardOptions. */
  readonly trustedHosts?: readonly string[];
  readonly resolver?: Resolver;
}

/** How long past its deadline a scan may take to wind down before its context is closed under it. */
const GRACE_MS = 1500;

/**
 * The website scanner: one shared Chromium (HTTP-only crawl when there is none), at most
 * `concurrency` scans at once each in its own browser context, a hard deadline per scan, and every
 * connection through the SSRF guard. `close()` stops the browser and the proxy.
 */
export class Scanner {
  private readonly guard: TargetGuard;
  private readonly proxy: EgressProxy;
  private readonly browser: SharedBrowser;
  private readonly slots: Semaphore;

  constructor(private readonly options: ScannerOptions) {
    this.guard = new TargetGuard(options);
    this.proxy = new EgressProxy(this.guard, options.log);
    this.browser = new SharedBrowser({
      chromiumPath: options.chromiumPath,
      chromiumUser: options.chromiumUser,
      requireSandbox: options.requireSandbox,
      proxyUrl: () => this.proxy.start(),
      log: options.log,
    });
    this.slots = new Semaphore(options.concurrency);
  }

  /** The running browser's profile folder (tests check that closing removes browser and folder). */
  profileDir(): Promise<string | undefined> {
    return this.browser.profileDir();
  }

  /** `prepare` sets up each browser context before its first page (the scan pass, see scan-pass.ts). */
  async scan(start: URL, prepare?: Prepare): Promise<RawScan & { durationMs: number }> {
    return this.slot(start, (deadline) => this.run(start, deadline, prepare));
  }

  /**
   * The enforcement audit: `crawl` drives as many browser contexts as it opens (each prepared, all closed
   * at the end) under the same guard, slots and deadline as a scan. It needs a browser: without one it
   * fails with SCAN_FAILED NO_BROWSER.
   */
  async audit(start: URL, prepare: Prepare, crawl: AuditCrawl): Promise<RawScan & { durationMs: number }> {
    return this.slot(start, (deadline) => this.run(start, deadline, prepare, crawl));
  }

  private async slot(start: URL, work: (deadline: number) => Promise<RawScan>): Promise<RawScan & { durationMs: number }> {
    try {
      await this.guard.resolve(start.hostname); // refuse or fail fast, before taking a slot
    } catch (err) {
      throw connectionError(err, start.href);
    }
    const release = await this.slots.acquire(this.options.timeoutMs).catch(() => {
      throw scanFailed('BUSY', `all ${this.options.concurrency} scan slots stayed busy for ${this.options.timeoutMs} ms`);
    });
    try {
      const started = Date.now();
      const raw = await work(started + this.options.timeoutMs);
      return { ...raw, durationMs: Date.now() - started };
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.proxy.close();
  }

  private async run(start: URL, deadline: number, prepare?: Prepare, audit?: AuditCrawl): Promise<RawScan> {
    const state = new CrawlState(start, this.options.maxPages, deadline);
    let browser: Browser | undefined;
    try {
      browser = await this.browser.get();
    } catch (err) {
      if (!(err instanceof BrowserUnavailableError)) throw err;
      if (audit) throw scanFailed('NO_BROWSER', `the audit needs Chromium to run the widget (${err.message})`);
      this.options.log.warn({ reason: err.message }, 'scanner: no browser, HTTP-only crawl');
      state.warn(`no usable browser (${err.message}): HTTP-only crawl`);
    }
    if (!browser) {
      const controller = new AbortController();
      return this.withDeadline(state, () => crawlOverHttp(state, this.guard, controller.signal), async () => controller.abort());
    }
    const b = browser;
    const contexts: BrowserContext[] = [];
    const newContext = async (): Promise<BrowserContext> => {
      if (state.aborted) throw scanFailed('TIMEOUT', 'the time limit was reached');
      let context: BrowserContext;
      try {
        context = await b.newContext({ serviceWorkers: 'block', acceptDownloads: false, viewport: { width: 1280, height: 900 } });
      } catch (err) {
        throw scanFailed('BROWSER_CRASHED', `no browser context: ${(err as Error).message.split('\n')[0]}`);
      }
      contexts.push(context);
      try {
        await prepare?.(context);
      } catch (err) {
        throw scanFailed('BROWSER_CRASHED', `the browser context could not be prepared: ${(err as Error).message.split('\n')[0]}`);
      }
      return context;
    };
    const closeAll = () => Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    let crawl: () => Promise<void>;
    if (audit) {
      crawl = () => audit(newContext, state, this.proxy);
    } else {
      try {
        const context = await newContext();
        crawl = () => crawlWithBrowser(context, state, this.proxy);
      } catch (err) {
        await closeAll();
        throw err;
      }
    }
    // Playwright does not always fail a pending navigation when Chromium dies: end the scan at once.
    let onDisconnect: (() => void) | undefined;
    const disconnected = new Promise<'crashed'>((resolve) => {
      onDisconnect = () => resolve('crashed');
      b.once('disconnected', onDisconnect);
    });
    try {
      return await this.withDeadline(state, crawl, closeAll, () => !b.isConnected(), disconnected);
    } finally {
      b.off('disconnected', onDisconnect!);
    }
  }

  /**
   * Runs a crawl against the scan's deadline. The crawl stops by itself at the deadline; should a page
   * hang it (a script in an endless loop, a stalled connection), the watchdog ends the context shortly
   * after and the scan returns what it has, or TIMEOUT when the first page never arrived.
   */
  private async withDeadline(
    state: CrawlState,
    crawl: () => Promise<void>,
    stop: () => Promise<unknown>,
    crashed: () => boolean = () => false,
    interrupted: Promise<'crashed'> = new Promise(() => undefined),
  ): Promise<RawScan> {
    let timer: NodeJS.Timeout | undefined;
    const watchdog = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(state.remaining(), 0) + GRACE_MS);
    });
    const work = crawl().then(() => 'done' as const);
    work.catch(() => undefined);
    try {
      const outcome = await Promise.race([work, watchdog, interrupted]);
      if (outcome === 'crashed') throw scanFailed('BROWSER_CRASHED', 'the browser exited during the scan');
      if (outcome === 'timeout') {
        state.aborted = true;
        state.warn('the scan reached its time limit; the result is partial');
      }
    } catch (err) {
      if (crashed() || (err instanceof AppError && err.details?.[0]?.message.startsWith('BROWSER_CRASHED'))) {
        throw scanFailed('BROWSER_CRASHED', 'the browser exited during the scan');
      }
      if (!(err instanceof AppError) || !state.firstPageDone) throw err instanceof AppError ? err : this.unexpected(err);
      state.warn(`the crawl stopped early: ${err.details?.[0]?.message ?? err.message}`);
    } finally {
      clearTimeout(timer);
      state.aborted = true;
      await stop();
    }
    if (crashed()) throw scanFailed('BROWSER_CRASHED', 'the browser exited during the scan');
    if (!state.firstPageDone) throw scanFailed('TIMEOUT', `${state.start.href} did not load within ${this.options.timeoutMs} ms`);
    return state.result();
  }

  private unexpected(err: unknown): AppError {
    this.options.log.error({ err }, 'scanner: unexpected failure');
    return scanFailed('CONNECTION_FAILED', (err as Error).message?.split('\n')[0] ?? 'unexpected failure');
  }
}
