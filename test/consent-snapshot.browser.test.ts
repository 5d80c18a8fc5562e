import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import type { DatabaseHandle } from '../src/db/connect.js';
import { snapshotOf } from '../src/features/consent-log/consent-log.snapshot.js';
import { type BrowserApp, hostingCall, type Site, startBrowserApp } from './browser.js';
import { unique } from './helper.js';
import { namedTexts } from '../widget/src/text-fields.js';

/**
 * The snapshot hash in real Chromium: the hash the widget sends with a decision is the one of the
 * configuration it rendered (docs/consent-log.md, "Snapshots").
 */
const KEY = 'browser-test-hosting-key-0123456789';

let browser: Browser;
let site: Site;
let app: App;
let env: BrowserApp;
let database: DatabaseHandle;
let appUrl = '';

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  ({ site, app, database, appUrl, browser } = env);
});

afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);

/** The configuration inlined into a served widget (as `JSON.parse("…")`). */
function inlinedConfig(body: string): Record<string, unknown> & { sh: string } {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  if (!match) throw new Error('no configuration in the widget');
  return JSON.parse(JSON.parse(match[1]!) as string) as Record<string, unknown> & { sh: string };
}

describe('consent snapshot in Chromium', () => {
  it('sends with each decision the hash of the configuration it rendered, and a new one after a text change', { timeout: 60_000 }, async () => {
    const client = await hosting('POST', '/client', { username: unique('s'), password: 'long enough pw', emailAddress: 's@example.com' });
    const domain = await hosting('POST', `/client/${client.id}/domain`, { name: `http://127.0.0.1:${site.port}` });
    const base = `/client/${client.id}/domain/${domain.id}`;
    await hosting('POST', `${base}/locale`, { name: 'en', widgetIntroText: 'First wording of the banner.' });
    const snippet = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
    site.setPage('/snap', `<!doctype html><html><head>${snippet}</head><body><h1>Shop</h1></body></html>`);

    const decide = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      let served = '';
      page.on('response', async (res) => {
        if (res.url().includes('/public/app.js')) served = await res.text();
      });
      const sent = page.waitForRequest((req) => req.url().endsWith('/public/consent') && req.method() === 'POST');
      await page.goto(`${site.url}/snap`);
      const banner = page.locator('#ccm-widget [role="dialog"]');
      const shownText = await banner.innerText();
      await page.locator('#ccm-widget button.a').click();
      const body = JSON.parse((await sent).postData() ?? '{}') as { snapshot?: string };
      await context.close();
      const config = inlinedConfig(served);
      return { shownText, sent: body.snapshot, config };
    };

    const first = await decide();
    expect(first.shownText).toContain('First wording of the banner.');
    // What was sent is the key of exactly the configuration the page got, computed here independently.
    expect(first.sent).toBe(first.config.sh);
    expect(first.sent).toBe(snapshotOf(first.config).hash);
    expect(JSON.stringify(namedTexts((first.config.loc as Record<string, { t: string[] }>).en!.t).widgetIntroText)).toContain('First wording');

    await hosting('PUT', `${base}/locale/en`, { widgetIntroText: 'Second wording of the banner.' });
    const second = await decide();
    expect(second.shownText).toContain('Second wording of the banner.');
    expect(second.sent).toBe(snapshotOf(second.config).hash);
    expect(second.sent).not.toBe(first.sent);

    // Both decisions were logged, each naming the snapshot of what its visitor saw.
    const rows = await database.db.selectFrom('consent_records').select('record').where('domain_id', '=', domain.id).orderBy('seq').execute();
    expect(rows.map((r) => (JSON.parse(r.record) as { snapshot: string }).snapshot)).toEqual([first.sent, second.sent]);
  });
});
