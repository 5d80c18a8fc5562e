import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

/** What the console's browser suites share: the axe-core check, screenshots, and signing in. */
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
