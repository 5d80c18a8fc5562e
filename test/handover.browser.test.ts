import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { testConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/connect.js';
import type { Clock } from '../src/deps.js';
import { freePort, launchBrowser, serveSite, type Site } from './browser.js';
import { freshDatabase, unique } from './helper.js';

/**
 * Cross-domain consent hand-over in real headless Chromium: two registrable domains of one sharing set
 * (`www.shop.test` and `www.shop-de.test`, both answered by one local site through --host-resolver-rules)
 * and the real service (SQLite), whose clock the expiry test moves forward.
 */
const KEY = 'handover-browser-hosting-key-0123456789';

class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

let browser: Browser;
let site: Site;
let app: App;
let database: DatabaseHandle;
let appUrl = '';
let pageNo = 0;
const clock = new ShiftedClock();

beforeAll(async () => {
  site = await serveSite('127.0.0.1');
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  database = await freshDatabase('sqlite');
  // Every page of every test calls from 127.0.0.1: the per-address hand-over limit is tested on the server.
  const handover = { tokenTtlSeconds: 120, ratePerMinute: 0, bindAddress: true };
  app = await buildApp({ config: testConfig({ hostingApiKey: KEY, publicUrl: appUrl, handover }), database, clock });
  await app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
  await site?.close();
});

const at = (host: string, path: string) => `http://${host}:${site.port}${path}`;
const A = 'www.shop.test';
const B = 'www.shop-de.test';

const hosting = async (method: 'POST' | 'GET', url: string, payload?: unknown) => {
  const res = await app.inject({ method, url: `/hosting/api${url}`, headers: { authorization: `Bearer ${KEY}` }, payload: payload as object });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};

interface Setup {
  domainId: string;
  apiKey: string;
  snippet: string;
}

/** A client whose domain www.shop.test shares its consent with shop.test and shop-de.test, across domains. */
async function setup(domainSettings: object = {}): Promise<Setup> {
  const client = await hosting('POST', '/client', { username: unique('h'), password: 'long enough pw', emailAddress: 'h@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, {
    name: at(A, ''), consentSharingDomains: ['shop.test', 'shop-de.test'], consentSharingCrossDomain: true, ...domainSettings,
  });
  await hosting('POST', `/client/${client.id}/domain/${domain.id}/embedding`, { name: 'Tracker', purpose: 'a717ff5', scriptMarkers: ['tracker.js'] });
  const snippet = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
  return { domainId: domain.id, apiKey: client.apiKey, snippet };
}

const pageHtml = (s: Setup, body = '') =>
  `<!doctype html><html><head>${s.snippet}<script src="/tracker.js"></script></head><body><h1>Shop</h1>${body}</body></html>`;
/** A new page path on the site with this HTML. */
const newPage = (html: string) => {
  const path = `/h${++pageNo}`;
  site.setPage(path, html);
  return path;
};

const widget = (page: Page) => page.locator('#ccm-widget');
const dialog = (page: Page) => widget(page).locator('[role="dialog"]');
const ccmOf = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { CCM: Record<string, unknown> }).CCM[n], name);
const ran = (page: Page) => page.evaluate(() => (window as unknown as { ran?: string[] }).ran ?? []);
const settled = async (page: Page) => {
  await page.waitForFunction(() => document.readyState === 'complete' && !!(window as unknown as { CCM?: unknown }).CCM);
  await page.waitForTimeout(150);
};
async function visit(context: BrowserContext, url: string, referer?: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url, referer ? { referer } : {});
  await settled(page);
  return page;
}
/** The banner, once the page has given up on (or never had) a hand-over. */
const bannerShown = (page: Page) => dialog(page).waitFor({ state: 'attached', timeout: 10_000 }).then(() => true);
/** Waits until the page holds a decision (a hand-over is adopted asynchronously). */
const decided = (page: Page) => page.waitForFunction(() => (window as unknown as { CCM?: { consent: boolean } }).CCM?.consent === true, null, { timeout: 10_000 });

