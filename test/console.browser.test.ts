import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PASSWORD, axeViolations, shot, useConsole } from './console-browser.js';
import { DIALECTS, HOSTING_KEY, createClient, createDomain, sendConsent } from './helper.js';

/** The configuration inlined into a served widget (as `JSON.parse("…")`), as a page of the domain gets it. */
function inlinedConfig(body: string): { sh: string; tk: string; r: number; lr: number } {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  if (!match) throw new Error(`no configuration in ${body.slice(0, 200)}`);
  return JSON.parse(JSON.parse(match[1]!) as string) as { sh: string; tk: string; r: number; lr: number };
}

describe(`${DIALECTS[0]}: the console in Chromium`, { timeout: 120_000 }, () => {
  const suite = useConsole();
  const { ctx, signInAgency, openDomain } = suite;
  // The snippet and the consent log's hashes are copied: every page may use the clipboard.
  const newPage = (width?: number, locale?: string) => suite.newPage({ width, locale, clipboard: true });

  it('agency: signs in with the key, creates and edits a client, adds a domain, edits settings, copies the snippet', async () => {
    const page = await newPage();
    await page.goto(suite.base);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'sign-in');

    // A wrong key: the API's message in words, the form keeps its value.
    await page.getByLabel('Agency').check();
    await page.getByLabel('Hosting API key').fill('wrong key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong key, username or password');
    expect(await page.getByLabel('Hosting API key').inputValue()).toBe('wrong key');

    await page.getByLabel('Hosting API key').fill(HOSTING_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();

    // Create a client; a taken username is explained and what was typed stays.
    const existing = await createClient(ctx);
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'New client' }) });
    await form.getByLabel('Username').fill(existing.username);
    await form.getByLabel('E-mail address').fill('shop@example.com');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByLabel('Company').fill('Shop GmbH');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('This username is already taken.');
    expect(await form.getByLabel('Company').inputValue()).toBe('Shop GmbH');
    await form.getByLabel('Username').fill('shop-owner');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'shop-owner' }).waitFor();
    expect(await page.getByRole('row', { name: /shop-owner/ }).textContent()).toContain('Shop GmbH');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'clients');

    // Edit the client: quotas, a feature, deactivate.
    await page.getByRole('link', { name: 'shop-owner' }).click();
    await page.getByRole('heading', { name: 'Shop GmbH', level: 1 }).waitFor();
    await page.getByLabel('Maximum domains').fill('3');
    await page.getByLabel('canUseIAB').uncheck();
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Saved.');
    const shop = (await ctx.hosting({ method: 'GET', url: '/hosting/api/client/by-username/shop-owner' })).json();
    expect(shop).toMatchObject({ domainMaxCount: 3, features: { canUseIAB: false, canUseScripts: true }, active: true });
    // Without canUseDomAPI the console offers no Domain API key (the server would refuse one).
    const keyHeading = () => page.getByRole('heading', { name: 'Domain API key' }).count();
    expect(await keyHeading()).toBe(1);
    await page.getByLabel('canUseDomAPI').uncheck();
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(keyHeading).toBe(0);
    await page.getByLabel('canUseDomAPI').check();
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(keyHeading).toBe(1);

    // A domain: a bad name is explained; a good one is created and opened.
    const domainForm = page.locator('form', { has: page.getByRole('heading', { name: 'New domain' }) });
    await domainForm.getByLabel('Domain name').fill('not a domain!');
    await domainForm.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => domainForm.getByRole('alert').textContent()).toContain('not a valid host name');
    await domainForm.getByLabel('Domain name').fill('https://www.shop.example/de/');
    await domainForm.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'www.shop.example/de/' }).click();
    await page.getByRole('heading', { name: 'www.shop.example/de/', level: 1 }).waitFor();
    await expect.poll(() => page.locator('pre.snippet').textContent()).toContain(`apiKey=${shop.apiKey}`);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('<script src=');

    // Settings with help texts; a rejected value keeps the form; a valid one is saved.
    await page.getByLabel('Country').fill('Germany');
    await page.getByLabel('Decision valid for (days)').fill('90');
    await page.getByLabel('Iframe markers').fill('youtube.com\nvimeo.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('country');
    expect(await page.getByLabel('Decision valid for (days)').inputValue()).toBe('90');
    await page.getByLabel('Country').fill('DE');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    const domains = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${shop.id}/domain` })).json();
    expect(domains[0]).toMatchObject({ name: 'www.shop.example', path: '/de/', country: 'DE', consentCookieLifetime: 90, iframeMarkers: ['youtube.com', 'vimeo.com'] });

    // Embeddings: from the preset catalogue (searched), and by hand; switched off; deleted.
    await page.getByLabel('Search services').fill('google analytics 4');
    await page.getByRole('button', { name: 'Search services' }).click();
    await page.getByRole('button', { name: 'Add: Google Analytics 4' }).click();
    const embeddings = page.locator('section', { has: page.getByRole('heading', { name: 'Embeddings' }) }).locator('ul.list').first();
    await expect.poll(() => embeddings.textContent()).toContain('Google Analytics 4');
    const byHand = page.locator('form', { has: page.getByRole('heading', { name: 'Add by hand' }) });
    await byHand.getByLabel('Name', { exact: true }).fill('Live chat');
    await byHand.getByLabel('Purpose').selectOption('15c61c3');
    await byHand.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => embeddings.textContent()).toContain('Live chat');
    await page.getByRole('button', { name: 'Deactivate: Live chat' }).click();
    await page.getByRole('button', { name: 'Activate: Live chat' }).waitFor();
    const stored = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${shop.id}/domain/${domains[0].id}/embedding` })).json();
    expect(stored.map((e: { name: string; active: boolean; purpose: string }) => [e.name, e.active, e.purpose])).toEqual([
      ['Google Analytics 4', true, 'a717ff5'],
      ['Live chat', false, '15c61c3'],
    ]);
    expect(stored[0].assets.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Delete: Live chat' }).click();
    await expect.poll(() => embeddings.textContent()).not.toContain('Live chat');

    // Placeholders: a taken name is explained and the form keeps its values; delete.
    await page.getByLabel('Placeholder name').fill('{FIRMA}');
    await page.getByLabel('Value', { exact: true }).fill('Shop GmbH');
    await page.getByRole('button', { name: 'Add placeholder' }).click();
    const placeholders = page.locator('section', { has: page.getByRole('heading', { name: 'Placeholders' }) });
    await expect.poll(() => placeholders.locator('ul.list').textContent()).toContain('{FIRMA} = Shop GmbH');
    await page.getByLabel('Placeholder name').fill('FIRMA');
    await page.getByLabel('Value', { exact: true }).fill('Other');
    await page.getByRole('button', { name: 'Add placeholder' }).click();
    await expect.poll(() => placeholders.getByRole('alert').textContent()).toContain('already has a placeholder with this name');
    expect(await page.getByLabel('Value', { exact: true }).inputValue()).toBe('Other');
    // The value changes in place; a refused value stays in its field.
    await page.getByRole('button', { name: 'Change the value: FIRMA' }).click();
    await placeholders.getByLabel('New value of {FIRMA}').fill('x'.repeat(5001));
    await placeholders.getByRole('button', { name: 'Save the value' }).click();
    await expect.poll(() => placeholders.getByRole('alert').textContent()).toContain('value');
    expect(await placeholders.getByLabel('New value of {FIRMA}').inputValue()).toHaveLength(5001);
    await placeholders.getByLabel('New value of {FIRMA}').fill('Shop AG');
    await placeholders.getByRole('button', { name: 'Save the value' }).click();
    await expect.poll(() => placeholders.locator('ul.list').textContent()).toContain('{FIRMA} = Shop AG');
    await page.getByRole('button', { name: 'Delete: FIRMA' }).click();
    await expect.poll(() => placeholders.textContent()).toContain('No placeholders yet.');

    // Consent log: a consent sent by the widget's endpoint shows in the open block; verify; download.
    const ucid = await sendConsent(ctx, shop, domains[0]);
    await page.reload();
    const log = page.locator('section', { has: page.getByRole('heading', { name: 'Consent log' }) });
    await expect.poll(() => log.getByRole('row', { name: /^1 open 1/ }).count()).toBe(1);
    await log.getByRole('button', { name: 'Verify the log' }).click();
    await expect.poll(() => log.getByRole('status').filter({ hasText: 'The log is' }).textContent()).toContain('The log is intact: 1 records');
    const download = page.waitForEvent('download');
    await log.getByRole('link', { name: 'Download block 1' }).click();
    const file = await (await download).path();
    expect(readFileSync(file, 'utf8')).toContain(ucid);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => scrollTo(0, 0));
    await shot(page, 'domain', 'viewport');

    // Deactivate from the client page, then sign out.
    await page.getByRole('link', { name: '← Domains' }).click();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${shop.id}` })).json().active).toBe(false);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('agency: the consent log shows what a visitor saw (the old text after a change), with the Domain API key', async () => {
    const client = await createClient(ctx, { company: 'Shown GmbH' });
    const domain = await createDomain(ctx, client.id);
    const hostingBase = `/hosting/api/client/${client.id}/domain/${domain.id}`;
    const apiKey = (await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` })).json<{ apiKey: string }>().apiKey;
    const maps = (await ctx.hosting({ method: 'POST', url: `${hostingBase}/embedding`, payload: { name: 'Maps', purpose: '15c61c3', vendor: 'Map Corp', description: 'A <b>map</b> of the shop' } })).json<{ id: string }>().id;
    await ctx.hosting({ method: 'POST', url: `${hostingBase}/locale`, payload: { name: 'en', widgetTitle: 'Cookies here', widgetIntroText: 'We use cookies <em>(old text)</em>.' } });
    // The widget as a page of the domain loads it, and the decision its visitor sends.
    const origin = `https://${domain.name}`;
    const served = inlinedConfig((await ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, headers: { origin } })).body);
    const ucid = randomBytes(32).toString('hex');
    const sent = await ctx.app.inject({
      method: 'POST', url: '/public/consent', headers: { origin, 'content-type': 'text/plain' },
      payload: JSON.stringify({
        apiKey: client.apiKey, domain: domain.id, ucid, consent: true, embeddings: [maps], manipulationPrevention: true,
        button: 'save', lang: 'en', revision: served.r, legalRevision: served.lr, token: served.tk, snapshot: served.sh,
      }),
    });
    expect(sent.statusCode).toBe(204);
    // The text changes afterwards: the console must still show the old one for this decision.
    expect((await ctx.hosting({ method: 'PUT', url: `${hostingBase}/locale/en`, payload: { widgetIntroText: 'We use cookies (new text).' } })).statusCode).toBe(200);

    const page = await newPage();
    await signInAgency(page);
    await openDomain(page, client.id, domain);

    const form = page.locator('form', { has: page.getByRole('heading', { name: 'What a visitor saw' }) });
    // A wrong key: the Domain API's answer, in words.
    const key = page.getByLabel('Domain API key', { exact: true });
    await key.fill('not the key');
    await form.getByLabel('Visitor ID (ucid, or its beginning)').fill(ucid.slice(0, 10));
    await form.getByRole('button', { name: 'Show what this visitor saw' }).click();
    await page.locator('.shown').getByRole('alert').waitFor();
    await key.fill(apiKey);
    await form.getByRole('button', { name: 'Show what this visitor saw' }).click();
    const decision = page.getByRole('article');
    await decision.getByRole('heading', { name: /^Decision of / }).waitFor();
    expect(await decision.count()).toBe(1);
    const text = (await decision.textContent()) ?? '';
    expect(text).toContain('We use cookies <em>(old text)</em>.'); // as text, never as HTML
    expect(text).not.toContain('new text');
    expect(await decision.locator('em').count()).toBe(0);
    expect(text).toContain('Cookies here');
    expect(text).toContain('Save the selection');
    expect(text).toContain(ucid);
    const facts = decision.locator('dl').first();
    expect(await facts.locator('dt', { hasText: 'Accepted embeddings' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('Maps');
    expect(await facts.locator('dt', { hasText: 'Language shown' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('en');
    const hash = decision.locator(`code[title="${served.sh}"]`);
    expect(await hash.textContent()).toBe(served.sh.slice(0, 12));
    expect(await decision.getByRole('listitem').filter({ hasText: 'Maps' }).textContent()).toContain('A <b>map</b> of the shop');
    await decision.getByRole('button', { name: /^Copy the full snapshot hash/ }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(served.sh);
    expect(await axeViolations(page)).toEqual([]);

    // The visitor's records (lookup by the ucid's beginning), and the current block's records with a
    // "what they saw" button per row.
    await form.getByRole('button', { name: 'Show this visitor\'s records' }).click();
    const history = page.getByRole('table', { name: 'Records of this visitor' });
    await expect.poll(() => history.locator('tbody tr').count()).toBe(1);
    expect(await history.textContent()).toContain('Save the selection');
    expect(await history.locator(`code[title="${ucid}"]`).count()).toBe(1);
    await page.getByRole('button', { name: 'Show the current block\'s records' }).click();
    const current = page.getByRole('table', { name: 'Show the current block\'s records' });
    await expect.poll(() => current.locator('tbody tr').count()).toBe(1);
    expect(await current.textContent()).toContain('Maps');
    await current.getByRole('button', { name: `What they saw: ${ucid.slice(0, 12)}` }).click();
    await page.getByRole('article').getByRole('heading', { name: /^Decision of / }).waitFor();
    expect(await form.getByLabel('Visitor ID (ucid, or its beginning)').inputValue()).toBe(ucid);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'consent-log', page.locator('section', { has: page.getByRole('heading', { name: 'Consent log' }) }));

    // Archiving the open block by hand, after a confirmation: its records leave the Domain API's lists.
    const log = page.locator('section', { has: page.getByRole('heading', { name: 'Consent log' }) });
    await log.getByRole('button', { name: 'Archive the open block' }).click();
    await log.getByText('Archive the open block with 1 records?').waitFor();
    await log.getByRole('button', { name: 'Cancel' }).click();
    expect((await ctx.hosting({ method: 'GET', url: `${hostingBase}/consent-log/blocks` })).json()).toMatchObject([{ id: 1, state: 'open' }]);
    await log.getByRole('button', { name: 'Archive the open block' }).click();
    await log.getByRole('button', { name: 'Archive now' }).click();
    await expect.poll(() => log.getByRole('status').filter({ hasText: 'is archived' }).textContent()).toBe('Block 1 is archived.');
    expect((await ctx.hosting({ method: 'GET', url: `${hostingBase}/consent-log/blocks` })).json()).toMatchObject([{ id: 1, state: 'archived', recordCount: 1 }, { id: 2, state: 'open', recordCount: 0 }]);
    await expect.poll(() => log.getByRole('row', { name: /^1 archived 1/ }).count()).toBe(1);
    await page.getByRole('button', { name: 'Show the current block\'s records' }).click();
    await log.getByText('No records in the current block.').waitFor();
  });

  it('client: signs in with username and password, sees only its own domains, in German and at 390 px', async () => {
    const mine = await createClient(ctx, { password: PASSWORD, active: true, company: 'Meine Firma' });
    const other = await createClient(ctx, { password: PASSWORD, active: true, company: 'Andere Firma' });
    await createDomain(ctx, mine.id, { name: 'meine.example' });
    await createDomain(ctx, other.id, { name: 'andere.example' });
    const page = await newPage(390, 'de-DE');
    await page.goto(suite.base);
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await page.getByLabel('Benutzername').fill(mine.username);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { name: 'Meine Firma', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'meine.example' }).waitFor();
    expect(await page.content()).not.toContain('andere.example');
    // No account form for a client (quotas are the agency's), and nothing wider than the screen.
    expect(await page.getByRole('heading', { name: 'Konto' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 15_000 }).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'client-mobile');

    // Another client's page by address: the API's answer, in words.
    await page.goto(`${suite.base}#/clients/${other.id}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The client does not exist.');
    expect(await page.content()).not.toContain('andere.example');

    // Switch to English.
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The document's lang follows the render (an effect), so it is polled rather than read once.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
  });
});
