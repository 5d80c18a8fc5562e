import { systemClock } from '../../deps.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, freePort } from '../../../test/browser.js';
import { HOSTING_KEY, createClient, createDomain, freshDatabase, useApp, type TestContext } from '../../../test/helper.js';
import { serve, type LocalServer } from '../../../test/fixtures/onboarding/test-site.js';
import { buildApp, type App } from '../../app.js';
import { testConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { noFallback, unreachableFix } from './audit.service.js';
import type { AuditResult } from './onboarding.schemas.js';

const ANALYTICS = 'a717ff5';
const SOCIAL = '6cd2721';
const NECESSARY = '41ba25c';

/**
 * The third party (on `localhost`, another site than 127.0.0.1): a tracker that the page loads through
 * the widget's script loader (blocked correctly), a tracker the page loads with a plain <script src> that
 * no embedding names (leaks), and a video iframe.
 */
function thirdParty(): Promise<LocalServer> {
  return serve((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const js = (code: string) => res.writeHead(200, { 'content-type': 'application/javascript', 'cache-control': 'no-store' }).end(code);
    if (path === '/js/stats.js') return void js(`document.cookie = '_st_id=1; path=/'; fetch(new URL('/collect?stats', document.currentScript.src));`);
    if (path === '/js/leaky.js') return void js(`document.cookie = 'leak_id=1; path=/'; fetch(new URL('/collect?leak', document.currentScript.src));`);
    if (path === '/embed/video.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>video</p>');
    res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
  }, 'localhost');
}

describe.skipIf(!CHROMIUM)('GET …/onboarding/audit', () => {
  let app: App;
  let database: DatabaseHandle;
  let site: LocalServer;
  let other: LocalServer;
  let ctx: TestContext;
  let auditUrl = '';
  const pages = new Map<string, string>();
  /** The snippet the Hosting API hands out for the domain at `base`, with its fallback. */
  const apiSnippet = async (base: string) => (await ctx.hosting({ method: 'GET', url: `${base}/onboarding/embed` })).json<{ default: string }>().default;

  beforeAll(async () => {
    other = await thirdParty();
    site = await serve((req, res) => {
      const body = pages.get(req.url ?? '');
      if (!body) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'PHPSESSID=abc; Path=/' }).end(body);
    });
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    database = await freshDatabase('sqlite');
    const config = testConfig({
      hostingApiKey: HOSTING_KEY,
      publicUrl: appUrl,
      scan: { ...testConfig().scan, allowPrivateNetworks: true, maxPages: 5, timeoutMs: 60_000 },
    });
    app = await buildApp({ config, database });
    await app.listen({ port, host: '127.0.0.1' });
    ctx = {
      app, database, config, clock: systemClock,
      hosting: (opts) => app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}`, ...(opts.headers ?? {}) } }),
    };
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}` });
    const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const tp = `localhost:${other.port}`;
    for (const embedding of [
      { name: 'Stats', purpose: ANALYTICS, active: true, scriptLoaderGroup: 'stats', scriptMarkers: [`${tp}/js/stats.js`], assets: [{ name: '_st_id' }] },
      { name: 'Video', purpose: SOCIAL, active: true, iframeMarkers: [`${tp}/embed/`] },
      { name: 'Session', purpose: NECESSARY, active: true, assets: [{ name: 'PHPSESSID' }] },
    ]) {
      const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: embedding });
      expect(res.statusCode, res.body).toBe(201);
    }
    // The home page has the whole snippet the Hosting API hands out, the contact page the widget's tag alone.
    const tag = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
    const full = await apiSnippet(base);
    const html = (body: string, snippet = full) => `<!doctype html><html><head>${snippet}</head><body>${body}</body></html>`;
    pages.set('/', html(`<h1>Shop</h1><a href="/contact">Contact</a>
<script type="text/x-ccm-loader" data-ccm-loader-src="http://${tp}/js/stats.js" data-ccm-loader-group="stats"></script>
<script src="http://${tp}/js/leaky.js"></script>`));
    pages.set('/plain', `<!doctype html><html><body><h1>No snippet</h1><script src="http://${tp}/js/leaky.js"></script></body></html>`);
    // The same embedding's second iframe is written as the widget asks (data-ccm-src): it must not leak.
    pages.set('/contact', html(`<h1>Contact</h1><iframe src="http://${tp}/embed/video.html" width="300" height="150"></iframe>
<iframe data-ccm-src="http://${tp}/embed/safe.html" width="300" height="150"></iframe>`, tag));
    auditUrl = `${base}/onboarding/audit`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await site?.close();
    await other?.close();
  });

  // Each audit loads the pages in Chromium three times (before a decision, after decline, after accept): 18 s of the
  // 20 s default on a busy CI machine, 20 s on a slower one (2026-11-28). The limit guards against a hang only.
  it('reports the leaks with their fixes, and nothing for the tracker the widget blocks', async () => {
    const consentPosts = () => database.db.selectFrom('consent_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const before = Number((await consentPosts())?.n ?? 0);
    const res = await ctx.hosting({ method: 'GET', url: auditUrl });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<AuditResult>();
    const root = `http://127.0.0.1:${site.port}`;
    const tp = `http://localhost:${other.port}`;
    expect(r.widgetFound).toBe(true);
    expect(r.pagesAudited).toEqual([`${root}/`, `${root}/contact`]);
    // The page with the tag alone runs every tracker when Placet cannot be reached (docs/widget.md, "Placet unreachable").
    expect(r.warnings).toEqual([noFallback(['/contact'])]);
    expect(r.warnings[0]).toMatch(/^\/contact: the Placet snippet has no fallback, .* paste the whole snippet from GET …\/onboarding\/embed/);

    const find = (page: string, state: string, value: string) =>
      r.violations.filter((v) => v.page === `${root}${page}` && v.state === state && v.value === value);
    for (const state of ['beforeDecision', 'afterDecline']) {
      // The unmarked <script src>: no embedding, no preset; the fix names its host as a marker.
      const [script] = find('/', state, `${tp}/js/leaky.js`);
      expect(script, state).toMatchObject({ kind: 'request', resourceType: 'script', embedding: null, preset: null });
      expect(script!.fix).toContain(`add script marker localhost:${other.port}`);
      expect(find('/', state, 'leak_id')[0], state).toMatchObject({ kind: 'cookie', embedding: null });
      expect(find('/', state, `${tp}/collect?leak`)[0], state).toMatchObject({ kind: 'request', resourceType: 'fetch' });
    }
    // The iframe written with src: its embedding is named, and the fix is the markup.
    const [frame] = find('/contact', 'beforeDecision', `${tp}/embed/video.html`);
    expect(frame).toMatchObject({ kind: 'request', resourceType: 'document', embedding: { name: 'Video' } });
    expect(frame!.fix).toBe('iframe on /contact: use data-ccm-src instead of src (the browser requests an iframe\'s src before any script can block it)');

    // Placet unreachable (the fourth visitor, the widget's address refused): on the home page the fallback's policy
    // keeps the tracker from running (no cookie, no hit), but its <script src> was requested as the browser read ahead,
    // before the policy applied, and the fix says so; the contact page, with the widget's tag alone, loads its video
    // frame, and the fix is the fallback, not the frame's markup.
    const homeDown = r.pages.find((p) => p.url === `${root}/`)!.placetUnreachable!;
    expect(homeDown.requests).toEqual([{ url: `${tp}/js/leaky.js`, resourceType: 'script' }]);
    expect(homeDown.cookies.map((c) => c.name)).toEqual(['PHPSESSID']);
    const [preloaded] = find('/', 'placetUnreachable', `${tp}/js/leaky.js`);
    expect(preloaded!.fix).toBe(unreachableFix(preloaded!, true));
    expect(preloaded!.fix).toMatch(/^localhost:\d+ on \/ while Placet could not be reached, although the snippet's fallback is on the page: .* the same fix stops the request/);
    const [down] = find('/contact', 'placetUnreachable', `${tp}/embed/video.html`);
    expect(down).toMatchObject({ kind: 'request', resourceType: 'document', embedding: { name: 'Video' } });
    expect(down!.fix).toBe(unreachableFix(down!, false));
    expect(down!.fix).toMatch(/^localhost:\d+ on \/contact while Placet could not be reached: the snippet has no fallback, .* paste the whole snippet/);

    // The loader-blocked tracker and the necessary cookie are no violation in any state …
    const blocked = r.violations.filter((v) => /stats|_st_id|PHPSESSID|safe\.html/.test(v.value));
    expect(blocked).toEqual([]);
    // … and the tracker runs after "accept all", as it should.
    const home = r.pages.find((p) => p.url === `${root}/`)!;
    expect(home.widget).toBe(true);
    expect(home.afterAcceptAll!.requests).toEqual(expect.arrayContaining([{ url: `${tp}/js/stats.js`, resourceType: 'script' }]));
    expect(home.afterAcceptAll!.cookies.filter((c) => c.name === '_st_id')).toHaveLength(1);
    expect(home.beforeDecision!.requests.map((q) => q.url)).not.toContain(`${tp}/js/stats.js`);
    expect(home.afterDecline!.requests.map((q) => q.url)).not.toContain(`${tp}/js/stats.js`);
    // The audit's clicks are not recorded as visitors' decisions.
    expect(Number((await consentPosts())?.n ?? 0)).toBe(before);
  }, 60_000);

  it('names the scripts above the snippet that need consent, and gives the snippet\'s place as their fix', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/early` });
    const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const tp = `localhost:${other.port}`;
    const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { name: 'Stats', purpose: ANALYTICS, active: true, scriptMarkers: [`${tp}/js/stats.js`, 'stats.track('] } });
    expect(res.statusCode, res.body).toBe(201);
    const snippet = await apiSnippet(base);
    // A tag plugin's head scripts printed before the snippet (WordPress, snippet hooked at the default priority),
    // and the site's own script there, which needs no consent.
    pages.set('/early', `<!doctype html><html><head><script src="/js/site.js"></script>
<script src="http://${tp}/js/stats.js"></script><script>window.stats && stats.track('page');</script>
${snippet}</head><body><h1>Early</h1></body></html>`);
    const audit = await ctx.hosting({ method: 'GET', url: `${base}/onboarding/audit` });
    expect(audit.statusCode, audit.body).toBe(200);
    const r = audit.json<AuditResult>();
    expect(r.widgetFound).toBe(true);
    expect(r.warnings).toEqual([
      `/early: 2 script(s) that need consent come before the Placet snippet (http://${tp}/js/stats.js, inline script "window.stats && stats.track('page');…"); ` +
        'a script above the Placet snippet may run before the widget can block it (one that has not loaded when the widget starts is stopped, so it ' +
        'can pass on one visit and run on the next): print the snippet first in <head> (on WordPress, hook wp_head at a priority below 1, not the ' +
        'default 10, which comes after the enqueued head scripts)',
    ]);
    const [script] = r.violations.filter((v) => v.state === 'beforeDecision' && v.value === `http://${tp}/js/stats.js`);
    expect(script).toMatchObject({ kind: 'request', resourceType: 'script', embedding: { name: 'Stats' } });
    expect(script!.fix).toMatch(new RegExp(`^script from ${tp} on /early: a script above the Placet snippet may run before the widget can block it`));
    // Above the fallback too, so it loads while Placet cannot be reached, fallback or not: the fix says where it goes.
    const [down] = r.violations.filter((v) => v.state === 'placetUnreachable' && v.value === `http://${tp}/js/stats.js`);
    expect(down!.fix).toMatch(new RegExp(`^${tp} on /early while Placet could not be reached, although the snippet's fallback is on the page: .* anything that ran comes before the fallback, which must be the first thing in <head>$`));
  }, 60_000);

  it('does not count what the page\'s Content-Security-Policy refused (it never left the browser); after "accept all" it warns', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/csp` });
    const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const tp = `localhost:${other.port}`;
    for (const embedding of [
      { name: 'Stats', purpose: ANALYTICS, active: true, scriptMarkers: [`${tp}/js/stats.js`] },
      { name: 'Session', purpose: NECESSARY, active: true, assets: [{ name: 'PHPSESSID' }] },
    ]) {
      const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: embedding });
      expect(res.statusCode, res.body).toBe(201);
    }
    const snippet = await apiSnippet(base);
    // A policy as strict mode writes one (test/strict-resources.browser.test.ts runs strict mode's own in Chromium; its
    // hosts must be under a public suffix, which this test's third party on localhost is not): the site, Placet, no more.
    const policy = `<meta http-equiv="Content-Security-Policy" content="default-src 'self' 'unsafe-inline' ${ctx.config.publicUrl}">`;
    pages.set('/csp', `<!doctype html><html><head>${policy}${snippet}
<link rel="stylesheet" href="http://${tp}/css/fonts.css"></head><body><h1>Strict</h1><img alt="" src="http://${tp}/img/avatar.png">
<script src="http://${tp}/js/leaky.js"></script></body></html>`);
    const audit = await ctx.hosting({ method: 'GET', url: `${base}/onboarding/audit` });
    expect(audit.statusCode, audit.body).toBe(200);
    const r = audit.json<AuditResult>();
    expect(r.widgetFound).toBe(true);
    const refused = [
      { url: `http://${tp}/css/fonts.css`, resourceType: 'stylesheet' },
      { url: `http://${tp}/img/avatar.png`, resourceType: 'image' },
      { url: `http://${tp}/js/leaky.js`, resourceType: 'script' },
    ];
    const [page] = r.pages;
    for (const state of ['beforeDecision', 'afterDecline', 'afterAcceptAll'] as const) {
      expect(page![state]!.requests, state).toEqual([]);
      expect([...page![state]!.refusedByPolicy].sort((a, b) => a.url.localeCompare(b.url)), state).toEqual(refused);
    }
    // Reported as requests, these were three violations per state with fixes that change nothing.
    expect(r.violations).toEqual([]);
    expect(r.warnings).toEqual([
      `/csp: after "accept all" the page's Content-Security-Policy refused stylesheet, image, script from localhost, so the site cannot load it ` +
        'whatever the visitor decides; if the site needs it, add localhost to strictAllowedHosts (or as a marker to the embedding it belongs to) ' +
        'and paste the new snippet (in strict mode; a policy of the site\'s own is the site\'s to change)',
    ]);
  }, 60_000);

  it('names the site\'s own script behind a request made by code, and gives a bundled tracker its fix (not a marker on the site\'s script)', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/spa` });
    const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const tp = `localhost:${other.port}`;
    const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { name: 'Product analytics', purpose: ANALYTICS, active: true, scriptMarkers: [`${tp}/analytics/`] } });
    expect(res.statusCode, res.body).toBe(201);
    const snippet = await apiSnippet(base);
    // A product-analytics SDK compiled into the site's bundle: a page view by fetch (its embedding's host) and a beacon
    // to a host nothing names, the second from a timer. (An image a script asks for has no script initiator in
    // Chromium: it reports the document as the image's initiator, so none is recorded for it.)
    pages.set('/spa/app.js', `fetch('http://${tp}/analytics/e?ip=1', { method: 'POST', mode: 'no-cors', body: '{}' }).catch(() => {});
setTimeout(() => { navigator.sendBeacon('http://${tp}/beacon?spa=1', '{}'); new Image().src = 'http://${tp}/pixel.gif?spa=1'; }, 0);`);
    pages.set('/spa', `<!doctype html><html><head>${snippet}<script src="/spa/app.js" defer></script></head><body><h1>App</h1></body></html>`);
    const audit = await ctx.hosting({ method: 'GET', url: `${base}/onboarding/audit` });
    expect(audit.statusCode, audit.body).toBe(200);
    const r = audit.json<AuditResult>();
    const bundle = `http://127.0.0.1:${site.port}/spa/app.js`;
    const [page] = r.pages;
    expect(page!.beforeDecision!.requests).toEqual(expect.arrayContaining([
      { url: `http://${tp}/analytics/e?ip=1`, resourceType: 'fetch', initiator: bundle },
      { url: `http://${tp}/beacon?spa=1`, resourceType: 'ping', initiator: bundle },
      { url: `http://${tp}/pixel.gif?spa=1`, resourceType: 'image' },
    ]));
    const find = (state: string, value: string) => r.violations.find((v) => v.state === state && v.value === value);
    for (const state of ['beforeDecision', 'afterDecline']) {
      const event = find(state, `http://${tp}/analytics/e?ip=1`);
      expect(event, state).toMatchObject({ kind: 'request', resourceType: 'fetch', embedding: { name: 'Product analytics' } });
      // Until 2026-11-29: "a script of embedding Product analytics ran; add that script's URL as a script marker", which
      // for the site's own bundle would have blocked the whole site.
      expect(event!.fix).toContain(`sent by the site's own script ${bundle}`);
      expect(event!.fix).toContain('switch on strictBlocking');
      expect(event!.fix).not.toContain('add that script');
      const beacon = find(state, `http://${tp}/beacon?spa=1`);
      expect(beacon, state).toMatchObject({ kind: 'request', resourceType: 'ping', embedding: null, preset: null });
      expect(beacon!.fix).toContain(`sent by the site's own script ${bundle}: add ${tp} as a script marker of the embedding of this service`);
      // An image: the widget does not block it, whoever asked for it (until 2026-11-29 its fix was a script marker).
      expect(find(state, `http://${tp}/pixel.gif?spa=1`)!.fix, state).toContain('the widget blocks scripts and iframes, not images or media');
    }
  }, 60_000);

  it('says so when no page shows the banner, and still reports what loads', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/plain` });
    const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/audit` });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<AuditResult>();
    expect(r.widgetFound).toBe(false);
    expect(r.warnings).toEqual([expect.stringMatching(/showed no banner on any page/)]);
    expect(r.pages).toEqual([expect.objectContaining({ widget: false, afterDecline: null, afterAcceptAll: null })]);
    expect(r.violations.map((v) => v.value)).toEqual(expect.arrayContaining([`http://localhost:${other.port}/js/leaky.js`, 'leak_id']));
  }, 60_000);

  it('answers a start page with an error status as the scan does: 400 SCAN_SITE_ERROR', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/missing` });
    const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/audit` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('SCAN_SITE_ERROR');
  });
});

