import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { CHROMIUM } from './browser.js';
import { PASSWORD, axeViolations, shot, useConsole } from './console-browser.js';
import { serve, type LocalServer } from './fixtures/onboarding/test-site.js';
import { createClient, createDomain } from './helper.js';

/**
 * The enforcement audit in the console, against a real site: the app listens on the port its public URL names (the
 * snippet loads the real widget), a site on 127.0.0.1 with the snippet, and a third party on `localhost` whose
 * script the page loads unmarked (a leak) and whose video iframe is written with `src` (a leak of an embedding).
 */
describe.skipIf(!CHROMIUM)('the console\'s enforcement audit in Chromium', { timeout: 180_000 }, () => {
  const { ctx, newPage, signInAgency, signInClientDe, openDomain } = useConsole({
    publicUrl: true, config: { scan: { ...testConfig().scan, allowPrivateNetworks: true, maxPages: 5, timeoutMs: 60_000 } },
  });
  let site: LocalServer;
  let other: LocalServer;
  const pages = new Map<string, string>();
  beforeAll(async () => {
    other = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/js/leaky.js') return void res.writeHead(200, { 'content-type': 'application/javascript' }).end(`document.cookie = 'leak_id=1; path=/';`);
      if (path === '/embed/video.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>video</p>');
      res.writeHead(204).end();
    }, 'localhost');
    site = await serve((req, res) => {
      const body = pages.get(req.url ?? '');
      if (!body) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
  }, 90_000);
  afterAll(async () => {
    await site?.close();
    await other?.close();
  });

  it('runs the audit with visible progress and shows per page and state the violations with their fixes', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}` });
    const tp = `localhost:${other.port}`;
    const added = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain/${domain.id}/embedding`, payload: { name: 'Video', purpose: '6cd2721', iframeMarkers: [`${tp}/embed/`] } });
    expect(added.statusCode, added.body).toBe(201);
    const snippet = `<script src="${ctx.config.publicUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
    const html = (body: string) => `<!doctype html><html><head>${snippet}</head><body>${body}</body></html>`;
    pages.set('/', html(`<h1>Shop</h1><a href="/contact">Contact</a><script src="http://${tp}/js/leaky.js"></script>`));
    pages.set('/contact', html(`<h1>Contact</h1><iframe src="http://${tp}/embed/video.html" width="300" height="150"></iframe>`));
    const root = `http://127.0.0.1:${site.port}`;

    const page = await newPage();
    await signInAgency(page);
    await openDomain(page, client.id, domain);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Enforcement audit', level: 2 }) });
    await panel.getByRole('button', { name: 'Run the audit' }).click();
    // While it runs: a progress bar, the section busy, the button disabled.
    await panel.getByRole('progressbar', { name: 'Audit in progress' }).waitFor();
    expect(await panel.getAttribute('aria-busy')).toBe('true');
    expect(await panel.getByRole('button', { name: 'Run the audit' }).isDisabled()).toBe(true);
    await expect.poll(() => panel.getByRole('status').textContent(), { timeout: 120_000 }).toMatch(/^Audit finished: 2 pages, \d+ violations\.$/);
    expect(await panel.getAttribute('aria-busy')).toBe('false');
    expect(await panel.getByRole('progressbar').count()).toBe(0);
    const violations = Number(/(\d+) violations/.exec((await panel.getByRole('status').textContent())!)![1]);

    // The home page: the unmarked script before a decision and after "decline", claimed by nothing, with its fix.
    for (const state of ['Before any decision', 'After "decline"']) {
      const table = panel.getByRole('table', { name: `${state}: ${root}/` });
      const row = table.getByRole('row', { name: new RegExp(`${tp}/js/leaky\\.js`) });
      const cells = await row.locator('th, td').allTextContents();
      expect(cells.slice(0, 3), state).toEqual([`http://${tp}/js/leaky.js`, 'request (script)', 'unknown']);
      expect(cells[3], state).toContain(`add script marker ${tp}`);
      expect(await table.getByRole('row', { name: /^leak_id cookie/ }).count(), state).toBe(1);
    }
    // The contact page: the iframe written with src belongs to the embedding "Video"; the fix is the markup.
    const contact = panel.getByRole('table', { name: `Before any decision: ${root}/contact` });
    const frame = await contact.getByRole('row', { name: /embed\/video\.html/ }).locator('th, td').allTextContents();
    expect(frame).toEqual([`http://${tp}/embed/video.html`, 'request (document)', 'embedding Video',
      'iframe on /contact: use data-ccm-src instead of src (the browser requests an iframe\'s src before any script can block it)']);
    // With Placet unreachable, the tag alone (no fallback) lets the script run: the fix is the fallback.
    const down = panel.getByRole('table', { name: `While Placet could not be reached: ${root}/` });
    const leaked = await down.getByRole('row', { name: new RegExp(`${tp}/js/leaky\\.js`) }).locator('th, td').allTextContents();
    expect(leaked[3]).toMatch(new RegExp(`^${tp} on / while Placet could not be reached: the snippet has no fallback`));
    // Every violation of the report is in a table, and the count says so.
    expect(await panel.locator('tbody tr').count()).toBe(violations);
    expect(await panel.getByRole('heading', { name: `Page: ${root}/contact`, level: 3 }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: 'Run the audit again' }).isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'audit', panel);
  });

  it('a client in German at 390 px: a site that answers with an error is explained in the API\'s words', async () => {
    const client = await createClient(ctx, { password: PASSWORD, active: true, company: 'Shop GmbH' });
    const domain = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/missing` });
    const page = await newPage({ width: 390, height: 800, locale: 'de-DE' });
    await signInClientDe(page, client, 'Shop GmbH');
    await openDomain(page, client.id, domain);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Prüfung der Blockierung', level: 2 }) });
    await panel.getByRole('button', { name: 'Prüfung starten' }).click();
    await expect.poll(() => panel.getByRole('alert').textContent(), { timeout: 60_000 }).toContain('The website answered with an error status or empty content.');
    expect(await panel.getByRole('status').textContent()).toBe('');
    expect(await panel.getByRole('table').count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Prüfung starten' }).isEnabled()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 15_000 }).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
