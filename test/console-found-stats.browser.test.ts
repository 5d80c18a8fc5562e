import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, axeViolations, shot, useConsole } from './console-browser.js';
import { DIALECTS, consentToken, createClient, createDomain, sendConsent, type TestContext } from './helper.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A client with a domain that records scripts and names, as the found-items tests make one, and its Hosting API paths. */
async function site(ctx: TestContext) {
  const client = await createClient(ctx, { password: PASSWORD, active: true, company: 'Shop GmbH' });
  const domain = await createDomain(ctx, client.id);
  const api = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const put = await ctx.hosting({ method: 'PUT', url: api, payload: { recordScriptsOnWebsite: true, permanentScanEnabled: true } });
  expect(put.statusCode, put.body).toBe(200);
  const revision = async () =>
    (await ctx.database.db.selectFrom('domains').select('config_revision').where('id', '=', domain.id).executeTakeFirstOrThrow()).config_revision;
  /** What the reporter chunk sends: POST /public/found with the delivery's widget token. */
  const report = async (items: { k: string; v: string }[], ip = '198.51.100.20') => {
    const r = await revision();
    const res = await ctx.app.inject({
      method: 'POST', url: '/public/found', remoteAddress: ip,
      headers: { 'content-type': 'text/plain', origin: `https://${domain.name}` },
      payload: JSON.stringify({ domain: domain.id, revision: r, token: await consentToken(ctx, domain.id, r), page: `https://${domain.name}/shop?q=1`, items }),
    });
    expect(res.statusCode, res.body).toBe(204);
  };
  const get = async (path: string) => {
    const res = await ctx.hosting({ method: 'GET', url: `${api}${path}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const embedding = async (payload: Record<string, unknown>) => {
    const res = await ctx.hosting({ method: 'POST', url: `${api}/embedding`, payload: { purpose: 'a717ff5', ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  return { client, domain, api, report, get, embedding, revision };
}

const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe(`${DIALECTS[0]}: the console's found items and statistics in Chromium`, { timeout: 120_000 }, () => {
  // Counts reach the database every 50 ms, so the figures are there when the page reads them.
  const { ctx, newPage, signInAgency, signInClientDe, openDomain } = useConsole({ config: { counterFlushIntervalMs: 50 } });

  it('lists found items with filters and pages, ignores one and makes it new again, adopts one (a refused adopt in the API\'s words)', async () => {
    const s = await site(ctx);
    const tracker = await s.embedding({ name: 'Tracker' });
    // An embedding at its 100 markers cannot take one more: adopting into it is refused.
    await s.embedding({ name: 'Full', scriptMarkers: Array.from({ length: 100 }, (_, i) => `m${i}.example`) });
    await s.report([
      { k: 'script', v: 'https://cdn.tracker.example/t.js?uid=1' },
      { k: 'script', v: 'https://other.example/o.js' },
      { k: 'iframe', v: 'https://video.example/embed/1' },
      { k: 'localStorage', v: 'ls_key' },
      ...Array.from({ length: 21 }, (_, i) => ({ k: 'cookie', v: `_c${String(i).padStart(2, '0')}` })),
    ]);
    const items = (await s.get('/found?limit=100')).items as { id: string; key: string; state: string }[];
    expect(items).toHaveLength(25);
    const stateOf = async (key: string) => ((await s.get('/found?limit=100')).items as { key: string; state: string }[]).find((i) => i.key === key)!.state;

    const page = await newPage();
    await signInAgency(page);
    await openDomain(page, s.client.id, s.domain);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Found items', level: 2 }) });
    const table = panel.getByRole('table', { name: 'Found items' });

    // Pages of 20: the first page, then the rest.
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 1–20 of 25.');
    expect(await table.locator('tbody tr').count()).toBe(20);
    await panel.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 21–25 of 25.');
    expect(await table.locator('tbody tr').count()).toBe(5);
    expect(await panel.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    // The kind filter: the two scripts, with host + path (no query), the first page (no query), kind and state.
    await panel.getByLabel('Kind').selectOption('script');
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 1–2 of 2.');
    const row = table.getByRole('row', { name: /cdn\.tracker\.example\/t\.js/ });
    const cells = await row.locator('th, td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['cdn.tracker.example/t.js', 'script', `https://${s.domain.name}/shop`]);
    expect(cells[5]).toBe('1');
    expect(cells[6]).toBe('new');
    expect(cells[3]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await table.textContent()).not.toContain('uid=1');

    // Ignore, then back to new; each checked through the API.
    await panel.getByRole('button', { name: 'Ignore: cdn.tracker.example/t.js' }).click();
    await expect.poll(() => panel.getByRole('status').last().textContent()).toBe('Ignored: cdn.tracker.example/t.js.');
    expect(await stateOf('cdn.tracker.example/t.js')).toBe('ignored');
    await panel.getByLabel('State').selectOption('ignored');
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 1–1 of 1.');
    await panel.getByRole('button', { name: 'Back to new: cdn.tracker.example/t.js' }).click();
    await expect.poll(() => panel.getByRole('status').last().textContent()).toBe('New again: cdn.tracker.example/t.js.');
    expect(await stateOf('cdn.tracker.example/t.js')).toBe('new');
    await panel.getByText('Nothing found (with this filter).').waitFor();
    await panel.getByLabel('State').selectOption('');

    // Adopt into the full embedding: refused, in the API's words, and nothing changes.
    await panel.getByRole('button', { name: 'Adopt into an embedding… other.example/o.js' }).click();
    const adopt = panel.locator('form.editor');
    const adoptHeading = adopt.getByRole('heading', { name: 'Adopt other.example/o.js into an embedding' });
    await adoptHeading.waitFor();
    expect(await adoptHeading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await adopt.textContent()).toContain('Its host becomes a script marker of the embedding.');
    await adopt.getByLabel('Embedding').selectOption({ label: 'Full' });
    await adopt.getByRole('button', { name: 'Adopt', exact: true }).click();
    const alert = panel.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('A limit on the number of items was reached.');
    expect(await alert.textContent()).toContain('scriptMarkers: an embedding has at most 100 markers');
    expect(await stateOf('other.example/o.js')).toBe('new');
    // Then into "Tracker": its host becomes the embedding's script marker and the item is adopted.
    await adopt.getByLabel('Embedding').selectOption({ label: 'Tracker' });
    await adopt.getByRole('button', { name: 'Adopt', exact: true }).click();
    await expect.poll(() => panel.getByRole('status').last().textContent()).toBe('Adopted into Tracker: other.example/o.js.');
    expect(await panel.getByRole('alert').count()).toBe(0);
    await adopt.waitFor({ state: 'detached' });
    expect(await stateOf('other.example/o.js')).toBe('adopted');
    expect((await s.get(`/embedding/${tracker}`)).scriptMarkers).toEqual(['other.example']);
    expect(await table.getByRole('row', { name: /other\.example/ }).locator('td').nth(5).textContent()).toBe('adopted');
    expect(await panel.getByRole('button', { name: 'Adopt into an embedding… other.example/o.js' }).count()).toBe(0);

    // A cookie becomes an asset of the embedding.
    await panel.getByLabel('Kind').selectOption('cookie');
    // 21 cookies on pages of 20, all first seen in the same report: which one the first page leaves out depends on
    // their random ids (the list's tie-break), so the cookie adopted is one the page shows.
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 1–20 of 21.');
    const cookie = (await table.locator('tbody tr').first().locator('th, td').first().textContent())!;
    expect(cookie).toMatch(/^_c\d\d$/);
    await panel.getByRole('button', { name: `Adopt into an embedding… ${cookie}` }).click();
    expect(await adopt.textContent()).toContain('It becomes a cookie of the embedding.');
    await adopt.getByLabel('Embedding').selectOption({ label: 'Tracker' });
    await adopt.getByRole('button', { name: 'Adopt', exact: true }).click();
    await expect.poll(() => panel.getByRole('status').last().textContent()).toBe(`Adopted into Tracker: ${cookie}.`);
    expect((await s.get(`/embedding/${tracker}/asset`)).map((a: { name: string; storageType: string }) => `${a.storageType}:${a.name}`)).toEqual([`cookie:${cookie}`]);
    expect(await stateOf(cookie)).toBe('adopted');
    // The embeddings list above was read again: "Tracker" now has its cookie.
    await expect.poll(() => page.locator('section', { has: page.getByRole('heading', { name: 'Embeddings', level: 2 }) }).locator('ul.list').first().textContent())
      .toContain('Tracker · Analytics · active · 1 cookies');

    // Ignoring the last items of the last page of "new" items: the list steps back to the page before.
    await panel.getByLabel('Kind').selectOption('');
    await panel.getByLabel('State').selectOption('new');
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 1–20 of 23.');
    await panel.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => panel.getByRole('status').first().textContent()).toBe('Items 21–23 of 23.');
    for (let left = 2; left >= 0; left--) {
      await table.getByRole('button', { name: /^Ignore: / }).first().click();
      await expect.poll(() => panel.getByRole('status').first().textContent()).toBe(left > 0 ? `Items 21–${20 + left} of ${20 + left}.` : 'Items 1–20 of 20.');
    }
    expect(((await s.get('/found?state=ignored')).total)).toBe(3);
    await panel.getByLabel('State').selectOption('');
    await panel.getByLabel('Kind').selectOption('localStorage');
    await panel.getByRole('button', { name: 'Adopt into an embedding… ls_key' }).click();
    await adopt.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'found', panel);
  });

  it('shows the statistics of a range with the acceptance-rate chart and the CSV export; a refused range in the API\'s words', async () => {
    const s = await site(ctx);
    const analytics = await s.embedding({ name: 'Analytics' });
    const revision = await s.revision();
    // Two counted widget loads, three banner displays, three decisions (accept all, decline, a selection).
    for (const ip of ['198.51.100.31', '198.51.100.32']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${s.client.apiKey}&domain=${s.domain.id}`, headers: { referer: `https://${s.domain.name}/`, 'user-agent': CHROME }, remoteAddress: ip });
      expect(res.statusCode).toBe(200);
    }
    for (const ip of ['198.51.100.31', '198.51.100.32', '198.51.100.33']) {
      const res = await ctx.app.inject({
        method: 'POST', url: '/public/display', remoteAddress: ip, headers: { 'content-type': 'text/plain', origin: `https://${s.domain.name}` },
        payload: JSON.stringify({ domain: s.domain.id, revision, token: await consentToken(ctx, s.domain.id, revision) }),
      });
      expect(res.statusCode).toBe(204);
    }
    await sendConsent(ctx, s.client, s.domain, { button: 'acceptAll', embeddings: [analytics], revision });
    await sendConsent(ctx, s.client, s.domain, { button: 'declineAll', consent: false, embeddings: [], revision });
    await sendConsent(ctx, s.client, s.domain, { button: 'save', embeddings: [analytics], revision });
    await expect.poll(async () => (await s.get('/statistics')).totals.decisions, { timeout: 5000 }).toBe(3);
    await expect.poll(async () => (await s.get('/statistics')).totals.calls, { timeout: 5000 }).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);

    const page = await newPage({ acceptDownloads: true });
    await signInAgency(page);
    await openDomain(page, s.client.id, s.domain);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Statistics', level: 2 }) });
    // The default range is the API's: the last 30 days.
    await expect.poll(() => panel.getByRole('status').textContent()).toBe(`30 days from ${from} to ${today}: 2 widget calls, 3 decisions.`);
    expect(await panel.getByLabel('From', { exact: true }).inputValue()).toBe(from);
    expect(await panel.getByLabel('To', { exact: true }).inputValue()).toBe(today);
    const table = panel.getByRole('table', { name: 'Figures per day' });
    expect(await table.locator('thead th').allTextContents()).toEqual(['Day', 'Widget calls', 'Banner displays', 'Accept all', 'Decline', 'Custom', 'Bounces', 'Acceptance rate']);
    expect(await table.locator('tbody tr').count()).toBe(30);
    // Newest first: today's figures; the day before has none.
    expect(await table.locator('tbody tr').first().locator('th, td').allTextContents()).toEqual([today, '2', '3', '1', '1', '1', '0', '66.7%']);
    expect(await table.locator('tbody tr').nth(1).locator('td').last().textContent()).toBe('no decisions');
    expect(await table.locator('tfoot tr').locator('th, td').allTextContents()).toEqual(['Total', '2', '3', '1', '1', '1', '0', '66.7%']);
    // The chart: one image named by its text alternative, one bar (today, the only day with decisions) at 2/3 of its height.
    const chart = panel.getByRole('img', { name: `Acceptance rate per day from ${from} to ${today}, 66.7% over the whole range; each day's rate is in the table below.` });
    expect(await chart.locator('rect').count()).toBe(1);
    expect(await chart.locator('rect').getAttribute('data-day')).toBe(today);
    expect(Number(await chart.locator('rect').getAttribute('height'))).toBeCloseTo(66.67, 1);
    // The CSV export: the API's download for the range shown.
    const link = panel.getByRole('link', { name: 'Download as CSV' });
    expect(await link.getAttribute('href')).toBe(`../hosting/api/client/${s.client.id}/domain/${s.domain.id}/statistics?from=${from}&to=${today}&format=csv`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^day,calls,displays,decisions,acceptAll,decline,custom,consented,bounces,acceptanceRate,/);
    expect(lines).toHaveLength(31);
    expect(lines.at(-1)).toMatch(new RegExp(`^${today},2,3,3,1,1,1,2,0,0.6667,`));
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'statistics', panel);

    // A single day; then a range the API refuses (over 366 days), shown in its words.
    await panel.getByLabel('From', { exact: true }).fill(today);
    await panel.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toBe(`1 day from ${today} to ${today}: 2 widget calls, 3 decisions.`);
    expect(await table.locator('tbody tr').count()).toBe(1);
    await panel.getByLabel('From', { exact: true }).fill('2020-01-01');
    await panel.getByRole('button', { name: 'Show' }).click();
    const alert = panel.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('at most 366 days at once');
    expect(await alert.textContent()).toContain('querystring.from');
    expect(await panel.getByRole('table').count()).toBe(0);
  });

  it('client in German at 390 px: found items and statistics, a refused statistics read without the feature', async () => {
    const s = await site(ctx);
    await s.report([{ k: 'script', v: 'https://cdn.tracker.example/t.js' }, { k: 'sessionStorage', v: 'cart' }], '198.51.100.40');
    await sendConsent(ctx, s.client, s.domain, { button: 'acceptAll', embeddings: [], revision: await s.revision() });
    await expect.poll(async () => (await s.get('/statistics')).totals.decisions, { timeout: 5000 }).toBe(1);
    const today = new Date().toISOString().slice(0, 10);

    const page = await newPage({ width: 390, height: 800, locale: 'de-DE' });
    await signInClientDe(page, s.client, 'Shop GmbH');
    await openDomain(page, s.client.id, s.domain);

    const found = page.locator('section', { has: page.getByRole('heading', { name: 'Gefundene Einträge', level: 2 }) });
    await expect.poll(() => found.getByRole('status').first().textContent()).toBe('Einträge 1–2 von 2.');
    expect(await found.getByRole('table').locator('thead th').allTextContents())
      .toEqual(['Skript, Iframe oder Name', 'Art', 'Zuerst gesehen auf', 'Zuerst gesehen', 'Zuletzt gesehen', 'Meldungen', 'Zustand', 'Aktionen']);
    expect(await found.getByRole('row', { name: /cart/ }).locator('td').first().textContent()).toBe('Session Storage');
    // The client may ignore its own domain's item, as through the API.
    await found.getByRole('button', { name: 'Ignorieren: cart' }).click();
    await expect.poll(() => found.getByRole('status').last().textContent()).toBe('Ignoriert: cart.');
    expect(((await s.get('/found')).items as { key: string; state: string }[]).find((i) => i.key === 'cart')!.state).toBe('ignored');
    // Adopting with no embedding: the form says so and offers no button that would do anything.
    await found.getByRole('button', { name: 'In eine Einbindung übernehmen… cart' }).click();
    await found.getByText('Diese Domain hat noch keine Einbindungen.', { exact: false }).waitFor();
    expect(await found.getByRole('button', { name: 'Übernehmen', exact: true }).isDisabled()).toBe(true);

    const stats = page.locator('section', { has: page.getByRole('heading', { name: 'Statistik', level: 2 }) });
    await expect.poll(() => stats.getByRole('status').textContent()).toContain('30 Tage vom');
    expect(await stats.getByRole('table', { name: 'Zahlen pro Tag' }).locator('tbody tr').first().locator('th, td').allTextContents())
      .toEqual([today, '0', '0', '1', '0', '0', '0', '100\u00a0%']);
    await stats.getByRole('link', { name: 'Als CSV herunterladen' }).waitFor();
    await stats.getByRole('img', { name: /^Zustimmungsrate pro Tag vom / }).waitFor();

    await page.evaluate(() => document.querySelectorAll('.table-wrap').forEach((w) => { w.scrollLeft = 0; }));
    await shot(page, 'found-mobile', found);
    // Also with the tables scrolled to their far end, as after reaching a row's last button: nothing they hold
    // (their screen-reader-only captions included) may widen the page.
    await page.evaluate(() => document.querySelectorAll('.table-wrap').forEach((w) => { w.scrollLeft = w.scrollWidth; }));
    await expect.poll(() => noSideways(page), { timeout: 15_000 }).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    // Without canUseAnalytics the API refuses, and the section says so in its words.
    await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${s.client.id}`, payload: { features: { canUseAnalytics: false } } });
    await stats.getByRole('button', { name: 'Anzeigen' }).click();
    await expect.poll(() => stats.getByRole('alert').textContent()).toContain('The client does not have the feature this needs.');
    expect(await stats.getByRole('alert').textContent()).toContain('features.canUseAnalytics');
    expect(await stats.getByRole('table').count()).toBe(0);
  });
});