describe('GET …/onboarding/audit errors', () => {
  const ctx = useApp('sqlite');
  const noBrowser = useApp('sqlite', { scan: { ...testConfig().scan, allowPrivateNetworks: true, chromiumPath: '/nonexistent' } });
  const url = async (c: TestContext, name: string) => {
    const client = await createClient(c);
    const domain = await createDomain(c, client.id, { name });
    return `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/audit`;
  };

  it('refuses a private target with 400 SCAN_TARGET_FORBIDDEN', async () => {
    const res = await ctx.hosting({ method: 'GET', url: await url(ctx, '10.1.2.3') });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('SCAN_TARGET_FORBIDDEN');
  });

  it('answers 404 for a domain of another client', async () => {
    const other = await createClient(ctx);
    const path = (await url(ctx, 'shop.example')).replace(/client\/[^/]+/, `client/${other.id}`);
    const res = await ctx.hosting({ method: 'GET', url: path });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('DOMAIN_NOT_FOUND');
  });

  it('needs a browser: 500 SCAN_FAILED NO_BROWSER', async () => {
    const site = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'));
    try {
      const res = await noBrowser.hosting({ method: 'GET', url: await url(noBrowser, `http://127.0.0.1:${site.port}`) });
      expect(res.statusCode, res.body).toBe(500);
      expect(res.json().error).toMatchObject({ code: 'SCAN_FAILED', details: [{ message: expect.stringMatching(/^NO_BROWSER: /) }] });
    } finally {
      await site.close();
    }
  });
});
