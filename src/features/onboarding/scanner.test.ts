import { existsSync, readFileSync, readdirSync } from 'node:fs';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTING_KEY, createClient, createDomain, freshDatabase, type TestContext } from '../../../test/helper.js';
import { serve, startTestSites, type LocalServer, type TestSites } from '../../../test/fixtures/onboarding/test-site.js';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { Scanner, type ScannerOptions } from './scanner.js';

const log = Fastify({ logger: false }).log;
const options = (overrides: Partial<ScannerOptions> = {}): ScannerOptions => ({
  maxPages: 5,
  // Generous on purpose: no test here is about the time limit, and on a loaded CI machine Chromium's first
  // launch plus a page once took longer than 10 s (scan and slot wait share this limit).
  timeoutMs: 60_000,
  concurrency: 2,
  allowPrivateNetworks: false,
  chromiumPath: undefined,
  chromiumUser: 'nobody',
  requireSandbox: false,
  log,
  ...overrides,
});

/** Process ids of the Chromium processes that run on this profile folder. */
function chromiumPids(profileDir: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profileDir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function failure(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('scanner SSRF guard with private networks refused', { timeout: 120_000 }, () => {
  let sites: TestSites;
  let redirects: LocalServer;
  beforeAll(async () => {
    sites = await startTestSites();
    redirects = await serve((req, res) => {
      const to: Record<string, string> = {
        '/to-private': 'http://10.1.2.3/',
        '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
        '/to-loopback-name': `http://localhost:${sites.site.port}/`,
      };
      res.writeHead(302, { location: to[req.url ?? ''] ?? '/' }).end();
    });
  });
  afterAll(async () => {
    await sites?.close();
    await redirects?.close();
  });

  // 127.0.0.1 is let through by the test seam, so that the first hop succeeds and the redirect is what is refused.
  for (const mode of ['browser', 'http'] as const) {
    describe(mode, () => {
      const scanner = new Scanner(options({ trustedHosts: ['127.0.0.1'], ...(mode === 'http' ? { chromiumPath: '/nonexistent' } : {}) }));
      afterAll(() => scanner.close());

      it.each(['/to-private', '/to-metadata', '/to-loopback-name'])('refuses a redirect %s with SCAN_TARGET_FORBIDDEN', async (path) => {
        const err = await failure(scanner.scan(new URL(`http://127.0.0.1:${redirects.port}${path}`)));
        expect(err.code).toBe('SCAN_TARGET_FORBIDDEN');
        expect(sites.site.requests.filter((r) => r === '/').length).toBe(0);
      });
    });
  }

  it('aborts the page\'s own requests to private addresses and lists them', async () => {
    const scanner = new Scanner(options({ trustedHosts: ['127.0.0.1'], maxPages: 1 }));
    try {
      const raw = await scanner.scan(new URL(`${sites.siteUrl}/`));
      expect(raw.mode).toBe('browser');
      expect(raw.blockedRequests.sort()).toEqual([`${sites.thirdPartyOrigin}/embed/frame.html`, `${sites.thirdPartyOrigin}/js/matomo.js`]);
      expect(sites.thirdParty.requests).toEqual([]);
      expect(raw.cookies.some((c) => c.domain === 'localhost')).toBe(false);
    } finally {
      await scanner.close();
    }
  });
});

describe('scanner resources', { timeout: 180_000 }, () => {
  let slow: LocalServer;
  let inFlight = 0;
  let maxInFlight = 0;
  beforeAll(async () => {
    slow = await serve((_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow page</p>');
      }, 400);
    });
  });
  afterAll(async () => slow?.close());

  it('runs at most SCAN_CONCURRENCY scans at once; the others wait for a slot', async () => {
    const scanner = new Scanner(options({ allowPrivateNetworks: true, concurrency: 1, maxPages: 1 }));
    try {
      maxInFlight = 0;
      const results = await Promise.all([1, 2, 3].map((n) => scanner.scan(new URL(`http://127.0.0.1:${slow.port}/page${n}`))));
      expect(results.map((r) => r.pagesScanned.length)).toEqual([1, 1, 1]);
      expect(maxInFlight).toBe(1);
    } finally {
      await scanner.close();
    }
  });

  it('closes the browser and removes its profile when it is closed', async () => {
    const scanner = new Scanner(options({ allowPrivateNetworks: true, maxPages: 1 }));
    await scanner.scan(new URL(`http://127.0.0.1:${slow.port}/`));
    const profile = (await scanner.profileDir())!;
    expect(chromiumPids(profile).length).toBeGreaterThan(0);
    await scanner.close();
    expect(chromiumPids(profile)).toEqual([]);
    expect(existsSync(profile)).toBe(false);
  });

  it('answers BROWSER_CRASHED when Chromium dies during a scan, and starts a new one for the next scan', async () => {
    const scanner = new Scanner(options({ allowPrivateNetworks: true, maxPages: 1 }));
    try {
      await scanner.scan(new URL(`http://127.0.0.1:${slow.port}/warm-up`));
      const profile = (await scanner.profileDir())!;
      const pending = scanner.scan(new URL(`http://127.0.0.1:${slow.port}/during-crash`));
      await new Promise((resolve) => setTimeout(resolve, 150));
      for (const pid of chromiumPids(profile)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch (err) {
          // A child (zygote, utility) may exit with its parent between the listing and this kill.
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
        }
      }
      const err = await failure(pending);
      expect(err.code).toBe('SCAN_FAILED');
      expect(err.details?.[0]?.message).toMatch(/^BROWSER_CRASHED: /);
      const next = await scanner.scan(new URL(`http://127.0.0.1:${slow.port}/after-crash`));
      expect(next.mode).toBe('browser');
      expect(await scanner.profileDir()).not.toBe(profile);
    } finally {
      await scanner.close();
    }
  });
});

/** Chromium processes this test process started for the scanner (its children on a placet-scan profile). */
function scannerBrowsers(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const ppid = /PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
        return Number(ppid) === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('placet-scan-');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('closing the service', () => {
  it('closes the scanner\'s browser', async () => {
    const sites = await startTestSites();
    const database = await freshDatabase('sqlite');
    const config = testConfig({ hostingApiKey: HOSTING_KEY, ...{ scan: { ...testConfig().scan, allowPrivateNetworks: true, maxPages: 1 } } });
    const app = await buildApp({ config, database });
    try {
      const ctx = {
        app,
        database,
        config,
        hosting: (opts) => app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}` } }),
      } as TestContext;
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: sites.siteUrl });
      const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/scan` });
      expect(res.statusCode).toBe(200);
      expect(scannerBrowsers().length).toBeGreaterThan(0);
    } finally {
      await app.close();
      await database.close();
      await sites.close();
    }
    expect(scannerBrowsers()).toEqual([]);
  });
});