async function records(s: Setup, expected: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const rows = await database.db.selectFrom('consent_records').select('record').where('domain_id', '=', s.domainId).orderBy('seq').execute();
    if (rows.length >= expected || Date.now() > deadline) return rows.map((r) => JSON.parse(r.record) as Record<string, unknown>);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Captures the hand-over tokens the pages of a context redeem. */
function redeemedTokens(context: BrowserContext): string[] {
  const tokens: string[] = [];
  context.on('request', (req) => {
    if (req.url().endsWith('/public/handover/redeem')) tokens.push((JSON.parse(req.postData() ?? '{}') as { handover: string }).handover);
  });
  return tokens;
}

describe('consent hand-over between registrable domains in Chromium', () => {
  it('hands the decision over through a link, CCM.navigate and a form; each hand-over is logged', { timeout: 60_000 }, async () => {
    const s = await setup();
    const onB = newPage(pageHtml(s, `<form id="f" action="${at(A, '/h-form')}" method="get"><button name="go" value="1">Go</button></form>`));
    site.setPage('/h-form', pageHtml(s));
    const context = await browser.newContext();
    const page = await visit(context, at(A, newPage(pageHtml(s, `<a id="go" href="${at(B, onB)}#top">Shop DE</a>`))));
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => ((window as unknown as { ran?: string[] }).ran ?? []).includes('/tracker.js'));
    const ucid = await ccmOf(page, 'ucid');

    await page.click('#go');
    await page.waitForURL(/shop-de\.test/);
    await settled(page);
    await decided(page);
    expect(await dialog(page).count()).toBe(0);
    expect(await ccmOf(page, 'ucid')).toBe(ucid);
    // The token left the address; the page's own fragment stayed.
    expect(await page.evaluate(() => location.hash)).toBe('#top');
    await page.waitForFunction(() => ((window as unknown as { ran?: string[] }).ran ?? []).includes('/tracker.js'));
    const [first, handover] = await records(s, 2);
    expect([first?.button, handover?.button]).toEqual(['acceptAll', 'handover']);
    // The record names the configuration the receiving page was served, like every record.
    expect(handover).toMatchObject({ ucid, consent: true, snapshot: first!.snapshot });
    // The decision keeps the time Placet logged it at: no page can set it, so no future or far-past time.
    const kept = await page.evaluate(() => Object.values(JSON.parse(localStorage.getItem('ccm_consent')!) as Record<string, { updated: string; clickedButton: string }>)[0]);
    expect(kept).toMatchObject({ updated: new Date(Number(first!.timestamp) * 1000).toISOString(), clickedButton: 'handover' });

    // A later decline on the second domain travels back through CCM.navigate and replaces the acceptance.
    await page.evaluate(() => (window as unknown as { CCM: { openWidget(): void } }).CCM.openWidget());
    await widget(page).locator('button.d').click();
    await page.evaluate((url) => (window as unknown as { CCM: { navigate(u: string): void } }).CCM.navigate(url), at(A, newPage(pageHtml(s))));
    await page.waitForURL(/www\.shop\.test/);
    await settled(page);
    await page.waitForFunction(() => (window as unknown as { CCM: { fullConsentGiven: boolean; consent: boolean } }).CCM.consent);
    expect(await dialog(page).count()).toBe(0);
    expect(await ccmOf(page, 'ucid')).toBe(ucid);
    expect(await ran(page)).not.toContain('/tracker.js');
    expect((await records(s, 4)).map((r) => [r.button, r.consent])).toEqual([
      ['acceptAll', true], ['handover', true], ['declineAll', false], ['handover', false],
    ]);

    // A form submitted to another domain of the set carries the spare token, and its submit button's value.
    await page.goto(at(B, onB));
    await settled(page);
    await page.waitForFunction(() => !!sessionStorage.getItem('ccm_ho')?.includes('"t"'));
    await page.click('#f button');
    await page.waitForURL(/h-form\?go=1/);
    await settled(page);
    await page.waitForFunction(() => (window as unknown as { CCM: { consent: boolean } }).CCM.consent && !location.hash);
    expect(await ran(page)).not.toContain('/tracker.js');
    expect(await ccmOf(page, 'ucid')).toBe(ucid);
    expect((await records(s, 5)).map((r) => r.button)).toEqual(['acceptAll', 'handover', 'declineAll', 'handover', 'handover']);
    await context.close();
  });

  it('gives CCM.crossDomainConsentString as a single-use token that another host of the set redeems once', async () => {
    const s = await setup();
    const target = newPage(pageHtml(s));
    const context = await browser.newContext();
    const page = await visit(context, at(A, newPage(pageHtml(s))));
    await widget(page).locator('button.a').click();
    const ucid = await ccmOf(page, 'ucid');
    const read = () => ccmOf(page, 'crossDomainConsentString') as Promise<string>;
    await page.waitForFunction(() => !!sessionStorage.getItem('ccm_ho')?.includes('"t"'));
    const fragment = await read();
    expect(fragment).toMatch(/^ccm_handover=[0-9a-f]{64}$/);
    // Each read takes the token; the next one follows a moment later.
    expect(await read()).not.toBe(fragment);
    const other = await visit(context, `${at(B, target)}#${fragment}`);
    await decided(other);
    expect(await ccmOf(other, 'ucid')).toBe(ucid);
    expect(await other.evaluate(() => location.hash)).toBe('');
    expect((await records(s, 2)).map((r) => r.button)).toEqual(['acceptAll', 'handover']);
    await context.close();
  });

  it('hands nothing over where the consent cookie is shared already (a subdomain of the same entry)', async () => {
    const s = await setup({ consentStorage: 'cookie' });
    const context = await browser.newContext();
    const tokens = redeemedTokens(context);
    const blog = newPage(pageHtml(s));
    const page = await visit(context, at(A, newPage(pageHtml(s, `<a id="go" href="${at('blog.shop.test', blog)}">Blog</a>`))));
    await widget(page).locator('button.a').click();
    const ucid = await ccmOf(page, 'ucid');
    await page.click('#go');
    await page.waitForURL(/blog\.shop\.test/);
    await settled(page);
    expect(await page.evaluate(() => location.hash)).toBe('');
    expect(await ccmOf(page, 'ucid')).toBe(ucid);
    expect(await dialog(page).count()).toBe(0);
    expect(tokens).toHaveLength(0);
    expect((await records(s, 1)).map((r) => r.button)).toEqual(['acceptAll']);
    await context.close();
  });

  it('lets a framed page of another domain of the set inherit the decision', async () => {
    const s = await setup();
    // The framed page reports its state to the parent (Playwright can lose track of an out-of-process frame
    // that is navigated again; the browser does not).
    const report = `<script>setInterval(() => { const ccm = window.CCM; parent.postMessage(ccm ? { consent: ccm.consent, ucid: ccm.ucid, dialogs: document.getElementById('ccm-widget')?.shadowRoot?.querySelectorAll('[role="dialog"]').length } : null, '*'); }, 50)</script>`;
    const framed = newPage(`<!doctype html><html><head>${s.snippet}</head><body>framed${report}</body></html>`);
    const context = await browser.newContext();
    const first = await visit(context, at(A, newPage(pageHtml(s))));
    await widget(first).locator('button.a').click();
    const listen = `<script>addEventListener('message', (e) => { if (e.origin.includes('blog.shop-de.test')) window.frameState = e.data; })</script>`;
    const page = await visit(context, at(A, newPage(`<!doctype html><html><head>${listen}${s.snippet}</head><body><iframe src="${at('blog.shop-de.test', framed)}"></iframe></body></html>`)));
    const inFrame = () => page.evaluate(() => (window as unknown as { frameState?: { consent: boolean } | null }).frameState);
    const deadline = Date.now() + 10_000;
    let state = await inFrame();
    while (!state?.consent && Date.now() < deadline) {
      await page.waitForTimeout(100);
      state = await inFrame();
    }
    expect(state).toEqual({ consent: true, ucid: await ccmOf(first, 'ucid'), dialogs: 0 });
    expect((await records(s, 2)).map((r) => r.button)).toEqual(['acceptAll', 'handover']);
    await context.close();
  });

  it('does nothing for a planted static link: a consent string in the address, or a token in a link on a page of the set', async () => {
    const s = await setup();
    const target = newPage(pageHtml(s));
    const attacker = 'a'.repeat(64);
    const forged = `ccm_consent=${encodeURIComponent(JSON.stringify({ d: s.domainId, u: attacker, e: [], c: new Date().toISOString(), t: '9999-12-31T00:00:00.000Z', b: 'acceptAll', l: 'en', r: 1, lr: 1 }))}`;
    const context = await browser.newContext();
    // Followed from a page of the set (a forum post on it), as in the attack.
    for (const fragment of [forged, `ccm_handover=${'b'.repeat(64)}`]) {
      const page = await visit(context, `${at(B, target)}#${fragment}`, at(A, '/forum'));
      expect(await bannerShown(page)).toBe(true);
      expect(await ran(page)).not.toContain('/tracker.js');
      expect(await ccmOf(page, 'ucid')).toBeNull();
      // A hand-over token leaves the address at once; the legacy consent string is only never read.
      expect(await page.evaluate(() => location.hash)).toBe(fragment.startsWith('ccm_handover=') ? '' : `#${fragment}`);
      await page.close();
    }
    // A visitor with a decision of their own who follows a planted link takes their own decision along.
    const forum = newPage(pageHtml(s, `<a id="go" href="${at(B, target)}#${forged}">x</a>`));
    const page = await visit(context, at(A, forum));
    await widget(page).locator('button.d').click();
    const ucid = await ccmOf(page, 'ucid');
    expect(ucid).not.toBe(attacker);
    await page.click('#go');
    await page.waitForURL(/shop-de\.test/);
    await settled(page);
    await decided(page);
    expect(await ccmOf(page, 'ucid')).toBe(ucid);
    expect(await ran(page)).not.toContain('/tracker.js');
    expect((await records(s, 2)).map((r) => [r.ucid, r.button])).toEqual([[ucid, 'declineAll'], [ucid, 'handover']]);
    await context.close();
  });

  it('does nothing for a replayed token', async () => {
    const s = await setup();
    const target = newPage(pageHtml(s));
    const visitor = await browser.newContext();
    const tokens = redeemedTokens(visitor);
    const page = await visit(visitor, at(A, newPage(pageHtml(s, `<a id="go" href="${at(B, target)}">DE</a>`))));
    await widget(page).locator('button.a').click();
    await page.click('#go');
    await page.waitForURL(/shop-de\.test/);
    await settled(page);
    await decided(page);
    expect(tokens).toHaveLength(1);
    // The visitor's own page with the used token in its address: the failed hand-over leaves their decision.
    const again = await visit(visitor, `${at(B, target)}#ccm_handover=${tokens[0]}`, at(A, '/'));
    await again.waitForFunction(() => ((window as unknown as { ran?: string[] }).ran ?? []).includes('/tracker.js'));
    expect(await dialog(again).count()).toBe(0);
    await visitor.close();

    // The same address again, with the token the visitor already used: the banner, nothing runs, nothing logged.
    const other = await browser.newContext();
    const replay = await visit(other, `${at(B, target)}#ccm_handover=${tokens[0]}`, at(A, '/'));
    expect(await bannerShown(replay)).toBe(true);
    expect(await ran(replay)).not.toContain('/tracker.js');
    expect(await ccmOf(replay, 'ucid')).toBeNull();
    expect((await records(s, 3)).map((r) => r.button)).toEqual(['acceptAll', 'handover']);
    await other.close();
  });

  it('does nothing for an expired token', async () => {
    const s = await setup();
    const target = newPage(pageHtml(s));
    const context = await browser.newContext();
    const page = await visit(context, at(A, newPage(pageHtml(s))));
    await widget(page).locator('button.a').click();
    const ucid = String(await ccmOf(page, 'ucid'));
    const [decision] = await records(s, 1);
    // A token issued for this decision and this page, as the widget on www.shop.test would ask for it.
    const issued = await app.inject({
      method: 'POST',
      url: '/public/handover',
      headers: { 'content-type': 'text/plain', origin: at(A, '') },
      payload: JSON.stringify({ apiKey: s.apiKey, domain: s.domainId, ucid, consent: true, embeddings: Object.keys(decision!.embeddings as object), target: at(B, target) }),
    });
    expect(issued.statusCode).toBe(200);
    clock.offsetMs = 121_000;
    try {
      const late = await visit(context, `${at(B, target)}#ccm_handover=${issued.json().token}`, at(A, '/'));
      expect(await bannerShown(late)).toBe(true);
      expect(await ran(late)).not.toContain('/tracker.js');
      expect(await ccmOf(late, 'ucid')).toBeNull();
      expect(await records(s, 2)).toHaveLength(1);
    } finally {
      clock.offsetMs = 0;
    }
    await context.close();
  });
});
