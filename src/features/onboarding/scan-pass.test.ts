import Fastify from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, freePort } from '../../../test/browser.js';
import {
  DIALECTS,
  HOSTING_KEY,
  createClient,
  createDomain,
  depsOf,
  freshDatabase,
  useApp,
  type TestContext,
} from '../../../test/helper.js';
import { ga4Snippet, routeVendorStandIns, serve, youtubeEmbed, type LocalServer } from '../../../test/fixtures/onboarding/test-site.js';
import { buildApp, type App } from '../../app.js';
import { testConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { randomIds, type Deps } from '../../deps.js';
import { SCAN_PASS_HEADER, issueScanPass, verifyScanPass } from './scan-pass.js';
import { scanDomain } from './scan.service.js';
import { Scanner } from './scanner.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: scan pass`, () => {
    const ctx = useApp(dialect);
    const at = (ms: number): Deps => depsOf(ctx, { now: () => new Date(ms) });
    const now = Date.parse('2026-11-25T12:00:00Z');

    it('accepts a pass for its domain before it expires, and nothing else', async () => {
      const pass = await issueScanPass(at(now), 'd1', 60_000);
      expect(await verifyScanPass(at(now + 59_000), pass, 'd1')).toBe(true);
      expect(await verifyScanPass(at(now + 60_000), pass, 'd1')).toBe(false); // expired
      expect(await verifyScanPass(at(now), pass, 'd2')).toBe(false); // another domain
      const [version, domain, expires, mac] = pass.split('.');
      const later = `${version}.${domain}.${Number(expires) + 1}.${mac}`;
      expect(await verifyScanPass(at(now), later, 'd1')).toBe(false); // extended by hand
      const flipped = `${version}.${domain}.${expires}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
      expect(await verifyScanPass(at(now), flipped, 'd1')).toBe(false);
      expect(await verifyScanPass(at(now), 'v1.d1.1795000000000.not-a-mac', 'd1')).toBe(false);
    });

    it('caps the lifetime and shares the key across app instances on one database', async () => {
      const pass = await issueScanPass(at(now), 'd1', 24 * 3600_000);
      expect(await verifyScanPass(at(now + 12 * 60_000), pass, 'd1')).toBe(false);
      // A second process: its own app and caches on the same database accept the first one's pass.
      const second = await buildApp({ config: testConfig({ hostingApiKey: HOSTING_KEY }), database: { ...ctx.database, close: async () => undefined } });
      try {
        const deps: Deps = { ...at(now), log: second.log, ids: randomIds };
        expect(await verifyScanPass(deps, await issueScanPass(at(now), 'd9', 60_000), 'd9')).toBe(true);
      } finally {
        await second.close();
      }
    });
  });
}

/**
 * A site that already has Placet's snippet, with the real GA4 tag and YouTube's embed code written into
 * the HTML. The widget blocks both for visitors; the scanner, holding a pass, must still find them.
 */
describe.skipIf(!CHROMIUM)('scan of a site that already has the widget', () => {
  let app: App;
  let database: DatabaseHandle;
  let site: LocalServer;
  let appUrl = '';
  let ctx: TestContext;
  let domainId = '';
  let clientId = '';
  const pages = new Map<string, string>();
  const log = Fastify({ logger: false }).log;
  /** A scanner whose browser contexts get the vendor stand-ins before the scan's own preparation. */
  const scanner = (hits: string[]) => {
    const s = new Scanner({ maxPages: 2, timeoutMs: 20_000, concurrency: 1, allowPrivateNetworks: true, chromiumPath: undefined, chromiumUser: 'nobody', requireSandbox: false, log });
    const scan = s.scan.bind(s);
    s.scan = (start, prepare) => scan(start, async (context) => {
      await routeVendorStandIns(context, hits);
      await prepare?.(context);
    });
    return s;
  };

  beforeAll(async () => {
    site = await serve((req, res) => {
      const body = pages.get(req.url ?? '');
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? 'not found');
    });
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    database = await freshDatabase('sqlite');
    const config = testConfig({ hostingApiKey: HOSTING_KEY, publicUrl: appUrl });
    app = await buildApp({ config, database });
    await app.listen({ port, host: '127.0.0.1' });
    ctx = {
      app, database, config,
      hosting: (opts) => app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}`, ...(opts.headers ?? {}) } }),
    };
    const client = await createClient(ctx);
    // blockNewScripts: the widget blocks every third-party script no embedding allows, so GA4 is blocked too.
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}`, blockNewScripts: true });
    clientId = client.id;
    domainId = domain.id;
    pages.set(
      '/',
      `<!doctype html><html><head>
<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>
${ga4Snippet()}
</head><body><h1>Shop</h1>
${youtubeEmbed()}
</body></html>`,
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await site?.close();
  });

  it('finds the YouTube iframe and the GA4 script and offers their presets', async () => {
    const hits: string[] = [];
    const s = scanner(hits);
    try {
      const result = await scanDomain(depsOf(ctx), s, clientId, domainId);
      expect(result.iframes).toEqual(['https://www.youtube.com/embed/dQw4w9WgXcQ']);
      expect(result.scripts).toEqual(expect.arrayContaining(['https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9']));
      expect(result.availablePresets.map((p) => p.name)).toEqual(expect.arrayContaining(['Google Analytics 4', 'YouTube']));
      // Both ran in the scan, as they do on the site without the widget: the widget stood aside.
      expect(result.storage.cookies.map((c) => c.name)).toContain('_ga');
      expect(hits).toContain('https://www.youtube.com/frame-ran');
    } finally {
      await s.close();
    }
  });

  it('without the pass the scanner meets the widget as a visitor does: neither runs', async () => {
    const hits: string[] = [];
    const s = scanner(hits);
    try {
      const raw = await s.scan(new URL(`http://127.0.0.1:${site.port}/`));
      expect(raw.cookies.map((c) => c.name)).not.toContain('_ga');
      expect(hits).not.toContain('https://www.youtube.com/frame-ran');
    } finally {
      await s.close();
    }
  });

  describe('a visitor', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    });
    afterAll(async () => browser?.close());

    const visit = async (headers: Record<string, string>) => {
      const context = await browser.newContext({ extraHTTPHeaders: headers });
      const hits = await routeVendorStandIns(context);
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.locator('#ccm-widget [role="dialog"]').waitFor();
      await page.waitForTimeout(300);
      const state = {
        gaRan: await page.evaluate(() => (window as unknown as { gaRan?: number }).gaRan ?? 0),
        frameRan: hits.includes('https://www.youtube.com/frame-ran'),
        cookies: (await context.cookies()).map((c) => c.name),
      };
      await context.close();
      return state;
    };

    it('keeps both blocked, and a forged or borrowed pass changes nothing', async () => {
      const borrowed = await issueScanPass(depsOf(ctx), 'other00', 60_000);
      const attempts: Record<string, string>[] = [{}, { [SCAN_PASS_HEADER]: 'v1.x.1.y' }, { [SCAN_PASS_HEADER]: borrowed }];
      for (const headers of attempts) {
        expect(await visit(headers), JSON.stringify(headers)).toEqual({ gaRan: 0, frameRan: false, cookies: [] });
      }
    });
  });
});
