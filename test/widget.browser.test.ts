import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type BrowserApp, domainRecords, hostingCall, serveSite, type Site, startBrowserApp } from './browser.js';
import { unique } from './helper.js';

/**
 * The widget in real headless Chromium against pages served on 127.0.0.1, with the real service
 * (SQLite) recording decisions. A second site on `localhost` plays the third party.
 */
const KEY = 'browser-test-hosting-key-0123456789';
const ANALYTICS = 'a717ff5';
const MARKETING = 'cdcbd7c';
const SOCIAL = '6cd2721';

let browser: Browser;
let site: Site;
let other: Site;
let app: App;
let env: BrowserApp;
let appUrl = '';
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY, { counterFlushIntervalMs: 200, countryHeader: 'cf-ipcountry' });
  ({ site, app, appUrl, browser } = env);
  other = await serveSite('localhost');
  // The frame reports when its content runs; that is what blocking must prevent.
  other.setPage('/frame.html', '<!doctype html><p>third-party frame</p><script>fetch("/frame-ran.js")</script>');
});

afterAll(async () => {
  await env?.close();
  await other?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);

interface Setup {
  clientId: string;
  domainId: string;
  base: string;
  snippet: string;
  ids: Record<string, string>;
  domainApiKey: string;
}

/** A client with one domain for the test site and the standard embeddings. */
async function setup(options: { client?: object; domain?: object; theme?: object; host?: string; query?: string } = {}): Promise<Setup> {
  const client = await hosting('POST', '/client', {
    username: unique('b'), password: 'long enough pw', emailAddress: 'b@example.com', ...options.client,
  });
  const domain = await hosting('POST', `/client/${client.id}/domain`, { name: options.host ?? `http://127.0.0.1:${site.port}`, ...options.domain });
  const base = `/client/${client.id}/domain/${domain.id}`;
  const embeddings = {
    analytics: {
      name: 'Tracker Analytics', purpose: ANALYTICS, vendor: 'Tracker Inc.', description: 'Counts visits.',
      scriptMarkers: ['tracker.js', 'analytics-inline'], googleConsentMode: ['analytics_storage'],
      assets: [{ name: '_tr', lifetime: '1 year', description: 'Visitor id' }, { name: '_tr_*', storageType: 'cookie' }, { name: 'tr_store', storageType: 'localStorage' }],
    },
    loader: { name: 'Loader Ads', purpose: MARKETING, scriptLoaderGroup: 'ads', googleConsentMode: ['ad_storage', 'ad_user_data'] },
    video: { name: 'Video Embed', purpose: SOCIAL, iframeMarkers: [`localhost:${other.port}/frame`] },
    html: { name: 'Tag Code', purpose: MARKETING, scriptHtmlCode: '<script>window.htmlRan = (window.htmlRan || 0) + 1</script>' },
    session: { name: 'Session', purpose: '41ba25c', assets: [{ name: 'PHPSESSID' }] },
  };
  const ids: Record<string, string> = {};
  for (const [key, body] of Object.entries(embeddings)) ids[key] = (await hosting('POST', `${base}/embedding`, body)).id;
  if (options.theme) {
    const [theme] = await hosting('GET', `${base}/theme`);
    await hosting('PUT', `${base}/theme/${theme.id}`, options.theme);
  }
  const { apiKey } = await hosting('POST', `/client/${client.id}/domain-api-key`);
  const snippet = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}${options.query ?? ''}" referrerpolicy="origin"></script>`;
  return { clientId: client.id, domainId: domain.id, base, snippet, ids, domainApiKey: apiKey };
}

const PAGE_BODY = `
<script src="/tracker.js"></script>
<script>window.inlineRan = 'analytics-inline';</script>
<script>var s = document.createElement('script'); s.src = '/dyn-' + 'tracker.js'; document.head.appendChild(s);</script>
<script type="text/x-ccm-loader" data-ccm-loader-src="/loader.js" data-ccm-loader-group="ads"></script>
<script src="/free.js"></script>`;

function pageHtml(s: Setup, extraBody = '', head = ''): string {
  return `<!doctype html><html><head>${s.snippet}${head}${PAGE_BODY}</head><body><h1>Shop</h1>
<iframe src="http://localhost:${other.port}/frame.html" width="300" height="150"></iframe>${extraBody}</body></html>`;
}
const frameRuns = (from: number) => other.hits.slice(from).filter((h) => h === '/frame-ran.js').length;

interface Opened {
  context: BrowserContext;
  page: Page;
  path: string;
  logs: string[];
}

async function open(html: string, init?: () => void, context?: BrowserContext): Promise<Opened> {
  const path = `/p${++pageNo}`;
  site.setPage(path, html);
  const ctx = context ?? (await browser.newContext());
  if (init) await ctx.addInitScript(init);
  const page = await ctx.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(150);
  return { context: ctx, page, path, logs };
}

const widget = (page: Page) => page.locator('#ccm-widget');
const dialog = (page: Page) => widget(page).locator('[role="dialog"]');
const ran = (page: Page) => page.evaluate(() => ((window as unknown as { ran?: string[] }).ran ?? []).slice().sort());
const globalOf = (page: Page, name: string) => page.evaluate((n) => (window as unknown as Record<string, unknown>)[n], name);
/** A member of the widget's `CCM` API (getters are read in the page). */
const ccmOf = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { CCM: Record<string, unknown> }).CCM[n], name);
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('ccm_consent'));
/** Waits until every one of these scripts has run (unblocked scripts load asynchronously, in any order). */
const waitRan = (page: Page, ...paths: string[]) =>
  page.waitForFunction((ps) => ps.every((p) => ((window as unknown as { ran?: string[] }).ran ?? []).includes(p)), paths);

const records = (s: Setup, expected: number) => domainRecords(app, s, expected);

