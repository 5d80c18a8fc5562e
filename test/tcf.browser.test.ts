import { TCString, type TCModel, type Vector } from '@iabtechlabtcf/core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type BrowserApp, domainRecords, hostingCall, startBrowserApp } from './browser.js';
import { unique } from './helper.js';
import { GVL_V1, GVL_V2, startGvlServer, tcfTestConfig, type GvlServer } from './tcf-gvl.js';

/**
 * IAB TCF in real Chromium (issue #18): a vendor script talks to `__tcfapi` from before the CMP has
 * loaded, and the TC string it gets is decoded with the IAB's own @iabtechlabtcf/core.
 */
const KEY = 'tcf-browser-test-hosting-key-0123456789';
const ALL_PURPOSES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

let env: BrowserApp;
let app: App;
let gvl: GvlServer;
let pageNo = 0;

beforeAll(async () => {
  gvl = await startGvlServer();
  env = await startBrowserApp(KEY, { tcf: tcfTestConfig(gvl.url) });
  app = env.app;
  await hostingCall(app, KEY, 'POST', '/tcf/gvl/refresh');
});

afterAll(async () => {
  await env?.close();
  await gvl?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);

interface Setup {
  clientId: string;
  domainId: string;
  snippet: string;
  domainApiKey: string;
}

async function setup(domain: Record<string, unknown> = {}): Promise<Setup> {
  const client = await hosting('POST', '/client', { username: unique('t'), password: 'long enough pw', emailAddress: 't@example.com' });
  const d = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${env.site.port}`, tcfEnabled: true, ...domain });
  const { apiKey } = await hosting('POST', `/client/${client.id}/domain-api-key`);
  const snippet = `<script src="${env.appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${d.id}" referrerpolicy="origin"></script>`;
  return { clientId: client.id, domainId: d.id, snippet, domainApiKey: apiKey };
}

/** The snippet, then a vendor script that registers with the stub before the CMP has loaded. */
const VENDOR = `<script>
window.tcEvents = [];
window.stubSeen = typeof window.__tcfapi === 'function' && window.__tcfapi('ping', 2, function (p) { window.firstPing = p; }) === undefined;
window.__tcfapi('addEventListener', 2, function (tcData, success) {
  window.tcEvents.push({ status: tcData.eventStatus, tc: tcData.tcString, ac: tcData.addtlConsent, success: success, gdprApplies: tcData.gdprApplies, id: tcData.listenerId });
});
</script>`;

interface Opened {
  page: Page;
  context: BrowserContext;
  requests: string[];
}

async function open(s: Setup, context?: BrowserContext, body = ''): Promise<Opened> {
  const path = `/tcf${++pageNo}`;
  env.site.setPage(path, `<!doctype html><html><head>${s.snippet}${VENDOR}</head><body><h1>News</h1>${body}</body></html>`);
  const ctx = context ?? (await env.browser.newContext());
  const page = await ctx.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${env.site.url}${path}`);
  return { page, context: ctx, requests };
}

interface TcEvent { status: string; tc: string; ac?: string; success: boolean; gdprApplies: boolean; id: number }
const events = (page: Page) => page.evaluate(() => (window as unknown as { tcEvents: TcEvent[] }).tcEvents);
async function waitEvent(page: Page, status: string): Promise<TcEvent> {
  await page.waitForFunction((st) => (window as unknown as { tcEvents: TcEvent[] }).tcEvents.some((e) => e.status === st), status, { timeout: 15_000 });
  return (await events(page)).find((e) => e.status === status)!;
}
const layer = (page: Page) => page.locator('#ccm-widget [role="dialog"]');
const ids = (v: Vector) => {
  const out: number[] = [];
  v.forEach((on, id) => on && out.push(id));
  return out;
};
/** The domain's records through the Domain API, once `expected` have arrived (the beacon is asynchronous). */
const records = (s: Setup, expected: number) => domainRecords(app, s, expected, 10_000);

