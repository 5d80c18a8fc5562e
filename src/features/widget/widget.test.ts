import { loadConsentTokens } from '../consent-ingest/consent-token.js';
import { IngestStats } from '../consent-ingest/ingest-stats.js';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, depsOf, useApp, type TestContext } from '../../../test/helper.js';
import { CONFIG_TOKEN } from '../../../widget/build.js';
import { CallCounter } from './call-counter.js';
import { WidgetService } from './widget.service.js';
import { namedTexts } from '../../../widget/src/text-fields.js';

const monthCalls = async (ctx: TestContext, domainId: string) =>
  (await ctx.database.db.selectFrom('call_counts').select('count').where('domain_id', '=', domainId).execute()).reduce(
    (sum, r) => sum + Number(r.count),
    0,
  );

/** The configuration object inlined into a served widget (as `JSON.parse("…")`). */
function inlinedConfig(body: string): Record<string, unknown> {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  expect(match).not.toBeNull();
  return JSON.parse(JSON.parse(match![1]!));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /public/app.js`, () => {
    const ctx = useApp(dialect, { counterFlushIntervalMs: 60_000, countryHeader: 'cf-ipcountry' });
    const setup = async (client: Record<string, unknown> = {}, domain: Record<string, unknown> = {}) => {
      const c = await createClient(ctx, client);
      const d = await createDomain(ctx, c.id, { name: 'shop.example', ...domain });
      return { client: c, domain: d, url: `/public/app.js?apiKey=${c.apiKey}&domain=${d.id}` };
    };
    const load = (url: string, headers: Record<string, string> = { referer: 'https://shop.example/' }) =>
      ctx.app.inject({ method: 'GET', url, headers });
    /** Sets enableOnlyInEu on the domain's default theme. */
    const onlyInEu = async (clientId: string, domainId: string) => {
      const base = `/hosting/api/client/${clientId}/domain/${domainId}/theme`;
      const themes = (await ctx.hosting({ method: 'GET', url: base })).json<{ id: string }[]>();
      const res = await ctx.hosting({ method: 'PUT', url: `${base}/${themes[0]!.id}`, payload: { enableOnlyInEu: true } });
      expect(res.statusCode).toBe(200);
    };

    it('serves the widget with the configuration inlined, no-cache and a strong ETag', async () => {
      const { url, domain, client } = await setup();
      const res = await load(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.etag).toMatch(/^"[^"]+"$/);
      expect(res.body).not.toContain(CONFIG_TOKEN);
      const config = inlinedConfig(res.body);
      expect(config).toMatchObject({ d: domain.id, k: client.apiKey, u: `${ctx.config.publicUrl}/public/consent` });
    });

    it('answers a repeat view with 304', async () => {
      const { url } = await setup();
      const first = await load(url);
      const again = await load(url, { referer: 'https://shop.example/page', 'if-none-match': first.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const changed = await load(url, { referer: 'https://shop.example/', 'if-none-match': '"other"' });
      expect(changed.statusCode).toBe(200);
    });

    it('compresses with brotli or gzip when the browser accepts it', async () => {
      const { url } = await setup();
      const br = await load(url, { referer: 'https://shop.example/', 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      const gz = await load(url, { referer: 'https://shop.example/', 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers.etag).not.toBe(br.headers.etag);
    });

    it('rebuilds after a configuration change (new ETag) and reuses the cache otherwise', async () => {
      const { url, client, domain } = await setup();
      const a = await load(url);
      const b = await load(url);
      expect(b.headers.etag).toBe(a.headers.etag);
      await ctx.hosting({
        method: 'POST',
        url: `/hosting/api/client/${client.id}/domain/${domain.id}/embedding`,
        payload: { name: 'Maps', purpose: '15c61c3' },
      });
      const c = await load(url);
      expect(c.headers.etag).not.toBe(a.headers.etag);
      expect(JSON.stringify(inlinedConfig(c.body))).toContain('Maps');
    });

    it('shows no banner on another site: a console warning only', async () => {
      const { url } = await setup();
      for (const headers of [{ referer: 'https://evil.example/' }, { referer: 'https://shop.example.evil.example/' }, {}] as Record<string, string>[]) {
        const res = await load(url, headers);
        expect(res.statusCode).toBe(200);
        expect(res.body).toMatch(/^console\.warn\(/);
        // The snippet's fallback, when it has one, keeps third-party content blocked (docs/widget.md, "Placet unreachable").
        expect(res.body).toContain(';self.ccmFallback&&ccmFallback();');
        expect(res.body).not.toContain('JSON.parse');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      const origin = await load(url, { origin: 'https://shop.example' });
      expect(origin.body).toContain('JSON.parse(');
    });

    it('checks the port and answers unknown keys and domains with a warning', async () => {
      const { url, client } = await setup({}, { name: 'shop.example:8443' });
      expect((await load(url, { referer: 'https://shop.example:8443/' })).body).toContain('JSON.parse(');
      expect((await load(url, { referer: 'https://shop.example/' })).body).toMatch(/^console\.warn/);
      expect((await load(`/public/app.js?apiKey=${client.apiKey}&domain=0000000`)).body).toMatch(/^console\.warn/);
      expect((await load(`/public/app.js?apiKey=nope&domain=0000000`)).body).toMatch(/^console\.warn/);
      const bad = await ctx.app.inject({ method: 'GET', url: '/public/app.js?domain=abc' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    });

    it('serves the widget in blocked mode when it is switched off', async () => {
      const { url } = await setup({}, { frontendWidgetEnabled: false });
      expect(inlinedConfig((await load(url)).body).bl).toMatch(/switched off/);
    });

    it('serves the widget in blocked mode, not counted, once the monthly quota is used up', async () => {
      const { url, domain } = await setup({ widgetDisplayMaxCount: 3 });
      // Three visitors (a repeat from one address and page would count once).
      const from = (n: number) => ctx.app.inject({ method: 'GET', url, headers: { referer: 'https://shop.example/' }, remoteAddress: `10.9.0.${n}` });
      for (let i = 0; i < 3; i++) expect(inlinedConfig((await from(i)).body).bl).toBeUndefined();
      const over = await from(7);
      expect(over.statusCode).toBe(200);
      // The whole widget (its blocking runs), flagged: no banner, everything declined, the reason in the console.
      expect(inlinedConfig(over.body)).toMatchObject({ d: domain.id, bl: expect.stringMatching(/quota for this month is used up/) });
      const month = new Date().toISOString().slice(0, 7);
      // A previous month does not count against this one.
      await ctx.database.db.insertInto('call_counts').values({ domain_id: domain.id, month: '2000-01', count: 99 }).execute();
      expect(month).toMatch(/^\d{4}-\d\d$/);
      expect(inlinedConfig((await from(8)).body).bl).toMatch(/quota/);
    });

    it('creates the domain from the calling host with autoCreateDomains, and only then', async () => {
      const c = await createClient(ctx, { autoCreateDomains: true });
      const res = await load(`/public/app.js?apiKey=${c.apiKey}`, { referer: 'http://auto.example:8080/some/page' });
      expect(res.body).toContain('JSON.parse(');
      const domains = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${c.id}/domain` })).json();
      expect(domains).toEqual([expect.objectContaining({ name: 'auto.example:8080' })]);
      await load(`/public/app.js?apiKey=${c.apiKey}`, { referer: 'http://auto.example:8080/other' });
      expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${c.id}/domain` })).json()).toHaveLength(1);
      const off = await createClient(ctx);
      expect((await load(`/public/app.js?apiKey=${off.apiKey}`, { referer: 'https://new.example/' })).body).toMatch(/^console\.warn/);
      expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${off.id}/domain` })).json()).toEqual([]);
    });

    it('inlines texts with placeholders replaced, per locale, with the fallback', async () => {
      const { url, client, domain } = await setup();
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      await ctx.hosting({ method: 'POST', url: `${base}/placeholder`, payload: { name: 'COMPANY', value: 'Acme & Sons <Ltd>' } });
      await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'de_DE', widgetTitle: 'Datenschutz bei {COMPANY}' } });
      await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'en_US', widgetTitle: 'Privacy at {COMPANY}' } });
      await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'fr', active: false } });
      const config = inlinedConfig((await load(url)).body) as { loc: Record<string, { t: string[] }>; dl: string };
      expect(Object.keys(config.loc)).toEqual(['de_DE', 'en_US']);
      expect(config.dl).toBe('de_DE');
      expect(namedTexts(config.loc.de_DE!.t).widgetTitle).toBe('Datenschutz bei Acme & Sons <Ltd>');
      expect(namedTexts(config.loc.de_DE!.t).widgetDeclineButtonText).not.toBe('');
      expect(namedTexts(config.loc.en_US!.t).widgetTitle).toBe('Privacy at Acme & Sons <Ltd>');
      const forced = inlinedConfig((await load(`${url}&lang=en_US`)).body) as { fl: string };
      expect(forced.fl).toBe('en_US');
    });

    it('picks built-in texts from Accept-Language when the domain has no locale', async () => {
      const { url } = await setup();
      const config = inlinedConfig(
        (await load(url, { referer: 'https://shop.example/', 'accept-language': 'ja-JP, sv;q=0.8, en;q=0.5' })).body,
      ) as { loc: Record<string, unknown>; dl: string };
      expect(Object.keys(config.loc)).toEqual(['sv']);
    });

    it('uses the theme named in the snippet, else the default theme', async () => {
      const { url, client, domain } = await setup();
      const theme = (
        await ctx.hosting({
          method: 'POST',
          url: `/hosting/api/client/${client.id}/domain/${domain.id}/theme`,
          payload: { name: 'Top', widgetPosition: 'top' },
        })
      ).json();
      const def = inlinedConfig((await load(url)).body) as { th: { position: string } };
      expect(def.th.position).toBe('bottom');
      const pinned = inlinedConfig((await load(`${url}&theme=${theme.id}`)).body) as { th: { position: string } };
      expect(pinned.th.position).toBe('top');
    });

    it('tells the widget when a visitor is outside the GDPR area and the theme shows the banner only there', async () => {
      const { url, client, domain } = await setup();
      const from = async (country?: string) => {
        const res = await load(url, { referer: 'https://shop.example/', ...(country === undefined ? {} : { 'cf-ipcountry': country }) });
        expect(res.headers.vary).toContain('cf-ipcountry');
        return (inlinedConfig(res.body) as { oe: boolean }).oe;
      };
      // The theme does not ask for it: everyone is asked.
      expect(await from('US')).toBe(false);
      await onlyInEu(client.id, domain.id);
      expect(await from('US')).toBe(true);
      expect(await from('br')).toBe(true);
      for (const inside of ['DE', 'fr', 'AX', 'RE', 'NO', 'GB', 'CH']) expect(await from(inside)).toBe(false);
      // No header, unknown ("XX"), Tor ("T1") or garbage: asked.
      for (const unknown of [undefined, 'XX', 'T1', '', 'USA']) expect(await from(unknown)).toBe(false);
      // Only the trusted header counts, not a query parameter of the same name.
      const res = await load(`${url}&country=US`, { referer: 'https://shop.example/', 'cf-ipcountry': 'DE' });
      expect((inlinedConfig(res.body) as { oe: boolean }).oe).toBe(false);
    });

    it('keeps a variant for visitors from outside the area only for themes that need one', async () => {
      const { client, domain } = await setup();
      const deps = depsOf(ctx);
      const service = new WidgetService(
        deps,
        new CallCounter(deps.db, deps.clock, 60_000, deps.log),
        await loadConsentTokens(deps.db, deps.config),
        new IngestStats(deps.db, deps.clock, 60_000, deps.log),
      );
      await service.init();
      const serve = (country: string) =>
        service.serve({ apiKey: client.apiKey, domain: domain.id, referer: 'https://shop.example/', country });
      const [de, us] = [await serve('DE'), await serve('US')];
      expect(us.headers.etag).toBe(de.headers.etag);
      expect(service.cacheSize).toBe(1);
      await onlyInEu(client.id, domain.id);
      const [de2, us2, ch2] = [await serve('DE'), await serve('US'), await serve('CH')];
      expect(us2.headers.etag).not.toBe(de2.headers.etag);
      expect(ch2.headers.etag).toBe(de2.headers.etag);
      // The old revision's entry, then this revision's common variant and its variant for outside the area.
      expect(service.cacheSize).toBe(3);
    });
  });

  describe(`${dialect}: widget call counting`, () => {
    const ctx = useApp(dialect, { counterFlushIntervalMs: 100 });

    it('counts every visitor\'s call, 304s included, per domain and month, written in batches', async () => {
      const client = await createClient(ctx);
      const a = await createDomain(ctx, client.id, { name: 'a.example' });
      const b = await createDomain(ctx, client.id, { name: 'b.example' });
      let visitor = 0;
      // Each call from another address: a repeat from one address and page counts once (widget.limits.test.ts).
      const get = (d: string, host: string, etag?: string) =>
        ctx.app.inject({
          method: 'GET',
          url: `/public/app.js?apiKey=${client.apiKey}&domain=${d}`,
          headers: { referer: `https://${host}/`, ...(etag ? { 'if-none-match': etag } : {}) },
          remoteAddress: `10.1.0.${visitor++}`,
        });
      const first = await get(a.id, 'a.example');
      for (let i = 0; i < 4; i++) expect((await get(a.id, 'a.example', first.headers.etag as string)).statusCode).toBe(304);
      for (let i = 0; i < 3; i++) await get(b.id, 'b.example');
      await get(a.id, 'wrong.example');
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && (await monthCalls(ctx, a.id)) + (await monthCalls(ctx, b.id)) < 8) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await monthCalls(ctx, a.id)).toBe(5);
      expect(await monthCalls(ctx, b.id)).toBe(3);
      const list = (await ctx.hosting({ method: 'GET', url: '/hosting/api/client' })).json();
      const item = list.find((c: { id: string }) => c.id === client.id);
      expect(item.actualCallCount).toBe(8);
      expect(item.domainCountData).toEqual(expect.arrayContaining([{ domName: 'a.example', count: 5 }, { domName: 'b.example', count: 3 }]));
    });
  });

  describe(`${dialect}: GET …/onboarding/embed`, () => {
    const ctx = useApp(dialect, { publicUrl: 'https://consent.agency.example' });

    it('returns the default snippet and one per active locale, in the shape CMS plugins validate', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'de_DE' } });
      await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'en_US' } });
      await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'fr', active: false } });
      const res = await ctx.hosting({ method: 'GET', url: `${base}/onboarding/embed` });
      expect(res.statusCode).toBe(200);
      const src = `https://consent.agency.example/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}`;
      // Each tag comes after the fallback that fails closed when the widget cannot be loaded (below).
      const fallback = (res.json() as { default: string }).default.split('\n')[0]!;
      expect(fallback).toMatch(/^<script>\(function\(w,d,f\)\{w\.ccmFallback=.*addEventListener\("error",.*<\/script>$/);
      expect(res.json()).toEqual({
        default: `${fallback}\n<script src="${src}" referrerpolicy="origin"></script>`,
        de_DE: `${fallback}\n<script src="${src}&amp;lang=de_DE" referrerpolicy="origin"></script>`,
        en_US: `${fallback}\n<script src="${src}&amp;lang=en_US" referrerpolicy="origin"></script>`,
      });
      // The regular expression the established product's Shopify plugin validates snippets with.
      const shopify = /<script src="https?:\/\/[^"]+\/public\/(ccm19|app)\.js\?[^"]+" referrerpolicy="origin"><\/script>/;
      for (const snippet of Object.values(res.json() as Record<string, string>)) expect(snippet).toMatch(shopify);
    });

    it('fails closed when the widget cannot be loaded: a policy that allows the site, Placet, necessary embeddings\' hosts and strictAllowedHosts only', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      const embedding = (body: Record<string, unknown>) => ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { active: true, ...body } });
      await embedding({ name: 'GA', purpose: 'a717ff5', scriptMarkers: ['googletagmanager.com/gtag/js'] });
      await embedding({ name: 'Session', purpose: '41ba25c', scriptMarkers: ['cdn.sessionhost.com/s.js'] });
      await embedding({ name: 'Inactive necessary', purpose: '41ba25c', active: false, scriptMarkers: ['off.example.org/x.js'] });
      await ctx.hosting({ method: 'PUT', url: base, payload: { strictAllowedHosts: ['cdn.jsdelivr.net'] } });
      const snippet = (await ctx.hosting({ method: 'GET', url: `${base}/onboarding/embed` })).json<{ default: string }>().default;
      const [fallback, tag] = snippet.split('\n');
      expect(tag).toMatch(/^<script src="https:\/\/consent\.agency\.example\/public\/app\.js\?/);
      // Only for the widget's own tag, only while the page loads.
      expect(fallback).toContain('s.src.indexOf("https://consent.agency.example/public/app.js?")==0&&d.readyState=="loading"');
      const policy = /content=\\"([^"\\]+)\\">/.exec(fallback!)![1]!;
      expect(policy).toBe("default-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: https://consent.agency.example cdn.sessionhost.com *.cdn.sessionhost.com cdn.jsdelivr.net *.cdn.jsdelivr.net");
      // With consent required for necessary embeddings too, only the site, Placet and the allowed hosts.
      await ctx.hosting({ method: 'PUT', url: base, payload: { requireConsentForMandatoryEmbeddings: true } });
      const strictest = (await ctx.hosting({ method: 'GET', url: `${base}/onboarding/embed` })).json<{ default: string }>().default;
      expect(strictest).not.toContain('sessionhost');
    });

    it('answers 404 for another client\'s domain and 401 without a key', async () => {
      const a = await createClient(ctx);
      const b = await createClient(ctx);
      const bDomain = await createDomain(ctx, b.id);
      const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${a.id}/domain/${bDomain.id}/onboarding/embed` });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(b.apiKey);
      const anon = await ctx.app.inject({ method: 'GET', url: `/hosting/api/client/${b.id}/domain/${bDomain.id}/onboarding/embed` });
      expect(anon.statusCode).toBe(401);
    });
  });
}
