import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, sendConsent, useApp, type TestContext } from '../../../test/helper.js';
import { canonicalRecordJson, parseCanonicalRecord, type ConsentRecord } from '../consent-log/consent-log.record.js';
import { GVL_V1, GVL_V2, startGvlServer, tcfTestConfig } from '../../../test/tcf-gvl.js';
import type { TcfConfig } from '../../../widget/src/types.js';

const gvlServer = await startGvlServer();
afterAll(() => gvlServer.close());

function inlinedConfig(body: string): Record<string, unknown> & { tcf?: TcfConfig } {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  expect(match).not.toBeNull();
  return JSON.parse(JSON.parse(match![1]!));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: TCF — Global Vendor List and vendor selection`, () => {
    const tcf = tcfTestConfig(gvlServer.url);
    const ctx = useApp(dialect, { tcf });
    const refresh = () => ctx.hosting({ method: 'POST', url: '/hosting/api/tcf/gvl/refresh' });
    const setup = async (settings: Record<string, unknown> = {}) => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'news.example', tcfEnabled: true, ...settings });
      return { client, domain, url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}` };
    };
    const load = (c: TestContext, url: string) => c.app.inject({ method: 'GET', url, headers: { referer: 'https://news.example/' } });

    beforeAll(async () => {
      gvlServer.vendorList = GVL_V1;
      expect((await refresh()).statusCode).toBe(200);
    });

    it('fetches the GVL and its translations, stores them in the database and on disk', async () => {
      const res = await ctx.hosting({ method: 'GET', url: '/hosting/api/tcf/gvl' });
      expect(res.json()).toMatchObject({ vendorListVersion: 1, tcfPolicyVersion: 5, vendorCount: 4, languages: ['en', 'de'], cmpId: 300, url: gvlServer.url });
      const rows = await ctx.database.db.selectFrom('tcf_gvl_files').select(['name', 'version']).orderBy('name').execute();
      expect(rows.map((r) => [r.name, Number(r.version)])).toEqual([['purposes-de', 1], ['vendor-list', 1]]);
      expect(JSON.parse(fs.readFileSync(path.join(tcf.gvlCacheDir, 'vendor-list.json'), 'utf8')).vendorListVersion).toBe(1);
      expect(fs.existsSync(path.join(tcf.gvlCacheDir, 'purposes-de.json'))).toBe(true);
    });

    it('serves app.js of a TCF domain with the IAB stub first, the TCF settings and the TCF chunk inlined', async () => {
      const { url, domain } = await setup({ tcfVendorBlacklist: [32], tcfSpecialFeatures: [1], tcfGoogleAdditionalConsentMode: true, tcfGoogleAdditionalConsentAdProviders: [89, 7] });
      const res = await load(ctx, url);
      expect(res.statusCode).toBe(200);
      expect(res.body.startsWith('"use strict";')).toBe(true);
      // The stub, then the prefix that fetches the domain's GVL, then the widget with its configuration, then the chunk.
      expect(res.body.indexOf('__tcfapiLocator')).toBeLessThan(res.body.indexOf('?lang='));
      expect(res.body.indexOf('?lang=')).toBeLessThan(res.body.indexOf('JSON.parse("'));
      expect(res.body.indexOf('JSON.parse("')).toBeLessThan(res.body.indexOf('Symbol.for("placet.tcf")]);'));
      expect(res.body).not.toContain('/public/tcf.js');
      const { t, f, ...tcf } = inlinedConfig(res.body).tcf!;
      expect(t!.en!.tcfPurposeLabel).toBe('Purposes');
      expect(tcf).toEqual({
        c: 300, cv: 2, v: 1, vs: [8, 21, 45], sf: [1],
        g: `${ctx.config.publicUrl}/public/tcf/${domain.id}/vendor-list.json`,
        ac: [7, 89], mu: [false, false], el: {},
      });
      // The first layer's facts: the fewest stacks covering the most purposes (3: 2-4, 11: 5-6, 13: 7-9), the
      // rest one by one; stack 1 is not used (it also holds special feature 2, which the domain does not ask for).
      expect(f!.en).toEqual({
        l: 'en',
        s: [
          ['Personalised advertising', 'Personalised advertising (fixture stack).'],
          ['Personalised content', 'Personalised content (fixture stack).'],
          ['Advertising and content measurement, and audience research', 'Advertising and content measurement, and audience research (fixture stack).'],
        ],
        p: ['Store and/or access information on a device', 'Develop and improve services', 'Use limited data to select content'],
        sp: ['Ensure security, prevent and detect fraud, and fix errors', 'Deliver and present advertising and content'],
        fe: ['Match and combine data from other data sources'],
        sf: ['Use precise geolocation data'],
      });
    });

    it('lists every purpose one by one with tcfStacks off, in the German of the IAB translation', async () => {
      const { url } = await setup({ tcfStacks: 'off', tcfSpecialFeatures: [1, 2] });
      const res = await ctx.app.inject({ method: 'GET', url: `${url}&lang=de`, headers: { referer: 'https://news.example/' } });
      const f = inlinedConfig(res.body).tcf!.f;
      expect(f.de!.s).toEqual([]);
      expect(f.de!.l).toBe('de');
      expect(f.de!.p).toHaveLength(11);
      expect(f.de!.p[0]).toBe('Zweck 1');
      expect(f.de!.sf).toHaveLength(2);
    });

    it('accepts publisher restrictions the GVL allows and inlines them; refuses the others with every reason', async () => {
      const { client, domain, url } = await setup();
      const put = (tcfPublisherRestrictions: unknown) => ctx.hosting({
        method: 'PUT', url: `/hosting/api/client/${client.id}/domain/${domain.id}`, payload: { tcfPublisherRestrictions },
      });
      const bad = await put([
        { vendorId: 8, purposeId: 2, restrictionType: 'requireConsent' },
        { vendorId: 8, purposeId: 2, restrictionType: 'notAllowed' },
        { vendorId: 8, purposeId: 3, restrictionType: 'requireConsent' },
        { vendorId: 32, purposeId: 5, restrictionType: 'notAllowed' },
        { vendorId: 999, purposeId: 1, restrictionType: 'notAllowed' },
        { vendorId: 45, purposeId: 1, restrictionType: 'requireLegitimateInterest' },
      ]);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_FAILED');
      expect(bad.json().error.details.map((d: { field: string; message: string }) => `${d.field}: ${d.message}`)).toEqual([
        'body.tcfPublisherRestrictions.1: vendor 8 has more than one restriction for purpose 2',
        'body.tcfPublisherRestrictions.2: vendor 8 does not declare purpose 3 as flexible on legitimate interest',
        'body.tcfPublisherRestrictions.3: vendor 32 does not declare purpose 5',
        'body.tcfPublisherRestrictions.4: vendor 999 is not in the Global Vendor List (version 1)',
        'body.tcfPublisherRestrictions.5: purpose 1 can only rest on consent (TCF 2.2)',
        'body.tcfPublisherRestrictions.5: vendor 45 does not declare purpose 1 as flexible on consent',
      ]);
      expect((await put([{ vendorId: 8, purposeId: 12, restrictionType: 'notAllowed' }])).statusCode).toBe(400);
      expect((await put([{ vendorId: 8, purposeId: 2, restrictionType: 'forbidden' }])).statusCode).toBe(400);
      const ok = await put([
        { vendorId: 8, purposeId: 2, restrictionType: 'requireConsent' },
        { vendorId: 21, purposeId: 8, restrictionType: 'notAllowed' },
      ]);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().tcfPublisherRestrictions).toHaveLength(2);
      expect(inlinedConfig((await load(ctx, url)).body).tcf!.pr).toEqual([[8, 2, 1], [21, 8, 0]]);
    });

    it('tcfStacks and tcfPublisherRestrictions need canUseIAB like the other TCF settings', async () => {
      const client = await createClient(ctx, { features: { canUseIAB: false } });
      const domain = await createDomain(ctx, client.id, { name: 'gated.example' });
      const res = await ctx.hosting({
        method: 'PUT', url: `/hosting/api/client/${client.id}/domain/${domain.id}`,
        payload: { tcfStacks: 'off', tcfPublisherRestrictions: [{ vendorId: 8, purposeId: 2, restrictionType: 'requireConsent' }] },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.tcfPublisherRestrictions', 'body.tcfStacks']);
    });

    it('loads nothing TCF-related for a domain without tcfEnabled', async () => {
      const { url, domain } = await setup({ tcfEnabled: false });
      const res = await load(ctx, url);
      expect(res.body).not.toContain('__tcfapi');
      expect(inlinedConfig(res.body).tcf).toBeUndefined();
      const gvl = await ctx.app.inject({ method: 'GET', url: `/public/tcf/${domain.id}/vendor-list.json` });
      expect(gvl.statusCode).toBe(404);
      expect(gvl.json().error.code).toBe('TCF_NOT_AVAILABLE');
    });

    it('links an embedding to a GVL vendor: the vendor name replaces its own, the link is inlined', async () => {
      const { client, domain, url } = await setup();
      const emb = await ctx.hosting({
        method: 'POST',
        url: `/hosting/api/client/${client.id}/domain/${domain.id}/embedding`,
        payload: { name: 'Audience stats', purpose: '15c61c3', vendor: 'whoever', tcfVendor: 21, tcfPurposes: [1, 7] },
      });
      expect(emb.statusCode).toBe(201);
      const config = inlinedConfig((await load(ctx, url)).body);
      expect(config.tcf!.el).toEqual({ [emb.json().id]: [21, [1, 7]] });
      expect(JSON.stringify(config.loc)).toContain('Example Measurement Ltd');
      expect(JSON.stringify(config.loc)).not.toContain('whoever');
    });

    it("serves the domain's GVL with the offered vendors only, translated with ?lang", async () => {
      const { domain } = await setup({ tcfVendorBlacklist: [8] });
      const en = await ctx.app.inject({ method: 'GET', url: `/public/tcf/${domain.id}/vendor-list.json` });
      expect(en.statusCode).toBe(200);
      expect(Object.keys(en.json().vendors)).toEqual(['21', '32', '45']);
      expect(en.json().purposes['1'].name).toBe('Store and/or access information on a device');
      const de = await ctx.app.inject({ method: 'GET', url: `/public/tcf/${domain.id}/vendor-list.json?lang=de_DE` });
      expect(de.json().purposes['1'].name).toBe('Zweck 1');
      expect(de.json().language).toBe('de');
      expect(de.json().vendors['21'].name).toBe('Example Measurement Ltd');
    });

    it('serves the domain GVL compressed, with an ETag, built once per revision and version', async () => {
      const { domain } = await setup();
      const url = `/public/tcf/${domain.id}/vendor-list.json?lang=de`;
      const first = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(first.headers['content-encoding']).toBe('br');
      const again = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string } });
      expect(again.statusCode).toBe(304);
    });

    it('a GVL update offers new vendors only with tcfEnableNewVendorsAfterGvlUpdate', async () => {
      const fixed = await setup();
      const open = await setup({ tcfEnableNewVendorsAfterGvlUpdate: true });
      expect(inlinedConfig((await load(ctx, fixed.url)).body).tcf!.vs).toEqual([8, 21, 32, 45]);
      expect(inlinedConfig((await load(ctx, open.url)).body).tcf!.vs).toEqual([8, 21, 32, 45]);
      gvlServer.vendorList = GVL_V2;
      try {
        expect((await refresh()).json().vendorListVersion).toBe(2);
        const a = inlinedConfig((await load(ctx, fixed.url)).body).tcf!;
        const b = inlinedConfig((await load(ctx, open.url)).body).tcf!;
        expect([a.v, a.vs]).toEqual([2, [8, 21, 32, 45]]);
        expect([b.v, b.vs]).toEqual([2, [8, 21, 32, 45, 77]]);
        // A domain first served after the update has version 2 as its baseline: vendor 77 is in it.
        const later = await setup();
        expect(inlinedConfig((await load(ctx, later.url)).body).tcf!.vs).toEqual([8, 21, 32, 45, 77]);
      } finally {
        gvlServer.vendorList = GVL_V1;
      }
    });

    it('keeps the stored list when a fetch fails or returns something else', async () => {
      const before = (await ctx.hosting({ method: 'GET', url: '/hosting/api/tcf/gvl' })).json().vendorListVersion;
      gvlServer.vendorList = '<html>maintenance</html>';
      try {
        const res = await refresh();
        expect(res.statusCode).toBe(502);
        expect(res.json().error.code).toBe('TCF_GVL_FETCH_FAILED');
      } finally {
        gvlServer.vendorList = GVL_V1;
      }
      expect((await ctx.hosting({ method: 'GET', url: '/hosting/api/tcf/gvl' })).json().vendorListVersion).toBe(before);
    });

    it('serves the TCF chunk compressed', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/public/tcf.js', headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/javascript/);
    });
  });

  describe(`${dialect}: TCF — start-up from the disk cache, without TCF_CMP_ID`, () => {
    // Unreachable URL: what the app serves can only come from the disk cache written here.
    const tcf = tcfTestConfig('http://127.0.0.1:9/unreachable/vendor-list.json', { cmpId: undefined });
    fs.writeFileSync(path.join(tcf.gvlCacheDir, 'vendor-list.json'), GVL_V2);
    const ctx = useApp(dialect, { tcf });

    it('a new database starts with the list cached on disk; no CMP id → no TCF signal, a console line', async () => {
      const status = await ctx.hosting({ method: 'GET', url: '/hosting/api/tcf/gvl' });
      expect(status.json()).toMatchObject({ vendorListVersion: 2, vendorCount: 5, cmpId: null });
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'news.example', tcfEnabled: true });
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`,
        headers: { referer: 'https://news.example/' },
      });
      expect(res.body).toContain('Placet: no TCF signal: TCF_CMP_ID is not set on this Placet instance.');
      expect(res.body).not.toContain('__tcfapiLocator');
    });
  });

  describe(`${dialect}: TCF — TC and AC strings in the consent log`, () => {
    const ctx = useApp(dialect);
    const TC = 'CQuPXIAQuPXIAEsACBENABFgAP_gAEPgAAAAAWgEACAEACAFoBAAgAAAgAAA.IAWgEACAEACA.YAAAAAAAAAAA';

    it('stores them with the record; the Domain API returns them, the export has them, the chain verifies', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'news.example', tcfEnabled: true });
      await sendConsent(ctx, client, domain, { tcString: TC, acString: '2~89~dv.1301' });
      await sendConsent(ctx, client, domain);
      const key = (await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` })).json().apiKey as string;
      const list = (await ctx.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/consents?apiKey=${key}` })).json() as Record<string, unknown>[];
      expect(list.map((r) => [r.tcString, r.acString])).toEqual([[undefined, undefined], [TC, '2~89~dv.1301']]);
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}/consent-log`;
      const lines = (await ctx.hosting({ method: 'GET', url: `${base}/blocks/1/export` })).body.trim().split('\n');
      expect(lines.filter((l) => l.includes(`"tcString":"${TC}","acString":"2~89~dv.1301","v":2`))).toHaveLength(1);
      const verify = await ctx.hosting({ method: 'GET', url: `${base}/verify` });
      expect(verify.statusCode).toBe(200);
      expect(verify.json()).toMatchObject({ ok: true });
    });

    it('refuses an AC string that is not one', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'news.example', tcfEnabled: true });
      await expect(sendConsent(ctx, client, domain, { acString: '<script>' })).rejects.toThrow(/400/);
    });
  });
}

