import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/**
 * The throw-away profile's preferences. Third-party cookies allowed (what a visitor's browser does by
 * default, STACK.md pitfall 5). WebRTC may not send UDP past the egress proxy: a page could otherwise reach
 * loopback and private addresses with STUN/TURN packets. Chromium 156 ignores the command-line switch
 * `--force-webrtc-ip-handling-policy`; the profile preference is what it obeys (a test sends STUN to a
 * loopback UDP port and checks that nothing arrives).
 */
export const PROFILE_PREFERENCES = {
  profile: { cookie_controls_mode: 0, block_third_party_cookies: false },
  webrtc: { ip_handling_policy: 'disable_non_proxied_udp', multiple_routes_enabled: false, nonproxied_udp_enabled: false },
};

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'];
const run = promisify(execFile);

/** An account Chromium can run as: from `getent passwd` (so NSS users count), or a numeric uid[:gid]. */
async function lookUpUser(user: string): Promise<{ name: string; uid: number; gid: number } | undefined> {
  const numeric = /^(\d+)(?::(\d+))?$/.exec(user);
  if (numeric) return { name: user, uid: Number(numeric[1]), gid: Number(numeric[2] ?? numeric[1]) };
  try {
    const { stdout } = await run('getent', ['passwd', user], { timeout: 5000 });
    const [name, , uid, gid] = stdout.trim().split(':');
    return name && uid && gid ? { name, uid: Number(uid), gid: Number(gid) } : undefined;
  } catch {
    return undefined;
  }
}

const shellQuote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * How Chromium is started. Its sandbox (namespaces and seccomp) needs a non-root user: running as root,
 * Chromium refuses to start sandboxed. So when Placet runs as root and `user` names an account, Chromium is
 * started through `setpriv` as that account, from a wrapper script in a root-only folder (the account can
 * write its profile, never the script that root runs). Otherwise Chromium runs as Placet's own user.
 */
async function chromiumCommand(
  executablePath: string,
  user: string | undefined,
  profileDir: string,
  log: FastifyBaseLogger,
): Promise<{ executablePath: string; wrapperDir?: string; user?: string }> {
  if (process.getuid?.() !== 0) return { executablePath };
  const account = user ? await lookUpUser(user) : undefined;
  const setpriv = SETPRIV_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!account || account.uid === 0 || !setpriv) {
    log.warn(
      { user, setpriv: setpriv ?? null },
      `scanner: Placet runs as root and Chromium cannot be started as another user (${
        !user ? 'SCAN_CHROMIUM_USER is empty' : !account ? `no user ${user}` : account.uid === 0 ? `${user} is root` : 'setpriv not found'
      }); Chromium runs as root, where its sandbox cannot start`,
    );
    return { executablePath };
  }
  await fs.chown(profileDir, account.uid, account.gid);
  for (const entry of await fs.readdir(profileDir, { recursive: true })) {
    await fs.chown(path.join(profileDir, entry), account.uid, account.gid);
  }
  const wrapperDir = await fs.mkdtemp(path.join(os.tmpdir(), 'placet-chromium-'));
  const wrapper = path.join(wrapperDir, 'chromium');
  const home = shellQuote(profileDir);
  await fs.writeFile(
    wrapper,
    `#!/bin/sh\nHOME=${home} XDG_CONFIG_HOME=${home} XDG_CACHE_HOME=${home} exec ${setpriv} --reuid=${account.uid} --regid=${account.gid} --clear-groups -- ${shellQuote(executablePath)} "$@"\n`,
    { mode: 0o700 },
  );
  return { executablePath: wrapper, wrapperDir, user: account.name };
}

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
  readonly wrapperDir: string | undefined;
  /** Whether Chromium runs with its sandbox, and as which user when Placet switched it to another one. */
  readonly sandbox: boolean;
  readonly user: string | undefined;
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
      /** The account Chromium runs as when Placet runs as root (SCAN_CHROMIUM_USER). */
      readonly chromiumUser?: string | undefined;
      /** Without a sandbox, no Chromium (the HTTP-only crawl) rather than an unsandboxed one (SCAN_REQUIRE_SANDBOX). */
      readonly requireSandbox?: boolean;
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

  /** How the running browser was started: sandboxed or not, and as which user. */
  async isolation(): Promise<{ sandbox: boolean; user: string | undefined } | undefined> {
    const r = this.running ? await this.running.catch(() => undefined) : undefined;
    return r && { sandbox: r.sandbox, user: r.user };
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
    let wrapperDir: string | undefined;
    try {
      await fs.mkdir(path.join(profileDir, 'Default'));
      await fs.writeFile(path.join(profileDir, 'Default', 'Preferences'), JSON.stringify(PROFILE_PREFERENCES));
      const command = await chromiumCommand(executablePath, this.options.chromiumUser, profileDir, this.options.log);
      wrapperDir = command.wrapperDir;
      const started = Date.now();
      const proxy = { server: await this.options.proxyUrl() };
      const start = (sandbox: boolean) =>
        chromium.launchPersistentContext(profileDir, {
          executablePath: command.executablePath,
          headless: true,
          args: sandbox ? ARGS : [...ARGS, '--no-sandbox'],
          // Playwright adds --no-sandbox by itself unless told that the sandbox is wanted.
          chromiumSandbox: sandbox,
          proxy,
          timeout: 30_000,
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        });
      let sandbox = true;
      let persistent: BrowserContext;
      try {
        persistent = await start(true);
      } catch (err) {
        const reason = (err as Error).message.split('\n').find((line) => /sandbox/i.test(line)) ?? (err as Error).message.split('\n')[0];
        if (this.options.requireSandbox) throw new BrowserUnavailableError(`Chromium cannot start with its sandbox: ${reason}`);
        this.options.log.warn(
          { reason, user: command.user ?? os.userInfo().username },
          'scanner: Chromium cannot start with its sandbox here; it runs without it (see docs/onboarding.md, "Isolation")',
        );
        sandbox = false;
        persistent = await start(false);
      }
      const browser = persistent.browser();
      if (!browser) throw new Error('Chromium started without a browser handle');
      const running: Running = { browser, persistent, profileDir, wrapperDir, sandbox, user: command.user };
      this.current = browser;
      browser.on('disconnected', () => {
        void removeFolders(running);
        if (this.current === browser) {
          if (!this.closed) this.options.log.warn('scanner: Chromium exited; it is started again at the next scan');
          this.current = undefined;
          this.running = undefined;
        }
      });
      this.options.log.info(
        { executablePath, sandbox, user: command.user ?? os.userInfo().username, ms: Date.now() - started },
        'scanner: Chromium started',
      );
      this.failure = undefined;
      if (this.closed) {
        await shutDown(running);
        throw new BrowserUnavailableError('the scanner is closed');
      }
      return running;
    } catch (err) {
      await removeFolders({ profileDir, wrapperDir });
      throw err;
    }
  }
}

async function removeFolders(r: Pick<Running, 'profileDir' | 'wrapperDir'>): Promise<void> {
  for (const dir of [r.profileDir, r.wrapperDir]) {
    if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function shutDown(r: Running): Promise<void> {
  await Promise.race([
    r.persistent.close().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 5000).unref()),
  ]);
  await removeFolders(r);
}
