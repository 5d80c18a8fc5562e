import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { axeViolations, shot, useConsole } from './console-browser.js';
import { startTestSites, type TestSites } from './fixtures/onboarding/test-site.js';
import { DIALECTS, HOSTING_KEY, createClient, createDomain } from './helper.js';

describe(`${DIALECTS[0]}: the console's onboarding flow in Chromium`, { timeout: 180_000 }, () => {
  // The test site runs on 127.0.0.1, which the scanner's SSRF guard refuses unless allowed.
  const suite = useConsole({ config: { scan: { ...testConfig().scan, allowPrivateNetworks: true } } });
  const { ctx, newPage, signInAgency, openDomain } = suite;
  let sites: TestSites;
  beforeAll(async () => {
    sites = await startTestSites();
  }, 60_000);
  afterAll(async () => {
    await sites?.close();
  });

  it('scans with visible progress, lists what it found, imports services and cookies, and shows the snippet to copy', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id, { name: sites.siteUrl });
    const domainUrl = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const page = await newPage({ clipboard: true });
    await signInAgency(page);
    await openDomain(page, client.id, domain);

    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Set up from a scan' }) });
    await panel.getByRole('button', { name: 'Scan the website' }).click();
    // While the scan runs: a progress bar, the time so far, the section busy and the button disabled.
    await panel.getByRole('progressbar', { name: 'Scan in progress' }).waitFor();
    expect(await panel.getAttribute('aria-busy')).toBe('true');
    expect(await panel.getByRole('button', { name: 'Scan the website' }).isDisabled()).toBe(true);
    await expect.poll(() => panel.getByRole('status').first().textContent(), { timeout: 90_000 }).toContain('Scan finished');
    expect(await panel.getByRole('progressbar').count()).toBe(0);

    // What was found: legal pages, address, services with why, cookies and storage.
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain(`${sites.siteUrl}/impressum`);
    expect(text).toContain('Beispiel Consulting GmbH');
    await panel.getByRole('checkbox', { name: /^Matomo · Analytics/ }).waitFor();
    expect(await panel.getByRole('checkbox', { name: /^Matomo/ }).isChecked()).toBe(true);
    const storage = panel.getByRole('table', { name: 'Cookies and storage entries found' });
    expect(await storage.textContent()).toContain('PHPSESSID');
    expect(await storage.textContent()).toContain('_hjRecordingEnabled');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'onboarding', panel);

    // Import the services found (switched on), then embeddings for the cookies.
    const presetCount = await panel.getByRole('checkbox', { name: / · / }).count();
    await panel.getByRole('checkbox', { name: 'Switch the imported services on right away' }).check();
    await panel.getByRole('button', { name: 'Import the selected services' }).click();
    await expect.poll(() => panel.getByRole('status').filter({ hasText: 'Imported' }).textContent()).toBe(`Imported: ${presetCount} (${presetCount} new).`);
    const embeddings = (await ctx.hosting({ method: 'GET', url: `${domainUrl}/embedding` })).json<{ name: string; active: boolean }[]>();
    expect(embeddings.length).toBe(presetCount);
    expect(embeddings.find((e) => e.name === 'Matomo')).toMatchObject({ active: true });
    // The embeddings list of the page shows them without a reload.
    const list = page.locator('section', { has: page.getByRole('heading', { name: 'Embeddings', level: 2 }) }).locator('ul.list').first();
    await expect.poll(() => list.textContent()).toContain('Matomo');
    await panel.getByRole('button', { name: 'Create embeddings for these cookies and entries' }).click();
    await expect.poll(() => panel.getByRole('status').filter({ hasText: 'Embeddings created' }).count()).toBe(1);
    const after = (await ctx.hosting({ method: 'GET', url: `${domainUrl}/embedding` })).json<{ assets: { name: string }[] }[]>();
    expect(after.flatMap((e) => e.assets.map((a) => a.name))).toEqual(expect.arrayContaining(['PHPSESSID', 'cart_draft']));

    // The last step: the snippet, copied.
    const step = panel.locator('section', { has: page.getByRole('heading', { name: 'Snippet' }) });
    await expect.poll(() => step.locator('pre').textContent()).toContain(`domain=${domain.id}`);
    await step.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`domain=${domain.id}`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('explains a failed scan in the API\'s words', async () => {
    const client = await createClient(ctx);
    // Nothing listens on port 9 of 127.0.0.1: the scan fails with the API's message.
    const domain = await createDomain(ctx, client.id, { name: 'http://127.0.0.1:9' });
    const page = await newPage({ width: 390, height: 844, locale: 'de-DE' });
    await page.goto(suite.base);
    await page.getByLabel('Agentur').check();
    await page.getByLabel('Hosting-API-Schlüssel').fill(HOSTING_KEY);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { name: 'Kunden', level: 1 }).waitFor();
    await openDomain(page, client.id, domain);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Einrichten per Scan' }) });
    await panel.getByRole('button', { name: 'Website scannen' }).click();
    await panel.getByRole('alert').waitFor({ timeout: 90_000 });
    // The same call made directly (after the console's, so the two never compete for the scanner).
    const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/scan` });
    const message = res.json<{ error: { message: string } }>().error.message;
    expect(await panel.getByRole('alert').textContent()).toContain(message);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 15_000 }).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