/** The lines of the domain's consent-log export (block 1). */
async function exported(s: Setup): Promise<Record<string, unknown>[]> {
  const res = await app.inject({
    method: 'GET',
    url: `/hosting/api/client/${s.clientId}/domain/${s.domainId}/consent-log/blocks/1/export`,
    headers: { authorization: `Bearer ${KEY}` },
  });
  return res.body.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

const euconsent = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'euconsent-v2')?.value;

function summary(m: TCModel) {
  return {
    cmpId: m.cmpId,
    cmpVersion: m.cmpVersion,
    isServiceSpecific: m.isServiceSpecific,
    vendorListVersion: m.vendorListVersion,
    purposeConsents: ids(m.purposeConsents),
    purposeLegitimateInterests: ids(m.purposeLegitimateInterests),
    vendorConsents: ids(m.vendorConsents),
    vendorLegitimateInterests: ids(m.vendorLegitimateInterests),
    specialFeatureOptins: ids(m.specialFeatureOptins),
    vendorsDisclosed: ids(m.vendorsDisclosed),
  };
}

// 60 s a test: each opens pages and waits for the IAB code after the banner's paint, which took over 20 s once
// under the full suite's load (CI, 2 cores).
describe('TCF in Chromium', { timeout: 60_000 }, () => {
  it('accept all: cmpuishown, then useractioncomplete with a TC string of every offered choice; tcloaded on the next page', async () => {
    const s = await setup({ tcfSpecialFeatures: [1], tcfVendorBlacklist: [45] });
    const { page, context } = await open(s);
    expect(await page.evaluate(() => (window as unknown as { stubSeen: boolean }).stubSeen)).toBe(true);
    // The TCF chunk is inlined in app.js but runs after the first paint (docs/tcf.md): a script right after the
    // snippet finds the stub, which queues its calls until then.
    expect(await page.evaluate(() => (window as unknown as { firstPing: { cmpStatus: string } }).firstPing.cmpStatus)).toBe('stub');
    await waitEvent(page, 'cmpuishown');
    await expect(layer(page).locator('.tcf-count').textContent()).resolves.toMatch(/: 3$/);
    await expect(layer(page).textContent()).resolves.toContain('Use precise geolocation data');
    await layer(page).locator('.n button.a').click();
    const done = await waitEvent(page, 'useractioncomplete');
    expect(done.success).toBe(true);
    expect(done.gdprApplies).toBe(true);
    expect(summary(TCString.decode(done.tc))).toEqual({
      cmpId: 300, cmpVersion: 2, isServiceSpecific: true, vendorListVersion: 1,
      purposeConsents: ALL_PURPOSES,
      purposeLegitimateInterests: [2, 7, 8, 9, 10, 11],
      vendorConsents: [8, 21, 32],
      vendorLegitimateInterests: [8, 21],
      specialFeatureOptins: [1],
      vendorsDisclosed: [8, 21, 32],
    });
    expect(await euconsent(context)).toBe(done.tc);
    // The log proves the exact TCF signal: the record, the Domain API and the export carry the TC string.
    const [record] = await records(s, 1);
    expect(record).toMatchObject({ button: 'acceptAll', consent: false, tcString: done.tc });
    expect(record!.acString).toBeUndefined();
    const line = (await exported(s)).find((l) => l.record);
    expect((line!.record as Record<string, unknown>).tcString).toBe(done.tc);
    // A returning visitor: no layer, and the stored string as tcloaded.
    const again = await open(s, context);
    const loaded = await waitEvent(again.page, 'tcloaded');
    expect(loaded.tc).toBe(done.tc);
    await expect(layer(again.page).count()).resolves.toBe(0);
    const ping = await again.page.evaluate(() => new Promise((r) => (window as unknown as { __tcfapi: (...a: unknown[]) => void }).__tcfapi('ping', 2, r)));
    expect(ping).toMatchObject({ cmpLoaded: true, cmpStatus: 'loaded', cmpId: 300, cmpVersion: 2, gvlVersion: 1 });
    await context.close();
  });

  it('removeEventListener: a removed listener hears nothing more', async () => {
    const s = await setup();
    const { page, context } = await open(s);
    const removed = await page.evaluate(() => new Promise((resolve) => {
      const api = (window as unknown as { __tcfapi: (...a: unknown[]) => void }).__tcfapi;
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      api('addEventListener', 2, (d: { eventStatus: string; listenerId: number }) => {
        heard.push(d.eventStatus);
        // window.__tcfapi again, as most vendors call it (a kept reference to the stub is answered too: the test
        // "answers a vendor that kept the stub").
        (window as unknown as { __tcfapi: (...a: unknown[]) => void }).__tcfapi('removeEventListener', 2, (ok: boolean) => resolve(ok), d.listenerId);
      });
    }));
    expect(removed).toBe(true);
    await layer(page).locator('.n button.a').click();
    await waitEvent(page, 'useractioncomplete');
    expect(await page.evaluate(() => (window as unknown as { heard: string[] }).heard)).toEqual(['cmpuishown']);
    await context.close();
  });

  it('answers a vendor that kept the stub: its calls after the CMP API took over are not lost in the stub queue', async () => {
    const s = await setup();
    // As Prebid's consent module does: `__tcfapi` looked up once, while it is still the IAB stub.
    const { page, context } = await open(s, undefined, '<script>window.keptStub = window.__tcfapi;</script>');
    await waitEvent(page, 'cmpuishown');
    // The CMP API has replaced the stub by now (cmpuishown comes from it); the kept reference has not changed.
    expect(await page.evaluate(() => (window as unknown as { keptStub: unknown; __tcfapi: unknown }).keptStub !== (window as unknown as { __tcfapi: unknown }).__tcfapi)).toBe(true);
    await layer(page).locator('.n button.a').click();
    const done = await waitEvent(page, 'useractioncomplete');
    const answered = await page.evaluate(() => new Promise((resolve, reject) => {
      const kept = (window as unknown as { keptStub: (...a: unknown[]) => void }).keptStub;
      setTimeout(() => reject(new Error('the kept stub never answered')), 5000);
      kept('getTCData', 2, (d: { tcString: string; eventStatus: string }, ok: boolean) => resolve({ tc: d.tcString, ok }));
    }));
    expect(answered).toEqual({ tc: done.tc, ok: true });
    // A listener registered through the kept stub hears the stored decision as well.
    const heard = await page.evaluate(() => new Promise((resolve) => {
      (window as unknown as { keptStub: (...a: unknown[]) => void }).keptStub('addEventListener', 2, (d: { eventStatus: string; tcString: string }) => resolve([d.eventStatus, d.tcString]));
    }));
    expect(heard).toEqual(['useractioncomplete', done.tc]);
    await context.close();
  });

  it('reject all: no consent, no legitimate interest', async () => {
    const s = await setup();
    const { page, context } = await open(s);
    await waitEvent(page, 'cmpuishown');
    await layer(page).locator('.n button.d').click();
    const done = await waitEvent(page, 'useractioncomplete');
    expect(summary(TCString.decode(done.tc))).toMatchObject({
      purposeConsents: [], purposeLegitimateInterests: [], vendorConsents: [], vendorLegitimateInterests: [], specialFeatureOptins: [],
      vendorsDisclosed: [8, 21, 32, 45],
    });
    await context.close();
  });

  it('a custom selection in the vendor layer, with an objection to one legitimate interest', async () => {
    const s = await setup({ tcfSpecialFeatures: [1, 2] });
    const { page, context } = await open(s);
    await waitEvent(page, 'cmpuishown');
    await layer(page).locator('.n button.s').click();
    const box = (name: string) => layer(page).getByLabel(name, { exact: true });
    await box('Store and/or access information on a device').check();
    await box('Measure advertising performance').check();
    await box('Actively scan device characteristics for identification').check();
    await page.locator('#ccm-widget [data-vendor="21"] summary').click();
    await box('Example Measurement Ltd: Consent').check();
    await page.locator('#ccm-widget [data-vendor="8"] summary').click();
    // Legitimate interest stands until the visitor objects: the box starts checked.
    await expect(box('Fixture Ads GmbH: Legitimate interest').isChecked()).resolves.toBe(true);
    await box('Fixture Ads GmbH: Legitimate interest').uncheck();
    await layer(page).locator('.n button.a').first().click();
    const done = await waitEvent(page, 'useractioncomplete');
    expect(summary(TCString.decode(done.tc))).toMatchObject({
      purposeConsents: [1, 7],
      purposeLegitimateInterests: [2, 7, 8, 9, 10, 11],
      vendorConsents: [21],
      vendorLegitimateInterests: [21, 45],
      specialFeatureOptins: [2],
      vendorsDisclosed: [8, 21, 32, 45],
    });
    await context.close();
  });

  it('an embedding linked to a GVL vendor runs once that vendor and its TCF purposes have consent', async () => {
    const s = await setup();
    await hosting('POST', `/client/${s.clientId}/domain/${s.domainId}/embedding`, {
      name: 'Linked stats', purpose: 'a717ff5', tcfVendor: 21, tcfPurposes: [1, 7], scriptMarkers: ['linked-stats.js'],
    });
    const { page, context } = await open(s, undefined, '<script src="/linked-stats.js"></script>');
    await waitEvent(page, 'cmpuishown');
    expect(await page.evaluate(() => (window as unknown as { ran?: string[] }).ran ?? [])).toEqual([]);
    await layer(page).locator('.n button.s').click();
    const box = (name: string) => layer(page).getByLabel(name, { exact: true });
    await box('Store and/or access information on a device').check();
    await box('Measure advertising performance').check();
    await page.locator('#ccm-widget [data-vendor="21"] summary').click();
    await box('Example Measurement Ltd: Consent').check();
    await layer(page).locator('.n button.a').first().click();
    await waitEvent(page, 'useractioncomplete');
    await page.waitForFunction(() => ((window as unknown as { ran?: string[] }).ran ?? []).includes('/linked-stats.js'));
    await context.close();
  });

  it('Google Additional Consent: addtlConsent in getTCData and the events', async () => {
    const s = await setup({ tcfGoogleAdditionalConsentMode: true, tcfGoogleAdditionalConsentAdProviders: [89, 1301] });
    const { page, context } = await open(s);
    const shown = await waitEvent(page, 'cmpuishown');
    expect(shown.ac).toBeUndefined();
    await layer(page).locator('.n button.a').click();
    const done = await waitEvent(page, 'useractioncomplete');
    expect(done.ac).toBe('2~89.1301~dv.');
    const data = await page.evaluate(() => new Promise((r) => (window as unknown as { __tcfapi: (...a: unknown[]) => void }).__tcfapi('getTCData', 2, (d: unknown) => r(d))));
    expect(data).toMatchObject({ addtlConsent: '2~89.1301~dv.', tcString: done.tc });
    const [record] = await records(s, 1);
    expect(record).toMatchObject({ tcString: done.tc, acString: '2~89.1301~dv.' });
    await context.close();
  });

  it('a domain without TCF loads no TCF code and has no __tcfapi', async () => {
    const s = await setup({ tcfEnabled: false });
    const { page, context, requests } = await open(s);
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => typeof (window as unknown as { __tcfapi?: unknown }).__tcfapi)).toBe('undefined');
    expect(requests.filter((u) => u.includes('/public/tcf'))).toEqual([]);
    await expect(page.locator('#ccm-widget [role="dialog"]').count()).resolves.toBe(1);
    await context.close();
  });

  it('URL macros: ${gdpr} and ${gdpr_consent} in a script URL carry the stored TC string', async () => {
    const s = await setup({ tcfUrlMacroHandling: true });
    const body = '<script src="/vendor-pixel.js?gdpr=${gdpr}&gdpr_consent=${gdpr_consent}"></script>';
    const { page, context } = await open(s, undefined, body);
    await waitEvent(page, 'cmpuishown');
    await layer(page).locator('.n button.a').click();
    const done = await waitEvent(page, 'useractioncomplete');
    const before = env.site.hits.length;
    const again = await open(s, context, body);
    await waitEvent(again.page, 'tcloaded');
    // Chromium's preload scanner may fetch the literal URL of a parsed <script src> before any script can
    // see it (docs/tcf.md); the script that is run is the one with the macros replaced.
    await expect.poll(() => env.site.hits.slice(before).filter((h) => h.startsWith('/vendor-pixel.js') && !h.includes('$'))).toEqual([
      `/vendor-pixel.js?gdpr=1&gdpr_consent=${done.tc}`,
    ]);
    const ran = await again.page.evaluate(() => (window as unknown as { ran?: string[] }).ran ?? []);
    expect(ran).toEqual(['/vendor-pixel.js']);
    await context.close();
  });

  it('the first layer opens before the domain GVL has arrived, with stacks; a click waits for the GVL', async () => {
    const s = await setup({ tcfSpecialFeatures: [1, 2] });
    const context = await env.browser.newContext();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = 0;
    await context.route('**/vendor-list.json*', async (route) => {
      held++;
      await gate;
      await route.continue();
    });
    const { page, requests } = await open(s, context);
    await waitEvent(page, 'cmpuishown');
    expect(held).toBe(1);
    // No request for TCF code: the chunk is in app.js.
    expect(requests.filter((u) => u.includes('/public/tcf.js'))).toEqual([]);
    await expect(layer(page).locator('.tcf-stacks > li > strong').allTextContents()).resolves.toEqual([
      'Precise geolocation data, and identification through device scanning',
      'Personalised advertising', 'Personalised content', 'Advertising and content measurement, and audience research',
    ]);
    await expect(layer(page).locator('.tcf-count').textContent()).resolves.toMatch(/: 4$/);
    await layer(page).locator('.n button.a').click();
    await page.waitForTimeout(300);
    expect((await events(page)).map((e) => e.status)).toEqual(['cmpuishown']);
    release();
    const done = await waitEvent(page, 'useractioncomplete');
    expect(summary(TCString.decode(done.tc))).toMatchObject({ purposeConsents: ALL_PURPOSES, vendorConsents: [8, 21, 32, 45], specialFeatureOptins: [1, 2] });
    await context.close();
  });

  it('publisher restrictions: in the TC string, in the vendor layer, and a change asks again', async () => {
    const s = await setup({
      tcfPublisherRestrictions: [
        { vendorId: 8, purposeId: 2, restrictionType: 'requireConsent' },
        { vendorId: 21, purposeId: 8, restrictionType: 'notAllowed' },
      ],
    });
    const { page, context } = await open(s);
    await waitEvent(page, 'cmpuishown');
    await layer(page).locator('.n button.s').click();
    await page.locator('#ccm-widget [data-vendor="8"] summary').click();
    const facts = (await page.locator('#ccm-widget [data-vendor="8"]').textContent())!;
    // Purpose 2 moved from legitimate interest to consent for vendor 8; purpose 8 is gone for vendor 21.
    expect(facts).toMatch(/Purposes \(Consent\): [^:]*Use limited data to select advertising/);
    expect(facts).not.toMatch(/Purposes \(Legitimate interest\): [^:]*Use limited data to select advertising/);
    await page.locator('#ccm-widget [data-vendor="21"] summary').click();
    expect(await page.locator('#ccm-widget [data-vendor="21"]').textContent()).not.toContain('Measure content performance');
    await layer(page).locator('.n button.a').nth(1).click();
    const done = await waitEvent(page, 'useractioncomplete');
    const m = TCString.decode(done.tc);
    const restrictions = m.publisherRestrictions.getRestrictions().flatMap((r) =>
      m.publisherRestrictions.getVendors(r).map((v) => [v, r.purposeId, r.restrictionType]));
    expect(restrictions.sort()).toEqual([[21, 8, 0], [8, 2, 1]]);
    const again = await open(s, context);
    await waitEvent(again.page, 'tcloaded');
    await hosting('PUT', `/client/${s.clientId}/domain/${s.domainId}`, {
      tcfPublisherRestrictions: [{ vendorId: 8, purposeId: 2, restrictionType: 'requireConsent' }],
    });
    const changed = await open(s, context);
    await waitEvent(changed.page, 'cmpuishown');
    await layer(changed.page).locator('.n button.d').click();
    const after = TCString.decode((await waitEvent(changed.page, 'useractioncomplete')).tc);
    expect(after.publisherRestrictions.getRestrictions().map((r) => [r.purposeId, r.restrictionType])).toEqual([[2, 1]]);
    await context.close();
  });

  it('Google Additional Consent: one switch per provider, the AC string says exactly which', async () => {
    const s = await setup({ tcfGoogleAdditionalConsentMode: true, tcfGoogleAdditionalConsentAdProviders: [1301, 89, 2577] });
    const { page, context } = await open(s);
    await waitEvent(page, 'cmpuishown');
    await layer(page).locator('.n button.s').click();
    const box = (name: string) => layer(page).getByLabel(name, { exact: true });
    for (const id of [89, 1301, 2577]) await expect(box(`Ad provider ${id}`).isChecked()).resolves.toBe(false);
    await box('Ad provider 1301').check();
    await box('Ad provider 2577').check();
    await layer(page).locator('.n button.a').first().click();
    const done = await waitEvent(page, 'useractioncomplete');
    expect(done.ac).toBe('2~1301.2577~dv.89');
    const [record] = await records(s, 1);
    expect(record).toMatchObject({ button: 'save', acString: '2~1301.2577~dv.89' });
    // The vendor layer opens again with those switches, and a second save changes exactly one.
    const again = await open(s, context);
    expect((await waitEvent(again.page, 'tcloaded')).ac).toBe('2~1301.2577~dv.89');
    await again.page.evaluate(() => (window as unknown as { CCM: { openWidget: () => void } }).CCM.openWidget());
    await layer(again.page).locator('.n button.s').click();
    const box2 = (name: string) => layer(again.page).getByLabel(name, { exact: true });
    await expect.poll(() => box2('Ad provider 1301').isChecked(), { timeout: 15_000 }).toBe(true);
    await expect(box2('Ad provider 2577').isChecked()).resolves.toBe(true);
    await expect(box2('Ad provider 89').isChecked()).resolves.toBe(false);
    await box2('Ad provider 2577').uncheck();
    await layer(again.page).locator('.n button.a').first().click();
    expect((await waitEvent(again.page, 'useractioncomplete')).ac).toBe('2~1301~dv.89.2577');
    await context.close();
  });

  it('re-asks after a GVL update brings new vendors, when the domain takes them in', async () => {
    const open1 = await setup({ tcfEnableNewVendorsAfterGvlUpdate: true });
    const fixed = await setup();
    const a = await open(open1);
    const b = await open(fixed);
    for (const o of [a, b]) {
      await waitEvent(o.page, 'cmpuishown');
      await layer(o.page).locator('.n button.a').click();
      await waitEvent(o.page, 'useractioncomplete');
    }
    gvl.vendorList = GVL_V2;
    try {
      expect((await hosting('POST', '/tcf/gvl/refresh')).vendorListVersion).toBe(2);
      const a2 = await open(open1, a.context);
      await waitEvent(a2.page, 'cmpuishown');
      await expect(layer(a2.page).locator('.tcf-count').textContent()).resolves.toMatch(/: 5$/);
      await layer(a2.page).locator('.n button.a').click();
      const done = await waitEvent(a2.page, 'useractioncomplete');
      expect(summary(TCString.decode(done.tc))).toMatchObject({ vendorListVersion: 2, vendorsDisclosed: [8, 21, 32, 45, 77] });
      // The domain that keeps its selection is not asked again.
      const b2 = await open(fixed, b.context);
      const loaded = await waitEvent(b2.page, 'tcloaded');
      expect(TCString.decode(loaded.tc).vendorListVersion).toBe(1);
    } finally {
      gvl.vendorList = GVL_V1;
      await hosting('POST', '/tcf/gvl/refresh').catch(() => undefined);
      await a.context.close();
      await b.context.close();
    }
  });
});