describe('widget in Chromium', () => {
  it('shows the banner in an open shadow root, as a labelled dialog with lang set, in the page font', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s, '', '<style>body{font-family:monospace}</style>'));
    await expect(dialog(page).count()).resolves.toBe(1);
    const info = await page.evaluate(() => {
      const host = document.getElementById('ccm-widget')!;
      const root = host.shadowRoot!;
      const d = root.querySelector('[role="dialog"]')!;
      return {
        parent: host.parentElement?.tagName,
        font: getComputedStyle(d).fontFamily,
        label: root.getElementById(d.getAttribute('aria-labelledby')!)?.textContent,
        lang: d.closest('[lang]')?.getAttribute('lang'),
        buttons: [...d.querySelectorAll('button')].map((b) => b.textContent),
      };
    });
    expect(info.label).toBe('Privacy settings');
    expect(info.lang).toBe('en');
    // Built while the snippet ran in <head>, inserted into <body> once the parser created it: the banner
    // inherits the site's font family.
    expect(info.parent).toBe('BODY');
    expect(info.font).toBe('monospace');
    expect(info.buttons).toEqual(['Accept all', 'Reject all', 'Settings']);
    // Accept and decline carry equal visual weight in the default theme.
    const [accept, decline] = await Promise.all(
      ['button.a', 'button.d'].map((sel) =>
        widget(page).locator(sel).evaluate((b) => {
          const st = getComputedStyle(b);
          return [st.backgroundColor, st.color, st.fontSize, st.fontWeight, st.padding, b.getBoundingClientRect().height];
        }),
      ),
    );
    expect(decline).toEqual(accept);
    await context.close();
  });

  it('has the banner in the page\'s first frame', async () => {
    const s = await setup();
    // The page's first animation frame callback runs just before its first frame is rendered.
    const { page, context } = await open(pageHtml(s, '<p>Body text</p>'), () => {
      requestAnimationFrame(() => {
        (window as unknown as { inFirstFrame: boolean }).inFirstFrame = !!document.getElementById('ccm-widget')?.shadowRoot?.querySelector('[role="dialog"]');
      });
    });
    expect(await globalOf(page, 'inFirstFrame')).toBe(true);
    await context.close();
  });

  it('escapes every text: markup in names, texts, placeholders and custom CSS shows as text and runs nothing; custom CSS for .ccm-root applies', async () => {
    const bad = (n: number) => `<img src=x onerror="window.xss=${n}">"'&`;
    // `.ccm-root` is the reference model's root class: custom CSS written for it applies.
    const s = await setup({ theme: { customCss: `.ccm-root .b{outline:1px solid red}/* </style>${bad(1)} */`, customCssForIframeBlocker: `</style>${bad(2)}` } });
    await hosting('POST', `${s.base}/embedding`, {
      name: `Evil ${bad(3)}`, purpose: ANALYTICS, vendor: bad(4), description: bad(5), privacyPolicyUrl: 'https://example.com/?a="b"&c=<d>',
      iframeMarkers: ['localhost:1/evil'], assets: [{ name: `ev_${bad(6)}`, lifetime: bad(7), description: bad(8) }],
    });
    await hosting('POST', `${s.base}/placeholder`, { name: 'EVIL', value: bad(9) });
    await hosting('POST', `${s.base}/locale`, { name: 'en', widgetTitle: `Title ${bad(10)}`, widgetIntroText: 'Intro {EVIL}' });
    const { page, context } = await open(pageHtml(s, '<div class="ccm-cookie-declaration"></div><iframe src="http://localhost:1/evil"></iframe>'));
    const texts = () =>
      page.evaluate(() => {
        const root = document.getElementById('ccm-widget')!.shadowRoot!;
        return { title: root.querySelector('h2')!.textContent, intro: root.querySelector('h2 + p')?.textContent, imgs: root.querySelectorAll('img').length, text: root.textContent };
      });
    const first = await texts();
    expect(first.title).toBe(`Title ${bad(10)}`);
    expect(first.intro).toBe(`Intro ${bad(9)}`);
    expect(first.imgs).toBe(0);
    // The custom CSS stays CSS: it applies, and nothing after its "</style>" became markup.
    expect(await dialog(page).evaluate((d) => getComputedStyle(d).outlineStyle)).toBe('solid');
    await widget(page).locator('button.s', { hasText: 'Settings' }).click();
    await widget(page).locator('button', { hasText: /details|Details|services/ }).last().click();
    await widget(page).locator('details', { hasText: 'Evil' }).locator('summary').click();
    const details = await texts();
    for (const n of [3, 4, 5, 6, 7, 8]) expect(details.text).toContain(bad(n));
    expect(details.imgs).toBe(0);
    expect(await widget(page).locator('a[href^="https://example.com/"]').getAttribute('href')).toBe('https://example.com/?a="b"&c=<d>');
    const outside = await page.evaluate(() => ({
      declaration: document.querySelector('.ccm-cookie-declaration')!.textContent,
      declarationImgs: document.querySelectorAll('.ccm-cookie-declaration img').length,
      overlay: [...document.querySelectorAll('.ccm-blocked')].map((b) => ({ text: b.shadowRoot!.textContent, imgs: b.shadowRoot!.querySelectorAll('img').length })),
    }));
    expect(outside.declaration).toContain(`Evil ${bad(3)}`);
    expect(outside.declarationImgs).toBe(0);
    const evil = outside.overlay.find((o) => o.text.includes('Evil'))!;
    expect(evil.text).toContain(`Evil ${bad(3)}`);
    expect(evil.imgs).toBe(0);
    await page.waitForTimeout(200);
    expect(await globalOf(page, 'xss')).toBeUndefined();
    await context.close();
  });

  it('runs and loads nothing blocked before consent: markers, dynamic scripts, loader, iframes, scriptHtmlCode', async () => {
    const s = await setup();
    const hitsBefore = other.hits.length;
    const optIn = `<iframe data-ccm-src="http://localhost:${other.port}/frame.html?strict" width="300" height="150"></iframe>
<script>var f = document.createElement('iframe'); f.src = 'http://localhost:${other.port}/frame.html?dyn'; document.body.appendChild(f);</script>`;
    const { page, context } = await open(pageHtml(s, optIn));
    await page.waitForTimeout(300);
    expect(await ran(page)).toEqual(['/free.js']);
    expect(await globalOf(page, 'inlineRan')).toBeUndefined();
    expect(await globalOf(page, 'htmlRan')).toBeUndefined();
    expect(site.hits).not.toContain('/loader.js');
    // A cross-site iframe written with `src` is cancelled when the parser hands it over (best effort, see
    // docs/widget.md); with data-ccm-src not even a request leaves.
    expect(other.hits.slice(hitsBefore)).not.toContain('/frame.html?strict');
    // An iframe added later by a script is caught before insertion: no request at all.
    expect(other.hits.slice(hitsBefore)).not.toContain('/frame.html?dyn');
    expect(await page.locator('.ccm-blocked').count()).toBe(3);
    expect(await page.locator('iframe').first().getAttribute('src')).toBeNull();
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => document.querySelectorAll('iframe[src*="frame.html"]').length === 3);
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.contentWindow && f.src.includes('frame.html')));
    await page.waitForTimeout(300);
    expect(frameRuns(hitsBefore)).toBeGreaterThanOrEqual(3);
    expect(other.hits.slice(hitsBefore)).toContain('/frame.html?dyn');
    await context.close();
  });

  it('blocks an inline tracker whose text arrives in parts (the parser hands the script over before its text)', async () => {
    const s = await setup();
    // The page arrives in three parts, cut right after a <script> start tag and in the middle of the marker of the
    // next one: Chromium hands each script to the widget at the pause, with no text or half of it. Both ran
    // before consent until 2026-11-26.
    const page1 = `<!doctype html><html><head>${s.snippet}</head><body><h1>Shop</h1><script src="/o1/tracker.js"></script><script>`;
    const page2 = `/* analytics-inline */ (window.ran = window.ran || []).push('split-start')</script><p>text</p><script>window.x = 1; /* analytics-`;
    const page3 = `inline */ (window.ran = window.ran || []).push('split-marker')</script><script>(window.ran = window.ran || []).push('free-inline')</script></body></html>`;
    const path = `/split${++pageNo}`;
    site.setPage(path, [page1, page2, page3]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}${path}`);
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.waitForTimeout(300);
    // An unmarked inline script still runs where it stands.
    expect(await globalOf(page, 'ran')).toEqual(['free-inline']);
    expect(await page.locator('script[data-ccm-blocked]').count()).toBe(3);
    await widget(page).locator('button.a').click();
    await expect.poll(async () => ((await globalOf(page, 'ran')) as string[]).slice().sort()).toEqual(['/o1/tracker.js', 'free-inline', 'split-marker', 'split-start']);
    await context.close();
  });

  it('loads a data-ccm-src iframe on the next page once its embedding is accepted (stored consent)', async () => {
    const s = await setup();
    const strict = `<iframe id="strict" data-ccm-src="http://localhost:${other.port}/frame.html?stored" width="300" height="150"></iframe>`;
    const { page, context } = await open(pageHtml(s, strict));
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => document.getElementById('strict')?.getAttribute('src')?.includes('frame.html?stored'));
    await page.reload();
    // With the decision stored the frame is not blocked at all; it must still get the address it deferred and
    // load it (Chromium ignored a src set in the observer's callback: the frame stayed about:blank). The
    // browser may answer from its cache, so the frame's document is what is checked, not the server's log.
    await expect.poll(() => page.frames().some((f) => f.url().endsWith('/frame.html?stored'))).toBe(true);
    expect(await page.locator('.ccm-blocked').count()).toBe(0);
    await context.close();
  });

  it('blocks scripts and iframes built in a detached tree or a fragment when the tree is inserted', async () => {
    const s = await setup();
    const hitsBefore = other.hits.length;
    const later = `<script>
  var div = document.createElement('div');
  var inner = document.createElement('script'); inner.src = '/nested-tracker.js';
  var frame = document.createElement('iframe'); frame.src = 'http://localhost:${other.port}/frame.html?nested';
  div.appendChild(inner); div.appendChild(frame);
  document.body.appendChild(div);
  var fragment = document.createDocumentFragment();
  var fromFragment = document.createElement('script'); fromFragment.src = '/fragment-tracker.js';
  fragment.append(fromFragment);
  document.body.append(fragment);
</script>`;
    const { page, context } = await open(pageHtml(s, later));
    await page.waitForTimeout(300);
    expect(await ran(page)).toEqual(['/free.js']);
    expect(other.hits.slice(hitsBefore)).not.toContain('/frame.html?nested');
    await widget(page).locator('button.a').click();
    await waitRan(page, '/nested-tracker.js', '/fragment-tracker.js');
    await page.waitForFunction(() => document.querySelectorAll('iframe[src*="nested"]').length === 1);
    await context.close();
  });

  it('accept all runs everything, stores the decision and records it', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.a').click();
    await waitRan(page, '/dyn-tracker.js', '/loader.js', '/tracker.js');
    expect(await ran(page)).toEqual(['/dyn-tracker.js', '/free.js', '/loader.js', '/tracker.js']);
    expect(await globalOf(page, 'inlineRan')).toBe('analytics-inline');
    expect(await globalOf(page, 'htmlRan')).toBe(1);
    await page.waitForFunction(() => document.querySelector('iframe')?.getAttribute('src')?.includes('/frame.html'));
    expect(await page.locator('.ccm-blocked').count()).toBe(0);
    expect(await dialog(page).count()).toBe(0);
    const entry = JSON.parse((await stored(page))!)['/'];
    expect(entry).toMatchObject({ gen: 2, consent: true, clickedButton: 'acceptAll' });
    expect(entry.ucid).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.embeddings.sort()).toEqual(Object.values(s.ids).sort());
    const [record] = await records(s, 1);
    expect(record).toMatchObject({
      consent: true,
      ucid: entry.ucid,
      manipulationPrevention: true,
      purposes: { '41ba25c': 'Technically necessary', [ANALYTICS]: 'Analytics', [MARKETING]: 'Marketing', [SOCIAL]: 'Social media' },
      embeddings: {
        [s.ids.analytics!]: 'Tracker Analytics', [s.ids.loader!]: 'Loader Ads', [s.ids.video!]: 'Video Embed',
        [s.ids.html!]: 'Tag Code', [s.ids.session!]: 'Session',
      },
    });
    expect(Math.abs((record!.timestamp as number) - Date.now() / 1000)).toBeLessThan(60);
    await context.close();
  });

  it('records through fetch when the browser refuses the beacon, as text/plain without a CORS preflight', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s), () => {
      navigator.sendBeacon = () => false;
    });
    const sent: { method: string; type: string | undefined }[] = [];
    page.on('request', (r) => r.url().endsWith('/public/consent') && sent.push({ method: r.method(), type: r.headers()['content-type'] }));
    await widget(page).locator('button.a').click();
    const [record] = await records(s, 1);
    expect(record).toMatchObject({ consent: true, ucid: JSON.parse((await stored(page))!)['/'].ucid });
    expect(sent).toEqual([{ method: 'POST', type: 'text/plain;charset=UTF-8' }]);
    await context.close();
  });

  it('makes a new visitor\'s id after the banner is shown, not in the click, and stores and records that id', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s), () => {
      const calls: number[] = ((window as unknown as { rngCalls: number[] }).rngCalls = []);
      const orig = crypto.getRandomValues.bind(crypto);
      crypto.getRandomValues = <T extends ArrayBufferView | null>(a: T) => (calls.push(performance.now()), orig(a as never) as T);
    });
    await page.waitForFunction(() => (window as unknown as { rngCalls: number[] }).rngCalls.length > 0);
    expect(await ccmOf(page, 'ucid')).toBeNull();
    await widget(page).locator('button.a').click();
    const ucid = JSON.parse((await stored(page))!)['/'].ucid;
    expect(ucid).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.evaluate(() => (window as unknown as { rngCalls: number[] }).rngCalls.length)).toBe(1);
    const [record] = await records(s, 1);
    expect(record).toMatchObject({ ucid });
    await context.close();
  });

  it('accept stores and closes in the click\'s task, then after the next frame records and unblocks, scripts in page order', async () => {
    const s = await setup();
    const order = ['/o1/tracker.js', 'i1', '/o2/tracker.js', 'i2', '/o3/tracker.js'];
    // Inline scripts between them (blocked by the same embedding's inline marker) log themselves as they run.
    const markup = order.map((p) => (p.startsWith('/') ? `<script src="${p}"></script>` : `<script>/* analytics-inline */ (window.ran = window.ran || []).push('${p}')</script>`));
    const { page, context } = await open(pageHtml(s, markup.join('')));
    // The first script answers last: the copies must still run in the page's order, the external ones among
    // themselves (classic scripts depend on it) and each inline one after the external ones above it (inline code
    // often uses the library loaded above it: an `init` call after its library).
    await page.route('**/o1/tracker.js', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.evaluate(() => {
      const w = window as unknown as { log: unknown[] };
      const root = document.getElementById('ccm-widget')!.shadowRoot!;
      const blocked = () => document.querySelectorAll('script[data-ccm-blocked]').length;
      const consentRequests = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/public/consent')).length;
      w.log = [];
      // Added after the widget's own listener, so it runs at the end of the click's task.
      root.querySelector('button.a')!.addEventListener('click', () => {
        w.log.push({ task: 'click', stored: !!localStorage.getItem('ccm_consent'), dialog: !!root.querySelector('[role="dialog"]'), blocked: blocked() });
        requestAnimationFrame(() => w.log.push({ task: 'frame', blocked: blocked(), recorded: consentRequests(), at: performance.now() }));
      });
    });
    // Nothing ran before the click (the first inline script ran at parse time until 2026-11-26: checkScript).
    expect((await globalOf(page, 'ran')) as string[]).toEqual(['/free.js']);
    const before = await page.evaluate(() => document.querySelectorAll('script[data-ccm-blocked]').length);
    expect(before).toBeGreaterThanOrEqual(5);
    await widget(page).locator('button.a').click();
    await waitRan(page, ...order.filter((p) => p.startsWith('/')), '/dyn-tracker.js', '/tracker.js');
    await expect.poll(() => page.evaluate(() => (window as unknown as { ran: string[] }).ran.filter((p) => p.startsWith('i')).length)).toBe(2);
    const log = (await globalOf(page, 'log')) as { task: string; stored?: boolean; dialog?: boolean; blocked: number; recorded?: number; at?: number }[];
    expect(log.slice(0, 2)).toMatchObject([
      { task: 'click', stored: true, dialog: false, blocked: before },
      // The next frame is drawn with the banner closed and nothing unblocked or sent yet.
      { task: 'frame', blocked: before, recorded: 0 },
    ]);
    const ran = ((await globalOf(page, 'ran')) as string[]).filter((p) => order.includes(p));
    expect(ran).toEqual(order);
    // The record left after that frame, and arrived.
    const sentAt = await page.evaluate(() => performance.getEntriesByType('resource').find((e) => e.name.includes('/public/consent'))?.startTime);
    expect(sentAt).toBeGreaterThan(log[1]!.at!);
    expect(await records(s, 1)).toHaveLength(1);
    await context.close();
  });

  it('the close button closes the banner for the rest of the tab: only necessary runs, nothing stored or recorded', async () => {
    const s = await setup({ theme: { widgetCloseButton: true } });
    const { page, context, path } = await open(pageHtml(s));
    await widget(page).locator('button.x').click();
    expect(await dialog(page).count()).toBe(0);
    await page.waitForTimeout(200);
    expect(await ran(page)).toEqual(['/free.js']);
    expect(await stored(page)).toBeNull();
    // The next page of the same tab opens without the banner, and still runs nothing that needs consent.
    await page.goto(`${site.url}${path}`);
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.waitForTimeout(200);
    expect(await dialog(page).count()).toBe(0);
    expect(await ran(page)).toEqual(['/free.js']);
    // A new tab asks again.
    const tab = await context.newPage();
    await tab.goto(`${site.url}${path}`);
    await expect.poll(() => dialog(tab).count()).toBe(1);
    expect(await records(s, 1)).toEqual([]);
    await context.close();
  });

  it('decline runs nothing and records consent: false with only the necessary purpose', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.d').click();
    await page.waitForTimeout(200);
    expect(await ran(page)).toEqual(['/free.js']);
    expect(await globalOf(page, 'htmlRan')).toBeUndefined();
    const [record] = await records(s, 1);
    expect(record).toMatchObject({ consent: false, purposes: { '41ba25c': 'Technically necessary' }, embeddings: { [s.ids.session!]: 'Session' } });
    expect(Object.keys(record!.purposes as object)).toEqual(['41ba25c']);
    await context.close();
  });

  it('saves a selection by purpose in the settings layer', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.s', { hasText: 'Settings' }).click();
    const necessary = widget(page).locator('label', { hasText: 'Technically necessary' }).locator('input');
    expect(await necessary.isChecked()).toBe(true);
    expect(await necessary.isDisabled()).toBe(true);
    await widget(page).locator('label', { hasText: 'Analytics' }).locator('input').check();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    await waitRan(page, '/dyn-tracker.js', '/tracker.js');
    expect(await ran(page)).toEqual(['/dyn-tracker.js', '/free.js', '/tracker.js']);
    expect(await globalOf(page, 'htmlRan')).toBeUndefined();
    const [record] = await records(s, 1);
    expect(record!.consent).toBe(true);
    expect(Object.keys(record!.embeddings as object).sort()).toEqual([s.ids.analytics!, s.ids.session!].sort());
    expect(Object.keys(record!.purposes as object).sort()).toEqual(['41ba25c', ANALYTICS].sort());
    await context.close();
  });

  it('saves a selection by embedding in the details layer, which shows the legal texts and the ucid', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.s', { hasText: 'Settings' }).click();
    await widget(page).locator('button', { hasText: /details|Details|services/ }).last().click();
    const details = widget(page).locator('details', { hasText: 'Tag Code' });
    await details.locator('summary').click();
    await details.locator('input').check();
    const analytics = widget(page).locator('details', { hasText: 'Tracker Analytics' });
    await analytics.locator('summary').click();
    await expect(analytics.textContent()).resolves.toContain('Tracker Inc.');
    await expect(analytics.textContent()).resolves.toContain('Counts visits.');
    await expect(analytics.locator('td', { hasText: '_tr' }).first().count()).resolves.toBe(1);
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    await page.waitForFunction(() => (window as unknown as { htmlRan?: number }).htmlRan === 1);
    expect(await ran(page)).toEqual(['/free.js']);
    const [record] = await records(s, 1);
    expect(Object.keys(record!.embeddings as object).sort()).toEqual([s.ids.html!, s.ids.session!].sort());
    await context.close();
  });

  it('keeps the decision across a reload: no banner, accepted scripts run at once, icon to reopen', async () => {
    const s = await setup();
    const first = await open(pageHtml(s));
    await widget(first.page).locator('button.a').click();
    await first.page.waitForTimeout(200);
    const again = await open(pageHtml(s), undefined, first.context);
    expect(await dialog(again.page).count()).toBe(0);
    expect(await widget(again.page).locator('button.c').count()).toBe(1);
    await waitRan(again.page, '/dyn-tracker.js', '/loader.js', '/tracker.js');
    expect(await ran(again.page)).toEqual(['/dyn-tracker.js', '/free.js', '/loader.js', '/tracker.js']);
    await widget(again.page).locator('button.c').click();
    expect(await widget(again.page).locator('[role="dialog"]').textContent()).toContain('Save');
    await first.context.close();
  });

  // Both in the options variant since stop 52 (usesOptions in widget-code.ts): each fails when the base widget is served.
  it('shows the theme\'s own settings icon image instead of the drawn icon', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const s = await setup({ theme: { settingsIconImage: png } });
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.a').click();
    const icon = widget(page).locator('button.c');
    await icon.waitFor();
    expect(await icon.locator('img').getAttribute('src')).toBe(`data:image;base64,${png}`);
    expect(await icon.locator('svg').count()).toBe(0);
    await context.close();
  });

  it('with hideIframesUntilConsent, holds the embedding\'s frame with its overlay hidden (its space kept) and loads it on consent', async () => {
    const s = await setup();
    await hosting('PUT', `${s.base}/embedding/${s.ids.video}`, { hideIframesUntilConsent: true });
    const { page, context } = await open(pageHtml(s));
    const overlay = page.locator('.ccm-blocked');
    expect(await overlay.count()).toBe(1);
    expect(await overlay.evaluate((o) => [getComputedStyle(o).visibility, (o as HTMLElement).offsetHeight])).toEqual(['hidden', 150]);
    expect(await page.evaluate(() => document.querySelector('iframe')!.getAttribute('src'))).toBeNull();
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => document.querySelector('iframe')?.getAttribute('src')?.includes('/frame.html'));
    expect(await overlay.count()).toBe(0);
    await context.close();
  });

  it('asks again after the reset date and after a legal change, but not after other changes', async () => {
    const s = await setup();
    const first = await open(pageHtml(s));
    await widget(first.page).locator('button.a').click();
    await first.page.waitForTimeout(100);
    const ucid = JSON.parse((await stored(first.page))!)['/'].ucid;

    await hosting('PUT', `${s.base}/embedding/${s.ids.analytics}`, { scriptMarkers: ['tracker.js', 'analytics-inline', 'x'] });
    expect(await dialog((await open(pageHtml(s), undefined, first.context)).page).count()).toBe(0);

    await hosting('PUT', `${s.base}/embedding/${s.ids.analytics}`, { description: 'Counts visits and more.' });
    const legal = await open(pageHtml(s), undefined, first.context);
    expect(await dialog(legal.page).count()).toBe(1);
    expect(await ran(legal.page)).toEqual(['/free.js']);
    await widget(legal.page).locator('button.a').click();
    await legal.page.waitForTimeout(100);
    expect(JSON.parse((await stored(legal.page))!)['/'].ucid).toBe(ucid);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await hosting('PUT', `${s.base}`, { consentResetBeforeDate: tomorrow });
    expect(await dialog((await open(pageHtml(s), undefined, first.context)).page).count()).toBe(1);
    await first.context.close();
  });

  it('ignores synthetic clicks on accept with manipulation prevention, and says so in the record', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    await page.evaluate(() => (document.getElementById('ccm-widget')!.shadowRoot!.querySelector('button.a') as HTMLElement).click());
    await page.waitForTimeout(150);
    expect(await stored(page)).toBeNull();
    expect(await ran(page)).toEqual(['/free.js']);
    await context.close();

    const off = await setup({ theme: { manipulationPrevention: false } });
    const second = await open(pageHtml(off));
    await second.page.evaluate(() => (document.getElementById('ccm-widget')!.shadowRoot!.querySelector('button.a') as HTMLElement).click());
    await second.page.waitForFunction(() => localStorage.getItem('ccm_consent') !== null);
    const [record] = await records(off, 1);
    expect(record!.manipulationPrevention).toBe(false);
    await second.context.close();
  });

  it('works with the keyboard alone: focus trapped in modal layers, Escape goes back, focus returns', async () => {
    const s = await setup({ theme: { widgetBlocking: true } });
    const { page, context } = await open(pageHtml(s, '<button id="page-btn">page</button>'));
    const focused = () => page.evaluate(() => {
      const el = document.getElementById('ccm-widget')!.shadowRoot!.activeElement as HTMLElement | null;
      return el ? `${el.tagName}:${el.textContent}` : `page:${document.activeElement?.id}`;
    });
    expect(await focused()).toBe('BUTTON:Accept all');
    // A blocking banner is a modal dialog, and says so ("true": an empty aria-modal means false).
    expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
    const outline = await widget(page).locator('button.a').evaluate((b) => getComputedStyle(b).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('BUTTON:Reject all');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('BUTTON:Settings');
    await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^A:|^BUTTON:Accept all/); // wraps inside the dialog
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('BUTTON:Reject all');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('BUTTON:Settings');
    await page.keyboard.press('Enter');
    expect(await dialog(page).textContent()).toContain('Analytics');
    await page.keyboard.press('Escape');
    expect(await widget(page).locator('button.d').count()).toBe(1); // back on the banner
    await widget(page).locator('button.s').focus();
    await page.keyboard.press('Enter');
    // In the settings layer: tab to the analytics switch, toggle it with Space, save with Enter.
    for (let i = 0; i < 10 && !(await focused()).includes('INPUT'); i++) await page.keyboard.press('Tab');
    let guard = 0;
    while (guard++ < 10) {
      const label = await page.evaluate(() => document.getElementById('ccm-widget')!.shadowRoot!.activeElement?.closest('label')?.textContent);
      if (label === 'Analytics') break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Space');
    while (!(await focused()).startsWith('BUTTON:Save')) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/tracker.js'));
    expect(await dialog(page).count()).toBe(0);
    const entry = JSON.parse((await stored(page))!)['/'];
    expect(entry.embeddings.sort()).toEqual([s.ids.analytics!, s.ids.session!].sort());
    // Reopen from the page with the keyboard, close with Escape: focus goes back to where it was.
    await page.focus('#page-btn');
    await page.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
    expect(await focused()).toMatch(/^INPUT|^BUTTON/);
    await page.keyboard.press('Escape');
    expect(await dialog(page).count()).toBe(0);
    expect(await focused()).toBe('page:page-btn');
    await context.close();
  });

  it('sets Google Consent Mode v2 defaults before any tag and updates them on each decision', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    const first = await page.evaluate(() => JSON.parse(JSON.stringify(Array.from((window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer[0]!))));
    expect(first).toEqual([
      'consent',
      'default',
      {
        ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied',
        functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'denied', wait_for_update: 500,
      },
    ]);
    await widget(page).locator('button.s', { hasText: 'Settings' }).click();
    await widget(page).locator('label', { hasText: 'Analytics' }).locator('input').check();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    // The update follows in the task after the click's (docs/widget.md, "Size and speed").
    await page.waitForFunction(() => (window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer.some((e) => e && e[1] === 'update'));
    const layer = await page.evaluate(() =>
      JSON.parse(JSON.stringify((window as unknown as { dataLayer: unknown[] }).dataLayer.map((e) => (e && typeof e === 'object' && 'length' in (e as object) ? Array.from(e as ArrayLike<unknown>) : e)))),
    );
    const update = layer.find((e: unknown) => Array.isArray(e) && e[1] === 'update');
    expect(update[2]).toMatchObject({ analytics_storage: 'granted', ad_storage: 'denied', ad_user_data: 'denied' });
    expect(layer).toContainEqual({ event: 'CCM19.embeddingAccepted', id: s.ids.analytics, name: 'Tracker Analytics' });
    expect(layer).toContainEqual(expect.objectContaining({ event: 'CCM19.consentStateChanged', initialConsent: true, 'ccm19_Tracker Analytics': true, 'ccm19_Tag Code': false }));
    await context.close();
  });

  it('honours Global Privacy Control: no banner, nothing optional runs, an opt-in is recorded with the signal', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s), () =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
    expect(await dialog(page).count()).toBe(0);
    expect(await ran(page)).toEqual(['/free.js']);
    expect(await widget(page).locator('button.c').count()).toBe(1);
    await page.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
    await widget(page).locator('label', { hasText: 'Analytics' }).locator('input').check();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    await page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/tracker.js'));
    const [record] = await records(s, 1);
    expect(record!.consent).toBe(true);
    if ('gpc' in record!) expect(record!.gpc).toBe(true);
    await context.close();
  });

  it('with enableOnlyInEu, enables everything without banner or record outside the GDPR area, and asks inside', async () => {
    const s = await setup({ theme: { enableOnlyInEu: true } });
    const us = await open(pageHtml(s), undefined, await browser.newContext({ extraHTTPHeaders: { 'cf-ipcountry': 'US' } }));
    await waitRan(us.page, '/dyn-tracker.js', '/free.js', '/tracker.js');
    expect(await dialog(us.page).count()).toBe(0);
    expect(await widget(us.page).locator('button.c').count()).toBe(1);
    expect(await stored(us.page)).toBeNull();
    expect(await ccmOf(us.page, 'ucid')).toBeNull();
    expect(await ccmOf(us.page, 'consentRequired')).toBe(false);
    // A choice of theirs counts as anywhere: stored and recorded.
    await us.page.evaluate(() => (window as unknown as { CCM: { openWidget(): void } }).CCM.openWidget());
    await widget(us.page).locator('button.d').click();
    await us.page.waitForFunction(() => localStorage.getItem('ccm_consent') !== null);
    const list = await records(s, 1);
    expect(list).toHaveLength(1);
    expect(list[0]!.consent).toBe(false);
    await us.context.close();
    // Inside the area the banner shows and nothing optional runs.
    const de = await open(pageHtml(s), undefined, await browser.newContext({ extraHTTPHeaders: { 'cf-ipcountry': 'DE' } }));
    expect(await dialog(de.page).count()).toBe(1);
    expect(await ran(de.page)).toEqual(['/free.js']);
    expect(await ccmOf(de.page, 'consentRequired')).toBe(true);
    await de.context.close();
  });

  it('shows no banner on a page of another site, with one console warning', async () => {
    const s = await setup({ host: 'shop.example' });
    const { page, context, logs } = await open(pageHtml(s));
    expect(await widget(page).count()).toBe(0);
    await waitRan(page, '/dyn-tracker.js', '/free.js', '/tracker.js');
    expect(await ran(page)).toEqual(['/dyn-tracker.js', '/free.js', '/tracker.js']);
    expect(logs.filter((l) => l.startsWith('Placet:'))).toHaveLength(1);
    await context.close();
  });

  it('over the monthly quota serves blocked mode: no banner, no icon, the reason in the console', async () => {
    const s = await setup({ client: { widgetDisplayMaxCount: 1 } });
    const first = await open(pageHtml(s));
    expect(await dialog(first.page).count()).toBe(1);
    const second = await open(pageHtml(s), undefined, first.context);
    expect(await dialog(second.page).count()).toBe(0);
    expect(await widget(second.page).locator('button').count()).toBe(0);
    expect(second.logs.some((l) => l.includes('quota for this month is used up'))).toBe(true);
    // Nothing can open it: the API's openWidget does nothing in blocked mode.
    await second.page.evaluate(() => (window as unknown as { CCM: { openWidget(): void } }).CCM.openWidget());
    expect(await dialog(second.page).count()).toBe(0);
    await first.context.close();
  });

  it('fills the cookie declaration, offers the iframe overlay button, and deletes storage on withdrawal', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s, '<div class="ccm-cookie-declaration"></div>'));
    const declaration = await page.locator('.ccm-cookie-declaration').textContent();
    expect(declaration).toContain('Tracker Analytics');
    expect(declaration).toContain('_tr');
    expect(declaration).toContain('Visitor id');
    const overlay = page.locator('.ccm-blocked');
    // The blocked host as a class on the overlay's root, for customCssForIframeBlocker (reference model).
    expect(await overlay.evaluate((b) => b.shadowRoot!.querySelector('.f')!.className)).toBe('f domain--localhost');
    await overlay.locator('button.y').click({ timeout: 5000 });
    await page.waitForFunction(() => document.querySelector('iframe')?.getAttribute('src')?.includes('/frame.html'));
    const entry = JSON.parse((await stored(page))!)['/'];
    expect(entry.clickedButton).toBe('acceptEmbedding');
    expect(entry.embeddings.sort()).toEqual([s.ids.video!, s.ids.session!].sort());

    await page.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
    await widget(page).locator('label', { hasText: 'Analytics' }).locator('input').check();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    await page.evaluate(() => {
      document.cookie = '_tr=1; path=/';
      document.cookie = '_tr_abc=2; path=/';
      document.cookie = 'keep=3; path=/';
      localStorage.setItem('tr_store', 'x');
    });
    await page.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
    await widget(page).locator('label', { hasText: 'Analytics' }).locator('input').uncheck();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    const left = await page.evaluate(() => ({ cookies: document.cookie, item: localStorage.getItem('tr_store') }));
    expect(left.cookies).toContain('keep=3');
    expect(left.cookies).not.toContain('_tr');
    expect(left.item).toBeNull();
    await context.close();
  });

  it('offers the CCM browser API and events', async () => {
    const s = await setup();
    const { page, context } = await open(
      pageHtml(s),
      () => {
        (window as unknown as { events: string[] }).events = [];
        for (const name of ['ccm19WidgetLoaded', 'ccm19WidgetClosed', 'ccm19EmbeddingAccepted', 'ccm19CookieAccepted']) {
          window.addEventListener(name, (e) => (window as unknown as { events: string[] }).events.push(`${name}:${JSON.stringify((e as CustomEvent).detail)}`));
        }
      },
    );
    const before = await page.evaluate(() => {
      const ccm = (window as unknown as { CCM: Record<string, unknown> & { availableLocales(): string[] } }).CCM;
      return { consent: ccm.consent, ucid: ccm.ucid, full: ccm.fullConsentGiven, locales: ccm.availableLocales(), required: ccm.consentRequired };
    });
    expect(before).toEqual({ consent: false, ucid: null, full: false, locales: ['en'], required: true });
    await widget(page).locator('button.a').click();
    // The events follow the click in a task of their own (docs/widget.md, "Size and speed").
    await page.waitForFunction(() => (window as unknown as { events: string[] }).events.some((e) => e.startsWith('ccm19EmbeddingAccepted:')));
    const after = await page.evaluate(() => {
      const ccm = (window as unknown as { CCM: Record<string, unknown> }).CCM;
      const layer = (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer;
      return {
        consent: ccm.consent, ucid: ccm.ucid, full: ccm.fullConsentGiven, accepted: ccm.acceptedEmbeddings, events: (window as unknown as { events: string[] }).events,
        pushed: layer.map((x) => x.event).filter((x) => typeof x === 'string'),
      };
    });
    expect(after.consent).toBe(true);
    expect(after.full).toBe(true);
    expect(after.ucid).toMatch(/^[0-9a-f]{64}$/);
    expect(after.accepted).toContainEqual({ id: s.ids.analytics, name: 'Tracker Analytics' });
    expect(after.events[0]).toBe('ccm19WidgetLoaded:null');
    expect(after.events).toContain('ccm19WidgetClosed:null');
    expect(after.events.some((e) => e.startsWith('ccm19EmbeddingAccepted:') && e.includes('Tracker Analytics'))).toBe(true);
    // The deprecated per-cookie event and dataLayer push, one per asset of an accepted embedding.
    const cookieEvents = after.events.filter((e) => e.startsWith('ccm19CookieAccepted:')).map((e) => JSON.parse(e.slice('ccm19CookieAccepted:'.length)));
    expect(cookieEvents).toContainEqual(expect.objectContaining({ name: '_tr', purpose: ANALYTICS, mandatory: false }));
    expect(cookieEvents).toContainEqual(expect.objectContaining({ name: 'PHPSESSID', mandatory: true }));
    expect(after.pushed).toContain('CCM19.cookieAccepted._tr');
    expect(after.pushed).toContain('CCM19.cookieAccepted.PHPSESSID');
    await context.close();
  });

  it('opens from #CCM.openWidget links and switches locale', async () => {
    const s = await setup();
    await hosting('POST', `${s.base}/locale`, { name: 'en_US' });
    await hosting('POST', `${s.base}/locale`, { name: 'de_DE' });
    const { page, context } = await open(pageHtml(s, '<a id="reopen" href="#CCM.openWidget">cookie settings</a>'));
    await widget(page).locator('button.d').click();
    await page.click('#reopen');
    expect(await dialog(page).count()).toBe(1);
    await page.evaluate(() => (window as unknown as { CCM: { switchLocale(n: string): void } }).CCM.switchLocale('de_DE'));
    expect(await widget(page).locator('[lang]').first().getAttribute('lang')).toBe('de-DE');
    expect(await widget(page).locator('button.a').textContent()).toBe('Alle akzeptieren');
    await context.close();
  });

  it('never runs blockedScriptMarkers, and keeps an embedding inactive on its excluded URLs', async () => {
    const s = await setup({ domain: { blockedScriptMarkers: ['free.js'] } });
    const first = await open(pageHtml(s));
    expect(await ran(first.page)).toEqual([]);
    await widget(first.page).locator('button.a').click();
    await first.page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/tracker.js'));
    expect(await ran(first.page)).not.toContain('/free.js');
    await first.context.close();

    const ex = await setup();
    const excludedPath = `/p${pageNo + 1}`;
    await hosting('PUT', `${ex.base}/embedding/${ex.ids.analytics}`, { excludeFromUrls: [`${site.url}${excludedPath}`] });
    const excluded = await open(pageHtml(ex));
    expect(excluded.path).toBe(excludedPath);
    await widget(excluded.page).locator('button.a').click();
    await excluded.page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/loader.js'));
    expect(await ran(excluded.page)).toEqual(['/free.js', '/loader.js']);
    const elsewhere = await open(pageHtml(ex), undefined, excluded.context);
    await elsewhere.page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/tracker.js'));
    await excluded.context.close();
  });

  it('keeps the decision in a cookie when the domain says so', async () => {
    const s = await setup({ domain: { consentStorage: 'cookie', consentCookieLifetime: 30 } });
    const first = await open(pageHtml(s));
    await widget(first.page).locator('button.d').click();
    const cookies = await first.context.cookies();
    const entry = cookies.find((c) => c.name === 'ccm_consent');
    expect(entry).toBeDefined();
    expect(JSON.parse(decodeURIComponent(entry!.value))['/'].clickedButton).toBe('declineAll');
    expect(entry!.expires - Date.now() / 1000).toBeGreaterThan(29 * 86400);
    expect(await stored(first.page)).toBeNull();
    const again = await open(pageHtml(s), undefined, first.context);
    expect(await dialog(again.page).count()).toBe(0);
    await first.context.close();
  });

  it('honours Do Not Track when the theme says so, and only then', async () => {
    const dntOn = () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
    const s = await setup({ theme: { complyWithDoNotTrack: true } });
    const honoured = await open(pageHtml(s), dntOn);
    expect(await dialog(honoured.page).count()).toBe(0);
    expect(await ran(honoured.page)).toEqual(['/free.js']);
    await honoured.context.close();
    const ignored = await open(pageHtml(await setup()), dntOn);
    expect(await dialog(ignored.page).count()).toBe(1);
    await ignored.context.close();
  });

  it('deletes first-party cookies no embedding declares with deleteUnknownCookies', async () => {
    const s = await setup({ domain: { deleteUnknownCookies: true } });
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'stranger', value: '1', url: site.url },
      { name: '_tr', value: '1', url: site.url },
      { name: 'PHPSESSID', value: 'abc', url: site.url },
    ]);
    const { page } = await open(pageHtml(s), undefined, context);
    const names = (await context.cookies(site.url)).map((c) => c.name).sort();
    expect(names).toEqual(['PHPSESSID', '_tr']);
    expect(await page.evaluate(() => document.cookie)).not.toContain('stranger');
    await context.close();
  });

  it('blocks scripts no embedding claims with blockNewScripts (first-party and inline by option)', async () => {
    const extra = `<script src="http://localhost:${other.port}/unclaimed.js"></script><script>window.unclaimedInline = 1</script>`;
    const s = await setup({ domain: { blockNewScripts: true } });
    const first = await open(pageHtml(s, extra));
    await widget(first.page).locator('button.a').click();
    await first.page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/loader.js'));
    // The preload scanner may fetch it; it never runs.
    expect(await ran(first.page)).not.toContain('/unclaimed.js');
    expect(await ran(first.page)).toContain('/free.js');
    expect(await globalOf(first.page, 'unclaimedInline')).toBe(1);
    await first.context.close();

    const strict = await setup({ domain: { blockNewScripts: true, blockFirstPartyScripts: true, blockInlineScripts: true } });
    const second = await open(pageHtml(strict, extra));
    await widget(second.page).locator('button.a').click();
    await second.page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/loader.js'));
    expect(await ran(second.page)).not.toContain('/free.js');
    expect(await globalOf(second.page, 'unclaimedInline')).toBeUndefined();
    expect(await globalOf(second.page, 'inlineRan')).toBe('analytics-inline');
    await second.context.close();
  });

  it('remembers an allowed iframe host with rememberIframeConsentPerDomain', async () => {
    other.setPage('/map.html', '<!doctype html><p>map</p>');
    const s = await setup({ domain: { rememberIframeConsentPerDomain: true } });
    const map = `<iframe src="http://localhost:${other.port}/map.html"></iframe>`;
    const first = await open(pageHtml(s, map));
    await widget(first.page).locator('button.d').click();
    const overlays = first.page.locator('.ccm-blocked');
    expect(await overlays.count()).toBe(2);
    await overlays.last().locator('button').click();
    await first.page.waitForFunction(() => [...document.querySelectorAll('iframe')].some((f) => f.src.includes('/map.html')));
    const again = await open(pageHtml(s, map), undefined, first.context);
    expect(await again.page.locator('iframe[src*="map.html"]').count()).toBe(1);
    expect(await again.page.locator('.ccm-blocked').count()).toBe(1);
    await first.context.close();
  });

  it('builds the cookie declaration per the domain settings, in the locale its data-lang names', async () => {
    const s = await setup({
      domain: { cookieDeclarationTableHeadingStartLevel: 2, cookieDeclarationTablePrependConsentChangeLink: false, cookieDeclarationTablePrependIntroText: true },
    });
    await hosting('POST', `${s.base}/locale`, { name: 'en' });
    await hosting('POST', `${s.base}/locale`, { name: 'de_DE' });
    const { page, context } = await open(pageHtml(s, '<div class="ccm-cookie-declaration"></div><div class="ccm-cookie-declaration" data-lang="de-DE"></div>'));
    const info = await page.evaluate(() =>
      [...document.querySelectorAll('.ccm-cookie-declaration')].map((el) => ({
        h2: [...el.querySelectorAll('h2')].map((x) => x.textContent), h3: [...el.querySelectorAll('h3')].map((x) => x.textContent), links: el.querySelectorAll('a').length, text: el.textContent,
      })),
    );
    expect(info[0]!.h2).toContain('Analytics');
    expect(info[0]!.h3).toContain('Tracker Analytics');
    expect(info[0]!.links).toBe(0);
    expect(info[0]!.text).toContain('We use cookies');
    // data-lang: that declaration in German, while the banner stays in the visitor's English.
    expect(info[1]!.h2).toContain('Statistik');
    expect(info[1]!.text).toContain('Wir verwenden');
    expect(await widget(page).locator('button.a').textContent()).toBe('Accept all');
    await context.close();
  });

  it('lets necessary embeddings wait for consent with requireConsentForMandatoryEmbeddings', async () => {
    const s = await setup({ domain: { requireConsentForMandatoryEmbeddings: true } });
    await hosting('PUT', `${s.base}/embedding/${s.ids.session}`, { scriptMarkers: ['session.js'] });
    const { page, context } = await open(pageHtml(s, '<script src="/session.js"></script>'));
    expect(await ran(page)).toEqual(['/free.js']);
    await widget(page).locator('button.s', { hasText: 'Settings' }).click();
    const necessary = widget(page).locator('label', { hasText: 'Technically necessary' }).locator('input');
    expect(await necessary.isDisabled()).toBe(false);
    await necessary.check();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    await page.waitForFunction(() => (window as unknown as { ran?: string[] }).ran?.includes('/session.js'));
    await context.close();
  });

  it('shows the privacy policy inside the widget in direct mode and links the imprint otherwise', async () => {
    const s = await setup({ domain: { privacyPolicyDisplayMode: 'direct', imprintOpenInNewTab: true } });
    await hosting('POST', `${s.base}/locale`, {
      name: 'en',
      imprintUrl: 'https://shop.example/imprint',
      privacyPolicyHtmlCode: '<p>Our <b>privacy</b> policy.</p><script>window.htmlInjected = 1</script>',
    });
    const { page, context } = await open(pageHtml(s));
    const imprint = widget(page).locator('a', { hasText: 'Imprint' });
    expect(await imprint.getAttribute('href')).toBe('https://shop.example/imprint');
    expect(await imprint.getAttribute('target')).toBe('_blank');
    await widget(page).locator('button', { hasText: 'Privacy policy' }).click();
    expect(await dialog(page).locator('b').textContent()).toBe('privacy');
    expect(await globalOf(page, 'htmlInjected')).toBeUndefined();
    await page.keyboard.press('Escape');
    expect(await widget(page).locator('button.d').count()).toBe(1);
    await context.close();
  });

  // Both live in the options variant since stop 52 (usesOptions in widget-code.ts): the domain that uses one gets it.
  it('has "Select all" and "Deselect all" in the settings with settingsCheckAndUncheckAllButtons, and neither without', async () => {
    const plain = await setup();
    const a = await open(pageHtml(plain));
    await widget(a.page).locator('button.s', { hasText: 'Settings' }).click();
    await widget(a.page).locator('button.a', { hasText: 'Save' }).waitFor();
    expect(await widget(a.page).locator('button', { hasText: /Select all|Deselect all|Privacy policy/ }).count()).toBe(0);
    await a.context.close();

    const s = await setup({ theme: { settingsCheckAndUncheckAllButtons: true } });
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.s', { hasText: 'Settings' }).click();
    const boxes = widget(page).locator('label input');
    await widget(page).locator('button.s', { hasText: /^Select all$/ }).click();
    expect(await boxes.evaluateAll((l) => l.map((b) => (b as HTMLInputElement).checked))).toEqual([true, true, true, true]);
    await widget(page).locator('button.s', { hasText: 'Deselect all' }).click();
    // The necessary purpose stays on (and fixed); the others are off.
    expect(await boxes.evaluateAll((l) => l.map((b) => (b as HTMLInputElement).checked))).toEqual([true, false, false, false]);
    await widget(page).locator('button.s', { hasText: /^Select all$/ }).click();
    await widget(page).locator('button.a', { hasText: 'Save' }).click();
    expect(JSON.parse((await stored(page))!)['/'].embeddings.length).toBe(Object.keys(s.ids).length);
    await context.close();
  });

  it('keeps the banner to about a third of a 390×844 phone, in English and German, with nothing required hidden', async () => {
    const s = await setup();
    for (const name of ['en', 'de_DE']) {
      await hosting('POST', `${s.base}/locale`, { name, imprintUrl: 'https://shop.example/imprint', privacyPolicyUrl: 'https://shop.example/privacy' });
    }
    for (const locale of ['en-US', 'de-DE']) {
      const { page, context } = await open(pageHtml(s), undefined, await browser.newContext({ viewport: { width: 390, height: 844 }, locale }));
      expect(await widget(page).locator('[lang]').first().getAttribute('lang')).toBe(locale === 'en-US' ? 'en' : 'de-DE');
      const box = (await dialog(page).boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(0.35 * 844);
      for (const b of ['button.a', 'button.d']) {
        const button = widget(page).locator(b);
        expect(await button.isVisible()).toBe(true);
        expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(40);
      }
      // Equal visual weight: accept and decline are the same size.
      const [a, d] = [(await widget(page).locator('button.a').boundingBox())!, (await widget(page).locator('button.d').boundingBox())!];
      expect(Math.abs(a.height - d.height)).toBeLessThan(1);
      expect(await widget(page).locator('button.s').isVisible()).toBe(true);
      for (const href of ['https://shop.example/imprint', 'https://shop.example/privacy']) {
        expect(await widget(page).locator(`a[href="${href}"]`).isVisible()).toBe(true);
      }
      // The intro is whole or scrolls inside the banner; no text is smaller than 13 px.
      const intro = await dialog(page).locator('h2 + p').evaluate((p) => ({
        clipped: p.scrollHeight > p.clientHeight, overflow: getComputedStyle(p).overflowY,
        sizes: Array.from(p.closest('[role="dialog"]')!.querySelectorAll('h2,p,button,a')).map((e) => parseFloat(getComputedStyle(e).fontSize)),
      }));
      if (intro.clipped) expect(intro.overflow).toBe('auto');
      expect(Math.min(...intro.sizes)).toBeGreaterThanOrEqual(13);
      await context.close();
    }
  });

  it('puts a consent switch under loaded iframes with appendConsentSwitchToIframes; switching off blocks again', async () => {
    const s = await setup({ domain: { appendConsentSwitchToIframes: true } });
    const { page, context } = await open(pageHtml(s));
    expect(await page.locator('.ccm-switch').count()).toBe(0);
    await widget(page).locator('button.a').click();
    const bar = page.locator('.ccm-switch');
    await bar.waitFor();
    expect(await bar.locator('label').textContent()).toContain('Video Embed');
    // On the next page the frame loads at once (its embedding is accepted), and gets its switch there too.
    await page.reload();
    await bar.waitFor({ timeout: 5000 });
    expect(await bar.count()).toBe(1);
    expect(await bar.locator('label').textContent()).toContain('Video Embed');
    expect(await page.locator('.ccm-blocked').count()).toBe(0);
    // Switching off reloads the page; the click itself does not wait for the state change.
    await Promise.all([page.waitForEvent('load'), bar.locator('input').click({ noWaitAfter: true })]);
    await page.waitForTimeout(200);
    expect(await page.locator('.ccm-blocked').count()).toBe(1);
    const entry = JSON.parse((await stored(page))!)['/'];
    expect(entry.embeddings).not.toContain(s.ids.video);
    expect(entry.embeddings).toContain(s.ids.analytics);
    await context.close();
  });

  it('runs unblocked inline scripts as elements with their CSP nonce, or through eval with evalInlineScripts', async () => {
    // Sent as a header: only then does the browser hide a parsed nonce from getAttribute().
    const csp = { 'content-security-policy': "script-src 'nonce-n0nce' 'unsafe-eval' http://127.0.0.1:*" };
    const inline = '<script nonce="n0nce">window.how = "analytics-inline " + (document.currentScript ? "element" : "eval")</script>';
    for (const evalInlineScripts of [false, true]) {
      const s = await setup({ domain: { evalInlineScripts } });
      const path = `/p${++pageNo}`;
      site.setPage(path, `<!doctype html><html><head>${s.snippet}${inline}</head><body></body></html>`, csp);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${site.url}${path}`);
      await page.waitForFunction(() => document.readyState === 'complete');
      expect(await globalOf(page, 'how')).toBeUndefined();
      await widget(page).locator('button.a').click();
      await page.waitForFunction(() => (window as unknown as { how?: string }).how !== undefined, undefined, { timeout: 5000 });
      expect(await globalOf(page, 'how')).toBe(`analytics-inline ${evalInlineScripts ? 'eval' : 'element'}`);
      await context.close();
    }
  });

  it('keeps working, with the decision in memory, where the browser refuses storage', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s), () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('Access is denied for this document.', 'SecurityError');
        },
      });
    });
    expect(await dialog(page).count()).toBe(1);
    await widget(page).locator('button.a').click();
    await waitRan(page, '/tracker.js');
    expect(await ccmOf(page, 'consent')).toBe(true);
    const [record] = await records(s, 1);
    expect(record?.consent).toBe(true);
    await context.close();
  });

  describe('consent sharing across hosts', () => {
    const at = (host: string, path: string) => `http://${host}:${site.port}${path}`;
    const sharing = (domain: object = {}) =>
      setup({ host: at('www.shop.test', ''), domain: { consentSharingDomains: ['shop.test', 'shop-de.test'], ...domain } });
    async function visit(context: BrowserContext, url: string, html?: string, referer?: string): Promise<Page> {
      if (html) site.setPage(new URL(url).pathname, html);
      const page = await context.newPage();
      await page.goto(url, referer ? { referer } : {});
      await page.waitForFunction(() => document.readyState === 'complete');
      await page.waitForTimeout(150);
      return page;
    }
    const ucidOf = (page: Page) => ccmOf(page, 'ucid');

    it('serves one configuration to the subdomains of consentSharingDomains, which share the consent cookie', async () => {
      const s = await sharing({ consentStorage: 'cookie' });
      const context = await browser.newContext();
      const www = await visit(context, at('www.shop.test', `/p${++pageNo}`), pageHtml(s));
      await widget(www).locator('button.a').click();
      await waitRan(www, '/tracker.js');
      const cookie = (await context.cookies()).find((c) => c.name === 'ccm_consent');
      expect(cookie?.domain).toBe('.shop.test');
      const blog = await visit(context, at('blog.shop.test', `/p${++pageNo}`), pageHtml(s));
      expect(await dialog(blog).count()).toBe(0);
      expect(await ucidOf(blog)).toBe(await ucidOf(www));
      expect(await ran(blog)).toContain('/tracker.js');
      expect(await records(s, 1)).toHaveLength(1);
      // A host outside the set gets no configuration.
      const elsewhere = await visit(context, at('www.elsewhere.test', `/p${++pageNo}`), pageHtml(s));
      expect(await widget(elsewhere).count()).toBe(0);
      expect(await globalOf(elsewhere, 'CCM')).toBeUndefined();
      await context.close();
    });
    // Hand-over between registrable domains (consentSharingCrossDomain): test/handover.browser.test.ts.
  });
});

