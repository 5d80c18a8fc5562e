import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Where Chromium usually lives when CHROMIUM_PATH is not set. */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export function findChromium(configured: string | undefined): string | undefined {
  if (configured !== undefined) return existsSync(configured) ? configured : undefined;
  return CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  // WebRTC could reach local addresses over UDP without the proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export class BrowserUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserUnavailableError';
  }
}

/** After a failed launch, scans use the HTTP fallback for this long before a launch is tried again. */
const RETRY_LAUNCH_AFTER_MS = 60_000;

interface Running {
  readonly browser: Browser;
  readonly persistent: BrowserContext;
  readonly profileDir: string;
}

/**
 * One Chromium for all scans, launched at the first scan and again after a crash. It runs on a
 * throw-away profile whose preferences allow third-party cookies (`cookie_controls_mode: 0`): contexts
 * made with `browser.newContext()` inherit that, yet are isolated from each other (STACK.md, pitfall 5).
 * All its traffic goes through the scanner's egress proxy.
 */
export class SharedBrowser {
  private running: Promise<Running> | undefined;
  private failure: { at: number; message: string } | undefined;
  private closed = false;
  private current: Browser | undefined;

  constructor(
    private readonly options: {
      readonly chromiumPath: string | undefined;
      readonly proxyUrl: () => Promise<string>;
      readonly log: FastifyBaseLogger;
    },
  ) {}

  /** The running browser, launched if needed. Throws BrowserUnavailableError when there is none to use. */
  async get(): Promise<Browser> {
    if (this.closed) throw new BrowserUnavailableError('the scanner is closed');
    if (this.failure && Date.now() - this.failure.at < RETRY_LAUNCH_AFTER_MS) {
      throw new BrowserUnavailableError(this.failure.message);
    }
    this.running ??= this.launch();
    try {
      return (await this.running).browser;
    } catch (err) {
      this.running = undefined;
      this.failure = { at: Date.now(), message: (err as Error).message.split('\n')[0] ?? 'launch failed' };
      throw new BrowserUnavailableError(this.failure.message);
    }
  }

  /** The profile folder of the running browser (tests check that closing removes browser and folder). */
  async profileDir(): Promise<string | undefined> {
    return this.running ? (await this.running.catch(() => undefined))?.profileDir : undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = this.running;
    this.running = undefined;
    const r = await running?.catch(() => undefined);
    if (r) await shutDown(r);
  }

  private async launch(): Promise<Running> {
    const executablePath = findChromium(this.options.chromiumPath);
    if (!executablePath) {
      throw new BrowserUnavailableError(
        this.options.chromiumPath ? `no Chromium at CHROMIUM_PATH=${this.options.chromiumPath}` : 'no Chromium found',
      );
    }
    const profileDir = await fs.mkdtemp(path.join(os.tmpdir(), 'placet-scan-'));
    try {
      await fs.mkdir(path.join(profileDir, 'Default'));
      await fs.writeFile(
        path.join(profileDir, 'Default', 'Preferences'),
        JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }),
      );
      const started = Date.now();
      const persistent = await chromium.launchPersistentContext(profileDir, {
        executablePath,
        headless: true,
        args: ARGS,
        proxy: { server: await this.options.proxyUrl() },
        timeout: 30_000,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      const browser = persistent.browser();
      if (!browser) throw new Error('Chromium started without a browser handle');
      const running: Running = { browser, persistent, profileDir };
      this.current = browser;
      browser.on('disconnected', () => {
        void fs.rm(profileDir, { recursive: true, force: true }).catch(() => undefined);
        if (this.current === browser) {
          if (!this.closed) this.options.log.warn('scanner: Chromium exited; it is started again at the next scan');
          this.current = undefined;
          this.running = undefined;
        }
      });
      this.options.log.info({ executablePath, ms: Date.now() - started }, 'scanner: Chromium started');
      this.failure = undefined;
      if (this.closed) {
        await shutDown(running);
        throw new BrowserUnavailableError('the scanner is closed');
      }
      return running;
    } catch (err) {
      await fs.rm(profileDir, { recursive: true, force: true }).catch(() => undefined);
      throw err;
    }
  }
}

async function shutDown(r: Running): Promise<void> {
  await Promise.race([
    r.persistent.close().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 5000).unref()),
  ]);
  await fs.rm(r.profileDir, { recursive: true, force: true }).catch(() => undefined);
}
