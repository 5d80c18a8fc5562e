import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, domainRevisions, sendConsent, useApp, type TestContext } from '../../../test/helper.js';
import type { FeatureFlag } from './clients.schemas.js';

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Json = Record<string, unknown>;

/** The configuration object inlined into a served widget (as `JSON.parse("…")`). */
function inlinedConfig(body: string): Json {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  expect(match).not.toBeNull();
  return JSON.parse(JSON.parse(match![1]!) as string) as Json;
}

/** A client (all flags on unless `off` names some) with one domain `shop.example`, and call helpers. */
async function setup(ctx: TestContext, off: FeatureFlag[] = [], domainBody: Json = {}) {
  const features = Object.fromEntries(off.map((f) => [f, false]));
  const client = await createClient(ctx, { features });
  const domain = await createDomain(ctx, client.id, { name: 'shop.example', ...domainBody });
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Json) =>
    ctx.hosting({ method, url: `${base}${path}`, ...(payload ? { payload } : {}) });
  const setFlags = async (flags: Partial<Record<FeatureFlag, boolean>>) => {
    const res = await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${client.id}`, payload: { features: flags } });
    expect(res.statusCode).toBe(200);
  };
  const widget = async (query = '', host = 'shop.example') => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}${query}`,
      headers: { referer: `https://${host}/` },
    });
    expect(res.statusCode).toBe(200);
    return inlinedConfig(res.body);
  };
  const theme = async () => (await call('GET', '/theme')).json<{ id: string }[]>()[0]!.id;
  return { client, domain, call, setFlags, widget, theme };
}