describe('TCF fields in the canonical record', () => {
  const base: ConsentRecord = {
    consent: true, ucid: 'u', timestamp: 1, purposes: {}, embeddings: {}, manipulationPrevention: true, button: 'acceptAll',
    lang: 'en', revision: 1, legalRevision: 1, themeId: null, gpc: null, dnt: null, snapshot: 'a'.repeat(64), v: 2,
  };

  it('leaves a record without them byte for byte as before (old hashes stay valid)', () => {
    expect(canonicalRecordJson(base)).toBe(
      `{"consent":true,"ucid":"u","timestamp":1,"purposes":{},"embeddings":{},"manipulationPrevention":true,"button":"acceptAll","lang":"en","revision":1,"legalRevision":1,"themeId":null,"gpc":null,"dnt":null,"snapshot":"${'a'.repeat(64)}","v":2}`,
    );
  });

  it('adds them before "v" and reads them back', () => {
    const text = canonicalRecordJson({ ...base, tcString: 'CQ.IA', acString: '2~1~dv.' });
    expect(text.endsWith(`"tcString":"CQ.IA","acString":"2~1~dv.","v":2}`)).toBe(true);
    expect(parseCanonicalRecord(text)).toMatchObject({ tcString: 'CQ.IA', acString: '2~1~dv.' });
  });
});