describe('widget findings of issue #15', () => {
  it('blocks a same-origin iframe that an embedding\'s iframeMarkers name, until that embedding is accepted', async () => {
    const s = await setup();
    await hosting('POST', `${s.base}/embedding`, { name: 'Own Video', purpose: SOCIAL, iframeMarkers: ['/own-video'] });
    site.setPage('/own-video.html', '<!doctype html><p>own video</p><script src="/own-video-ran.js"></script>');
    const from = site.hits.length;
    const { page, context } = await open(pageHtml(s, '<iframe id="own" src="/own-video.html" width="300" height="150"></iframe>'));
    // The frame's content never runs (a parser-inserted frame may have sent its request before the widget
    // blanked it: docs/widget.md, data-ccm-src for a guarantee).
    expect(site.hits.slice(from)).not.toContain('/own-video-ran.js');
    expect(await page.locator('#own').getAttribute('data-ccm-blocked')).toBe('/own-video.html');
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => document.querySelector('#own')?.getAttribute('src') === '/own-video.html');
    await expect.poll(() => site.hits.slice(from).includes('/own-video-ran.js')).toBe(true);
    await context.close();
  });

  it('starts once with a page global `n` defined first, and once when the snippet is included twice, without a stray global', async () => {
    const s = await setup();
    const first = await open(pageHtml({ ...s, snippet: `<script>var n = 1;</script>${s.snippet}` }));
    await expect(dialog(first.page).count()).resolves.toBe(1);
    expect(await ran(first.page)).not.toContain('/tracker.js');
    expect(await globalOf(first.page, 'n')).toBe(1);
    await first.context.close();
    const twice = await open(pageHtml({ ...s, snippet: s.snippet + s.snippet }));
    await expect(twice.page.locator('#ccm-widget').count()).resolves.toBe(1);
    await expect(dialog(twice.page).count()).resolves.toBe(1);
    expect(await ran(twice.page)).not.toContain('/tracker.js');
    expect(await globalOf(twice.page, 'n')).toBeUndefined();
    await twice.context.close();
  });

  it('ignores #CCM.<name> in the address when it is no own method of the API (e.g. __defineGetter__)', async () => {
    const s = await setup();
    site.setPage('/hash-page', pageHtml(s));
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.url}/hash-page#CCM.__defineGetter__`);
    await page.waitForFunction(() => document.readyState === 'complete');
    await expect(dialog(page).count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    expect(await ran(page)).not.toContain('/tracker.js');
    await context.close();
  });

  it('pushes the dataLayer events after the Consent Mode update', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.some((e) => e.event === 'CCM19.consentStateChanged'));
    const order = await page.evaluate(() =>
      (window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer.map((e) =>
        e && 'length' in e && (e as ArrayLike<unknown>)[1] === 'update' ? 'update' : ((e as unknown as Record<string, unknown>).event as string | undefined) ?? '',
      ),
    );
    const update = order.indexOf('update');
    expect(update).toBeGreaterThan(-1);
    const events = order.map((x, i) => [x, i] as const).filter(([x]) => x.startsWith('CCM19.'));
    expect(events.length).toBeGreaterThan(2);
    for (const [, i] of events) expect(i).toBeGreaterThan(update);
    await context.close();
  });
});