/** A 403 FEATURE_NOT_AVAILABLE naming exactly these fields, each with its flag. */
function expectRefused(res: { statusCode: number; json: () => unknown }, expected: Record<string, FeatureFlag>) {
  expect(res.statusCode).toBe(403);
  const body = res.json() as { error: { code: string; details: { field: string; flag: string }[] } };
  expect(body.error.code).toBe('FEATURE_NOT_AVAILABLE');
  expect(Object.fromEntries(body.error.details.map((d) => [d.field, d.flag]))).toEqual(expected);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: client feature flags`, () => {
    const ctx = useApp(dialect, { counterFlushIntervalMs: 60_000 });

    describe('canUseDomAPI', () => {
      it('answers every Domain API route with 403 while off, and the same key works again once on', async () => {
        const s = await setup(ctx);
        const keyRes = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${s.client.id}/domain-api-key` });
        const key = keyRes.json<{ apiKey: string }>().apiKey;
        const ucid = await sendConsent(ctx, s.client, s.domain);
        const api = (path: string) => ctx.app.inject({ method: 'GET', url: `/api${path}?apiKey=${key}` });
        const paths = ['/test', '/domains', `/domains/${s.domain.id}/consents`, `/domains/${s.domain.id}/consents/${ucid}`, `/domains/${s.domain.id}/consents/${ucid}/shown`];
        for (const path of paths) expect((await api(path)).statusCode).toBe(200);

        await s.setFlags({ canUseDomAPI: false });
        for (const path of paths) expectRefused(await api(path), { 'features.canUseDomAPI': 'canUseDomAPI' });
        // A wrong key is still 401: the 403 only tells a caller with the right key that the feature is off.
        expect((await ctx.app.inject({ method: 'GET', url: `/api/test?apiKey=pdk_${'0'.repeat(64)}` })).statusCode).toBe(401);

        await s.setFlags({ canUseDomAPI: true });
        expect((await api('/test')).statusCode).toBe(200);
      });

      it('refuses to create a Domain API key while off', async () => {
        const s = await setup(ctx, ['canUseDomAPI']);
        const res = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${s.client.id}/domain-api-key` });
        expectRefused(res, { 'features.canUseDomAPI': 'canUseDomAPI' });
      });
    });

    describe('canUseMultiDom', () => {
      it('allows one domain while off; domains created before keep working', async () => {
        const s = await setup(ctx, ['canUseMultiDom']);
        const second = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${s.client.id}/domain`, payload: { name: 'other.example' } });
        expectRefused(second, { 'features.canUseMultiDom': 'canUseMultiDom' });

        await s.setFlags({ canUseMultiDom: true });
        await createDomain(ctx, s.client.id, { name: 'other.example' });
        await s.setFlags({ canUseMultiDom: false });
        const domains = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${s.client.id}/domain` });
        expect(domains.json<unknown[]>()).toHaveLength(2);
        expect((await s.widget()).d).toBe(s.domain.id);
      });

      it('lets autoCreateDomains create no second domain while off', async () => {
        const s = await setup(ctx, ['canUseMultiDom']);
        await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${s.client.id}`, payload: { autoCreateDomains: true } });
        const res = await ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${s.client.apiKey}`, headers: { referer: 'https://new.example/' } });
        expect(res.body).toContain('unknown apiKey or domain');
        expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${s.client.id}/domain` })).json<unknown[]>()).toHaveLength(1);
      });
    });

    describe('canUseConsentSharing', () => {
      it('refuses sharing settings while off, and always allows switching them off', async () => {
        const s = await setup(ctx, ['canUseConsentSharing']);
        const create = await ctx.hosting({
          method: 'POST',
          url: `/hosting/api/client/${s.client.id}/domain`,
          payload: { name: 'other.example', consentSharingDomains: ['shop.example'], consentSharingCrossDomain: true },
        });
        expectRefused(create, {
          'body.consentSharingDomains': 'canUseConsentSharing',
          'body.consentSharingCrossDomain': 'canUseConsentSharing',
        });
        expectRefused(await s.call('PUT', '', { consentSharingCrossDomain: true }), { 'body.consentSharingCrossDomain': 'canUseConsentSharing' });
        expect((await s.call('PUT', '', { consentSharingDomains: [], consentSharingCrossDomain: false })).statusCode).toBe(200);
      });

      it('turned off after data exists: no hand-over and no shared cookie, but the widget still blocks on the listed hosts', async () => {
        const s = await setup(ctx, [], { consentSharingDomains: ['shop.example', 'brand.example'], consentSharingCrossDomain: true });
        expect(await s.widget()).toMatchObject({ sd: ['shop.example', 'brand.example'], sx: true });
        await s.setFlags({ canUseConsentSharing: false });
        expect(await s.widget()).toMatchObject({ sd: [], sx: false });
        // Fail closed: a page on a listed host still gets the domain's widget (its blocking), not a no-op.
        expect(await s.widget('', 'www.brand.example')).toMatchObject({ d: s.domain.id, sd: [], sx: false });
        // A domain PUT that sends back what it read (sharing settings unchanged) is not refused.
        const read = (await s.call('GET', '')).json<Json>();
        expect((await s.call('PUT', '', read)).statusCode).toBe(200);
      });
    });

    describe('canUseIAB', () => {
      it('refuses TCF settings on domains and embeddings while off; switching them off is allowed', async () => {
        const s = await setup(ctx, ['canUseIAB']);
        expectRefused(await s.call('PUT', '', { tcfEnabled: true, tcfVendorBlacklist: [1] }), {
          'body.tcfEnabled': 'canUseIAB',
          'body.tcfVendorBlacklist': 'canUseIAB',
        });
        expectRefused(await s.call('POST', '/embedding', { name: 'Ads', purpose: 'cdcbd7c', tcfVendor: 755, tcfPurposes: [1] }), {
          'body.tcfVendor': 'canUseIAB',
          'body.tcfPurposes': 'canUseIAB',
        });
        expect((await s.call('PUT', '', { tcfEnabled: false })).statusCode).toBe(200);
        expect((await s.call('POST', '/embedding', { name: 'Ads', purpose: 'cdcbd7c' })).statusCode).toBe(201);
      });
    });

    describe('canUseScripts (fail closed)', () => {
      it('refuses changes to script blocking and injected code, except switches that only block more', async () => {
        const s = await setup(ctx, ['canUseScripts']);
        expectRefused(await s.call('POST', '/embedding', { name: 'GA', purpose: 'a717ff5', scriptMarkers: ['gtag/js'], scriptHtmlCode: '<script>1</script>' }), {
          'body.scriptMarkers': 'canUseScripts',
          'body.scriptHtmlCode': 'canUseScripts',
        });
        expectRefused(await s.call('PUT', '', { allowedScriptMarkers: ['cdn.example'] }), { 'body.allowedScriptMarkers': 'canUseScripts' });
        expect((await s.call('PUT', '', { blockNewScripts: true, blockInlineScripts: true })).statusCode).toBe(200);
        // Turning a block off again is a change that would let scripts run.
        expectRefused(await s.call('PUT', '', { blockNewScripts: false }), { 'body.blockNewScripts': 'canUseScripts' });
      });

      it('imports presets with their catalogue markers while off (they only make blocking work)', async () => {
        const s = await setup(ctx, ['canUseScripts', 'canUseIframes']);
        const res = await s.call('POST', '/onboarding/presets', [{ id: 33, active: true }] as unknown as Json);
        expect(res.statusCode).toBe(201);
        const [embedding] = (await s.call('GET', '/embedding')).json<{ scriptMarkers: string[]; iframeMarkers: string[] }[]>();
        expect(embedding!.scriptMarkers).toContain('fls.doubleclick.net');
        expect(embedding!.iframeMarkers).toContain('fls.doubleclick.net');
      });

      it('turned off after data exists: stored markers keep blocking, and emptying them is refused', async () => {
        const s = await setup(ctx, [], { blockedScriptMarkers: ['evil.example'] });
        const emb = (await s.call('POST', '/embedding', { name: 'GA', purpose: 'a717ff5', scriptMarkers: ['gtag/js'] })).json<{ id: string }>();
        await s.setFlags({ canUseScripts: false });
        const config = await s.widget();
        expect(config.bm).toEqual(['evil.example']);
        expect((config.em as { i: string; sm: string[] }[]).find((e) => e.i === emb.id)?.sm).toEqual(['gtag/js']);
        expectRefused(await s.call('PUT', `/embedding/${emb.id}`, { scriptMarkers: [] }), { 'body.scriptMarkers': 'canUseScripts' });
        // Other fields of the embedding can still change.
        expect((await s.call('PUT', `/embedding/${emb.id}`, { vendor: 'Google' })).statusCode).toBe(200);
      });
    });

    describe('canUseIframes (fail closed)', () => {
      it('refuses changes to the iframe blocker except turning it on; stored settings keep blocking', async () => {
        const s = await setup(ctx, [], { blockIframes: false });
        const emb = (await s.call('POST', '/embedding', { name: 'Maps', purpose: '15c61c3', iframeMarkers: ['maps.google'] })).json<{ id: string }>();
        await s.setFlags({ canUseIframes: false });
        expectRefused(await s.call('PUT', '', { iframeMarkers: ['video.example'], iframeBlockMode: 'blacklist' }), {
          'body.iframeMarkers': 'canUseIframes',
          'body.iframeBlockMode': 'canUseIframes',
        });
        expectRefused(await s.call('PUT', `/embedding/${emb.id}`, { iframeMarkers: [] }), { 'body.iframeMarkers': 'canUseIframes' });
        expect((await s.call('PUT', '', { blockIframes: true })).statusCode).toBe(200);
        expectRefused(await s.call('PUT', '', { blockIframes: false }), { 'body.blockIframes': 'canUseIframes' });
        const config = await s.widget();
        expect(config).toMatchObject({ bi: true, iw: 1 });
        expect((config.em as { i: string; fm: string[] }[]).find((e) => e.i === emb.id)?.fm).toEqual(['maps.google']);
      });
    });

    describe('canUseOwnLogo, canUseIndCSS, canUseIframeCSS', () => {
      it('refuses a logo and custom CSS on themes while off; clearing them is allowed', async () => {
        const s = await setup(ctx, ['canUseOwnLogo', 'canUseIndCSS', 'canUseIframeCSS']);
        expectRefused(
          await s.call('POST', '/theme', { name: 'Brand', logoEnabled: true, logoImage: PNG_1PX, customCss: '.ccm-root{}', customCssForIframeBlocker: 'p{}' }),
          {
            'body.logoEnabled': 'canUseOwnLogo',
            'body.logoImage': 'canUseOwnLogo',
            'body.customCss': 'canUseIndCSS',
            'body.customCssForIframeBlocker': 'canUseIframeCSS',
          },
        );
        const id = await s.theme();
        expectRefused(await s.call('PUT', `/theme/${id}`, { customCss: 'x{}' }), { 'body.customCss': 'canUseIndCSS' });
        expect((await s.call('PUT', `/theme/${id}`, { customCss: '', logoEnabled: false, logoImage: null })).statusCode).toBe(200);
      });

      it('turned off after data exists: the widget gets neither the logo nor the custom CSS', async () => {
        const s = await setup(ctx);
        const id = await s.theme();
        const put = await s.call('PUT', `/theme/${id}`, { logoEnabled: true, logoImage: PNG_1PX, customCss: '.ccm-root{color:red}', customCssForIframeBlocker: 'p{color:red}' });
        expect(put.statusCode).toBe(200);
        expect((await s.widget()).th).toMatchObject({ logo: PNG_1PX, css: '.ccm-root{color:red}', iframeCss: 'p{color:red}' });
        await s.setFlags({ canUseOwnLogo: false });
        expect((await s.widget()).th).toMatchObject({ logo: '', css: '.ccm-root{color:red}', iframeCss: 'p{color:red}' });
        await s.setFlags({ canUseIndCSS: false, canUseIframeCSS: false });
        expect((await s.widget()).th).toMatchObject({ logo: '', css: '', iframeCss: '' });
        // Stored as it was: turning the flags on again brings it back.
        await s.setFlags({ canUseOwnLogo: true, canUseIndCSS: true, canUseIframeCSS: true });
        expect((await s.widget()).th).toMatchObject({ logo: PNG_1PX, css: '.ccm-root{color:red}' });
      });
    });

    describe('moreThan2Lang', () => {
      it('allows two active locales while off; a third may exist only inactive', async () => {
        const s = await setup(ctx, ['moreThan2Lang']);
        expect((await s.call('POST', '/locale', { name: 'de_DE' })).statusCode).toBe(201);
        expect((await s.call('POST', '/locale', { name: 'en_US' })).statusCode).toBe(201);
        expectRefused(await s.call('POST', '/locale', { name: 'fr_FR' }), { 'body.active': 'moreThan2Lang' });
        expect((await s.call('POST', '/locale', { name: 'fr_FR', active: false })).statusCode).toBe(201);
        expectRefused(await s.call('PUT', '/locale/fr_FR', { active: true }), { 'body.active': 'moreThan2Lang' });
        expect((await s.call('PUT', '/locale/en_US', { active: false })).statusCode).toBe(200);
        expect((await s.call('PUT', '/locale/fr_FR', { active: true })).statusCode).toBe(200);
      });

      it('turned off after data exists: the widget offers the two oldest active locales', async () => {
        const s = await setup(ctx);
        for (const name of ['de_DE', 'en_US', 'fr_FR']) expect((await s.call('POST', '/locale', { name })).statusCode).toBe(201);
        expect(Object.keys((await s.widget()).loc as Json)).toEqual(['de_DE', 'en_US', 'fr_FR']);
        await s.setFlags({ moreThan2Lang: false });
        expect(Object.keys((await s.widget()).loc as Json)).toEqual(['de_DE', 'en_US']);
        // Asking for the third language shows the default one.
        const forced = await s.widget('&lang=fr_FR');
        expect(Object.keys(forced.loc as Json)).toEqual(['de_DE', 'en_US']);
        expect(forced).toMatchObject({ fl: '', dl: 'de_DE' });
      });
    });

    describe('flags without a feature in Placet yet', () => {
      it('stores canUseABTests, canUseAnalytics and canUseUserGroupRights without refusing anything', async () => {
        const s = await setup(ctx, ['canUseABTests', 'canUseAnalytics', 'canUseUserGroupRights']);
        const client = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${s.client.id}` });
        expect(client.json<{ features: Json }>().features).toMatchObject({ canUseABTests: false, canUseAnalytics: false, canUseUserGroupRights: false });
        expect((await s.call('POST', '/embedding', { name: 'Stats', purpose: 'a717ff5' })).statusCode).toBe(201);
      });
    });

    describe('changing flags', () => {
      it('raises the configuration revision of each of the client\'s domains, only when a flag changes', async () => {
        const s = await setup(ctx);
        const other = await createDomain(ctx, s.client.id, { name: 'other.example' });
        const before = [await domainRevisions(ctx, s.domain.id), await domainRevisions(ctx, other.id)];
        await s.setFlags({ canUseIndCSS: false });
        const after = [await domainRevisions(ctx, s.domain.id), await domainRevisions(ctx, other.id)];
        expect(after.map((r) => r.config_revision)).toEqual(before.map((r) => r.config_revision + 1));
        expect(after.map((r) => r.legal_revision)).toEqual(before.map((r) => r.legal_revision));
        await s.setFlags({ canUseIndCSS: false });
        expect((await domainRevisions(ctx, s.domain.id)).config_revision).toBe(after[0]!.config_revision);
      });

      it('keeps another client\'s domains untouched', async () => {
        const a = await setup(ctx);
        const b = await setup(ctx);
        const before = await domainRevisions(ctx, b.domain.id);
        await a.setFlags({ canUseOwnLogo: false });
        expect(await domainRevisions(ctx, b.domain.id)).toEqual(before);
      });
    });
  });
}
