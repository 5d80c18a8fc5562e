import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Config } from '../src/config.js';
import { freePort, launchBrowser } from './browser.js';
import { DIALECTS, HOSTING_KEY, useApp, type TestContext } from './helper.js';

/** What the console's browser suites share: the app and Chromium, pages, signing in, the axe-core check, screenshots. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** `SCREENSHOTS=1 npx vitest run test/console*.browser.test.ts` refreshes docs/img/console-*.png. */
const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** axe-core's WCAG 2.0/2.1/2.2 A and AA rules on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return violations;
}

/**
 * A picture of the whole page, of the visible part only (`'viewport'`: the domain page is too long for one
 * picture), or of one part of it (a section).
 */
export async function shot(page: Page, name: string, target?: Locator | 'viewport') {
  if (!SCREENSHOTS) return;
  mkdirSync(`${ROOT}docs/img`, { recursive: true });
  const path = `${ROOT}docs/img/console-${name}.png`;
  if (target === undefined || target === 'viewport') await page.screenshot({ path, fullPage: target === undefined });
  else await target.screenshot({ path });
}

/** Signs in as the agency with the Hosting API key (English console). */
export async function signInAgency(page: Page, base: string, key: string) {
  await page.goto(base);
  await page.getByLabel('Agency').check();
  await page.getByLabel('Hosting API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
}

/** The password `createClient` gives a client unless told otherwise. */
export const PASSWORD = 'correct horse battery';

export interface ConsoleSuite {
  /** The app, as `useApp` gives it (filled in beforeAll). */
  ctx: TestContext;
  /** The console's address, `…/console/` (set in beforeAll). */
  base: string;
  /**
   * A page in a browser context of its own, closed after the test: a desktop in English unless told. `clipboard`
   * allows the copy buttons to write the clipboard and the test to read it.
   */
  newPage(options?: { width?: number; height?: number; locale?: string; clipboard?: boolean; acceptDownloads?: boolean }): Promise<Page>;
  /** Signs in as the agency with the Hosting API key (English console). */
  signInAgency(page: Page): Promise<void>;
  /** Signs in as a client in the German console (the suites' phone runs), whose page is titled by its company. */
  signInClientDe(page: Page, client: { username: string }, company: string): Promise<void>;
  /** Opens a domain's page (signed in already) and waits for its heading. */
  openDomain(page: Page, clientId: string, domain: { id: string; name: string }): Promise<void>;
}

/**
 * The start-up every console suite shares, for the enclosing describe block: the console bundle built (the
 * server reads it at start), the app on a fresh database listening on 127.0.0.1, and Chromium. The console runs
 * the same in both engines, so the browser flows use the first (SQLite unless only PostgreSQL). `publicUrl`
 * makes the app listen on the port its public URL names, for suites whose snippet loads the real widget.
 */
export function useConsole(options: { config?: Partial<Config>; publicUrl?: boolean } = {}): ConsoleSuite {
  const overrides: { -readonly [K in keyof Config]?: Config[K] } = { ...options.config };
  let port = 0;
  beforeAll(async () => {
    execFileSync(process.execPath, [`${ROOT}console/build.mjs`], { cwd: ROOT, stdio: 'ignore' });
    // useApp reads the overrides in its own beforeAll, which runs after this one.
    if (options.publicUrl) {
      port = await freePort();
      overrides.publicUrl = `http://127.0.0.1:${port}`;
    }
  }, 60_000);
  const ctx = useApp(DIALECTS[0]!, overrides);
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  const suite: ConsoleSuite = {
    ctx,
    base: '',
    async newPage({ width = 1280, height = 900, locale = 'en-US', clipboard = false, acceptDownloads } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, locale, acceptDownloads });
      contexts.push(context);
      if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(suite.base).origin });
      return context.newPage();
    },
    signInAgency: (page) => signInAgency(page, suite.base, HOSTING_KEY),
    async signInClientDe(page, client, company) {
      await page.goto(suite.base);
      await page.getByLabel('Benutzername').fill(client.username);
      await page.getByLabel('Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByRole('heading', { name: company, level: 1 }).waitFor();
    },
    async openDomain(page, clientId, domain) {
      await page.goto(`${suite.base}#/clients/${clientId}/domains/${domain.id}`);
      await page.getByRole('heading', { name: domain.name, level: 1 }).waitFor();
    },
  };
  beforeAll(async () => {
    suite.base = `${await ctx.app.listen({ port, host: '127.0.0.1' })}/console/`;
    browser = await launchBrowser();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  });
  afterAll(async () => {
    await browser?.close();
  });
  return suite;
}