describe('widget dataLayer names (issue #15)', () => {
  it('keys CCM19.consentStateChanged by the embedding\'s own name, not its translation', async () => {
    const s = await setup({ query: '&amp;lang=de_DE' });
    await hosting('POST', `${s.base}/locale`, { name: 'de_DE' });
    await hosting('POST', `${s.base}/embedding`, { name: 'Google Analytics', purpose: ANALYTICS, scriptMarkers: ['ga-own'], translations: { de_DE: { name: 'Google Analytik' } } });
    const { page, context } = await open(pageHtml(s));
    await widget(page).locator('button.a').click();
    await page.waitForFunction(() => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.some((e) => e.event === 'CCM19.consentStateChanged'));
    const keys = await page.evaluate(() => Object.keys((window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.find((e) => e.event === 'CCM19.consentStateChanged')!));
    expect(keys).toContain('ccm19_Google Analytics');
    expect(keys).not.toContain('ccm19_Google Analytik');
    await context.close();
  });
});

describe('widget page-load events (issue #15)', () => {
  it('fires ccm19EmbeddingAccepted again once the document is parsed, for listeners added in <body>', async () => {
    const s = await setup();
    const body = `<script>window.late = []; window.addEventListener('ccm19EmbeddingAccepted', (e) => window.late.push(e.detail.name));</script>`;
    const first = await open(pageHtml(s, body));
    await widget(first.page).locator('button.a').click();
    await first.page.waitForFunction(() => (window as unknown as { late: string[] }).late.length > 0);
    await first.page.reload();
    await first.page.waitForFunction(() => document.readyState === 'complete');
    const late = await first.page.evaluate(() => (window as unknown as { late: string[] }).late);
    expect(late).toContain('Tracker Analytics');
    await first.context.close();
  });
});

/**
 * A script the widget runs after consent usually runs after the page's DOMContentLoaded and load. Listeners its code
 * adds for them (Contact Form 7's reCAPTCHA module, Google Maps' `addDomListener(window, 'load', …)` sample) are
 * called once, after the script's code; the page's own scripts keep the browser's behaviour (docs/widget.md).
 */
describe('widget: listeners for events that have passed', () => {
  /** What the blocked code adds: listeners for DOMContentLoaded and load on window and document, of every form. */
  const LISTENERS = (tag: string) => `
    window.calls = window.calls || [];
    document.addEventListener('DOMContentLoaded', function (e) { calls.push('${tag} doc-dcl ' + e.type + ' ' + (this === document)); });
    window.addEventListener('DOMContentLoaded', () => calls.push('${tag} win-dcl'));
    window.addEventListener('load', function (e) { calls.push('${tag} win-load ' + e.type + ' ' + (this === window)); }, { once: true });
    window.addEventListener('load', { handleEvent: (e) => calls.push('${tag} object ' + e.type) });
    document.addEventListener('load', () => calls.push('${tag} doc-load (the browser never fires it)'));
    window.addEventListener('resize', () => calls.push('${tag} resize (not an event that passed)'));
    calls.push('${tag} ran');`;
  const page = (s: Setup) => pageHtml(
    s,
    `<script>/* analytics-inline */${LISTENERS('inline')}</script>
<script src="/late-tracker.js"></script>
<script>window.addEventListener('load', () => setTimeout(() => {
  document.addEventListener('DOMContentLoaded', () => calls.push('page listener added after the event'));
  window.addEventListener('load', () => calls.push('page listener added after the event'));
}));</script>`,
  );
  const calls = (p: Page) => p.evaluate(() => (window as unknown as { calls?: string[] }).calls ?? []);

  it('calls each one once when the visitor accepts after the load, after the script\'s code; not the page\'s own', async () => {
    const s = await setup();
    site.setPage('/late-tracker.js', LISTENERS('external'), { 'content-type': 'text/javascript' });
    const { page: p, context } = await open(page(s));
    await p.waitForTimeout(100);
    expect(await calls(p)).toEqual([]);
    await widget(p).locator('button.a').click();
    await p.waitForFunction(() => ((window as unknown as { calls?: string[] }).calls ?? []).length >= 10);
    await p.waitForTimeout(300);
    // The inline script's listeners are called once the external one has run too, as the browser's events would.
    expect(await calls(p)).toEqual([
      'inline ran',
      'external ran',
      'inline doc-dcl DOMContentLoaded true',
      'inline win-dcl',
      'inline win-load load true',
      'inline object load',
      'external doc-dcl DOMContentLoaded true',
      'external win-dcl',
      'external win-load load true',
      'external object load',
    ]);
    // A load the page dispatches itself reaches the listeners as the browser keeps them, in the order they were
    // added: the page's own one (added after the event, never called so far), then the object listeners again; the
    // `once` one was used up.
    await p.evaluate(() => window.dispatchEvent(new Event('load')));
    expect((await calls(p)).slice(10)).toEqual(['page listener added after the event', 'inline object load', 'external object load']);
    await context.close();
  });

  it('waits, as the browser\'s load does, for an async script that arrives late; a window.onload assigned after load too', async () => {
    const s = await setup();
    const ctx = await browser.newContext();
    // The async library arrives 500 ms after it is asked for, long after the inline copy below has run. A `nomodule`
    // script (a legacy bundle) never runs in Chromium and fires no event: nothing may wait for it.
    await ctx.route('**/slow-tracker.js', async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.fulfill({ contentType: 'text/javascript', body: 'window.slowLib = "here"; (window.calls = window.calls || []).push("library ran");' }).catch(() => undefined);
    });
    const { page: p, context, logs } = await open(
      pageHtml(
        s,
        `<script async src="/slow-tracker.js"></script>
<script nomodule src="/legacy-tracker.js"></script>
<script>/* analytics-inline */ window.calls = window.calls || [];
window.addEventListener('load', function () { calls.push('listener sees ' + typeof window.slowLib); });
window.onload = function (e) { calls.push('onload sees ' + typeof window.slowLib + ' ' + e.type + ' ' + (this === window)); };
calls.push('inline ran');</script>`,
      ),
      undefined,
      ctx,
    );
    await p.waitForTimeout(100);
    expect(await calls(p)).toEqual([]);
    await widget(p).locator('button.a').click();
    await p.waitForFunction(() => ((window as unknown as { calls?: string[] }).calls ?? []).length >= 4, undefined, { timeout: 10_000 }).catch(() => undefined);
    await p.waitForTimeout(300);
    const seen = await calls(p);
    expect(seen.slice(0, 2)).toEqual(['inline ran', 'library ran']);
    // The handler the copy assigned is called first (it is queued at the decision), then the listener.
    expect(seen.slice(2)).toEqual(['onload sees string load true', 'listener sees string']);
    expect(logs.filter((l) => l.startsWith('pageerror'))).toEqual([]);
    await context.close();
  });

  it('leaves them to the browser where the scripts run while the page loads (a returning visitor): each once', async () => {
    const s = await setup();
    site.setPage('/late-tracker.js', LISTENERS('external'), { 'content-type': 'text/javascript' });
    const first = await open(page(s));
    await widget(first.page).locator('button.a').click();
    await first.page.waitForTimeout(300);
    const again = await open(page(s), undefined, first.context);
    await again.page.waitForFunction(() => ((window as unknown as { calls?: string[] }).calls ?? []).length >= 10);
    await again.page.waitForTimeout(300);
    expect((await calls(again.page)).sort()).toEqual([
      'external doc-dcl DOMContentLoaded true',
      'external object load',
      'external ran',
      'external win-dcl',
      'external win-load load true',
      'inline doc-dcl DOMContentLoaded true',
      'inline object load',
      'inline ran',
      'inline win-dcl',
      'inline win-load load true',
    ]);
    await first.context.close();
  });
});

/**
 * Issue #22: while the parser runs, the observer watches only the elements the parser may still append to, and
 * every other route into the document is patched. The same guarantees on a page of about 10,000 elements: marked
 * scripts and iframes deep in it, in its last bytes, out of tree order (foster parenting, a script appending to
 * <body> while the parser is still inside <main>, a custom element that inserts a sibling after itself while the
 * parser is still inside it), and added by other scripts during and after the load by every route (appendChild,
 * append, insertAdjacentHTML, innerHTML, replaceChildren, Range.insertNode, Text.after, insertAdjacentElement,
 * setHTMLUnsafe, outerHTML) into elements the parser has long closed.
 */
describe('widget on a large page (issue #22)', () => {
  const frame = (tag: string, attr = 'src') => `<iframe ${attr}="http://localhost:${other.port}/frame.html?${tag}" width="100" height="50"></iframe>`;
  const block = (i: number) => `<section><h2>Block ${i}</h2><p>Text <a href="#b${i}">link</a> <span>more</span> <em>words</em></p><ul><li>a</li><li>b</li></ul></section>`;
  /** Where a marked script and iframe sit deep inside the page (five levels down, between plain blocks). */
  const deep = (tag: string) => `<div><div><article><div><p>deep</p><script src="/${tag}-tracker.js"></script>${frame(tag)}</div></article></div></div>`;

  function largePage(s: Setup): string {
    const parts: string[] = [];
    for (let i = 0; i < 1150; i++) {
      parts.push(block(i));
      if (i === 100) parts.push('<div id="early1"></div><div id="early2"></div><p id="early3">text</p><div id="early4"></div><div><p id="early5"></p></div><div id="early6"></div><div id="late1"><p id="late2"></p></div><div id="late3"></div><div id="late4"></div><div><p id="late5"></p></div>');
      if (i === 200) parts.push(deep('deep1'), '<div id="slot"></div>');
      // During parsing: an iframe written into an earlier element, and a node appended after the parser's position.
      if (i === 400) parts.push(`<script>document.getElementById('slot').innerHTML = '${frame('slot')}'; var tail = document.createElement('div'); tail.id = 'tail'; document.body.appendChild(tail);</script>`);
      if (i === 600) parts.push(deep('deep2'), `<table><tr><td>cell</td></tr><div><script src="/fostered-tracker.js"></script></div>${frame('fostered')}</table>`);
      if (i === 700) parts.push(`<script>(function () {
  var src = function (name) { return '/' + name + '-track' + 'er.js'; };
  var script = function (name) { var s = document.createElement('script'); s.src = src(name); return s; };
  var el = function (id) { return document.getElementById(id); };
  el('early1').replaceChildren(script('replace-children'));
  var range = document.createRange(); range.selectNodeContents(el('early2')); range.insertNode(script('range'));
  el('early3').firstChild.after(script('text-after'));
  el('early4').insertAdjacentElement('afterbegin', script('adjacent-element'));
  el('early5').outerHTML = ${JSON.stringify(frame('outer'))};
  el('early6').setHTMLUnsafe(${JSON.stringify(frame('unsafe'))});
})();
customElements.define('x-after', class extends HTMLElement { connectedCallback() { this.after(document.createElement('hr')); } });</script>`,
        // The parser is still inside <x-after> (and its <div>) when its callback has put an <hr> after it; the
        // inline script is a microtask checkpoint in between, so the observer has run before the rest arrives.
        `<x-after><div><p>custom</p><script>window.checkpoint = 1;</script><p>more</p>${frame('custom')}<script src="/custom-tracker.js"></script></div></x-after>`);
      if (i === 900) parts.push(deep('deep3'));
    }
    // After the load, other scripts add more, by every usual route. (The marker is split in this script's own
    // text, or the widget would rightly block the whole inline script.)
    const later = `<script>addEventListener('load', function () {
  var src = function (name) { return '/' + name + '-track' + 'er.js'; };
  var a = document.createElement('script'); a.src = src('append-child'); document.body.appendChild(a);
  var b = document.createElement('script'); b.src = src('append'); document.querySelector('article').append(b);
  document.querySelector('section:nth-of-type(500)').insertAdjacentHTML('beforeend', '<script src="' + src('adjacent') + '"><' + '/script>${frame('adjacent')}');
  document.querySelector('section:nth-of-type(800) ul').innerHTML = '<li>${frame('inner')}</li>';
  var c = document.createElement('script'); c.src = src('children-late'); document.getElementById('late1').replaceChildren(c);
  var r = document.createElement('script'); r.src = src('range-late');
  var range = document.createRange(); range.selectNodeContents(document.getElementById('late3')); range.insertNode(r);
  document.getElementById('late4').setHTMLUnsafe(${JSON.stringify(frame('unsafe-late'))});
  document.getElementById('late5').outerHTML = ${JSON.stringify(frame('outer-late'))};
  window.laterDone = true;
});</script>`;
    return `<!doctype html><html><head>${s.snippet}</head><body><main>${parts.join('\n')}</main>${later}<script src="/last-tracker.js"></script>${frame('last')}${frame('last-strict', 'data-ccm-src')}</body></html>`;
  }

  const TRACKERS = ['deep1', 'deep2', 'deep3', 'fostered', 'append-child', 'append', 'adjacent', 'last', 'replace-children', 'range', 'text-after', 'adjacent-element', 'custom', 'children-late', 'range-late'].map((t) => `/${t}-tracker.js`);
  const FRAMES = ['deep1', 'slot', 'deep2', 'fostered', 'deep3', 'adjacent', 'inner', 'last', 'last-strict', 'outer', 'unsafe', 'custom', 'unsafe-late', 'outer-late'];
  const frames = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('iframe')].map((f) => ({ src: f.getAttribute('src'), blocked: f.getAttribute('data-ccm-blocked') })),
    );

  it('blocks every marked script and iframe, deep, last, out of order and added later, until consent, then runs them', async () => {
    const s = await setup();
    const hitsBefore = other.hits.length;
    const { page, context } = await open(largePage(s));
    await page.waitForFunction(() => (window as unknown as { laterDone?: boolean }).laterDone);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeGreaterThan(10_000);
    expect(await ran(page)).toEqual([]);
    const before = await frames(page);
    expect(before).toHaveLength(FRAMES.length);
    for (const f of before) {
      // A frame written with src loses it (and its browsing context); a data-ccm-src frame never had an address.
      expect(f.src).toBeNull();
      expect(FRAMES.map((t) => `http://localhost:${other.port}/frame.html?${t}`)).toContain(f.blocked);
    }
    expect(other.hits.slice(hitsBefore)).not.toContain('/frame.html?last-strict');
    expect(await page.locator('.ccm-blocked').count()).toBe(FRAMES.length);
    await widget(page).locator('button.a').click();
    await waitRan(page, ...TRACKERS);
    expect(await ran(page)).toEqual([...TRACKERS].sort());
    await page.waitForFunction((n) => [...document.querySelectorAll('iframe')].filter((f) => f.src.includes('/frame.html?')).length === n, FRAMES.length);
    expect(await page.locator('.ccm-blocked').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('blocks an iframe that document.write puts into a new document after the load, and loads it on consent', async () => {
    const s = await setup();
    const { page, context } = await open(pageHtml(s));
    const from = other.hits.length;
    // After the load, document.write opens a new document: the old <html> and everything observed on it are gone.
    await page.evaluate((html) => {
      document.open();
      document.write(html);
      document.close();
    }, `<!doctype html><html><body><p>rewritten</p>${frame('written')}</body></html>`);
    await page.waitForTimeout(300);
    expect(await frames(page)).toEqual([{ src: null, blocked: `http://localhost:${other.port}/frame.html?written` }]);
    expect(frameRuns(from)).toBe(0);
    await page.locator('.ccm-blocked button').first().click();
    await expect.poll(() => frames(page), { timeout: 15_000 }).toEqual([{ src: `http://localhost:${other.port}/frame.html?written`, blocked: null }]);
    await expect.poll(() => frameRuns(from), { timeout: 15_000 }).toBe(1);
    await context.close();
  }, 60_000);

  it('runs them at once for a returning visitor who accepted', async () => {
    const s = await setup();
    const { page, context } = await open(largePage(s));
    await widget(page).locator('button.a').click();
    await waitRan(page, ...TRACKERS);
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { laterDone?: boolean }).laterDone);
    // A script that insertAdjacentHTML inserts never runs in a browser, and with consent given the widget
    // leaves it alone; it ran above only because the widget blocked it and then inserted a runnable copy.
    const runnable = TRACKERS.filter((t) => t !== '/adjacent-tracker.js');
    await waitRan(page, ...runnable);
    expect(await ran(page)).toEqual([...runnable].sort());
    await page.waitForFunction((n) => [...document.querySelectorAll('iframe')].filter((f) => f.src.includes('/frame.html?')).length === n, FRAMES.length);
    expect(await page.locator('.ccm-blocked').count()).toBe(0);
    await context.close();
  }, 60_000);
});
