import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildApp, type App } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { launchBrowser } from './browser.js';

/** The API docs (Swagger UI) under their strict Content-Security-Policy, in headless Chromium. */
describe('GET /docs in Chromium', () => {
  let app: App;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    app = await buildApp({ config: testConfig({ database: { kind: 'sqlite', file: ':memory:' } }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders the operations with no CSP violation and refuses to be framed', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    const failed: string[] = [];
    page.on('requestfailed', (req) => failed.push(req.url()));
    const res = await page.goto(`${base}/docs`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    expect(await page.locator('.info .title').innerText()).toContain('Placet');
    expect(violations).toEqual([]);
    expect(failed).toEqual([]);

    // No page may show the docs in a frame (frame-ancestors 'none' holds for the same origin too); the widget
    // script, which has no CSP, is framed beside it as a control.
    const widgetUrl = `/public/app.js?apiKey=${'0'.repeat(48)}&domain=0000000`;
    await page.goto(`${base}${widgetUrl}`); // a page of the same origin without a CSP of its own
    await page.evaluate((widget) => {
      for (const src of ['/docs/', widget]) {
        const frame = document.createElement('iframe');
        frame.src = src;
        document.body.append(frame);
      }
    }, widgetUrl);
    const frameText = async (part: string) => {
      const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes(part));
      return frame ? frame.locator('body').innerText({ timeout: 1000 }).catch(() => '') : '';
    };
    for (let i = 0; i < 100 && !(await frameText('/public/app.js')).includes('console.warn'); i++) await page.waitForTimeout(100);
    expect(await frameText('/public/app.js')).toContain('console.warn');
    const docsFrame = page.frames().find((f) => f !== page.mainFrame() && !f.url().includes('/public/app.js'));
    expect(docsFrame).toBeDefined();
    expect(await docsFrame!.locator('.opblock').count().catch(() => 0)).toBe(0);
    await page.close();
  }, 90_000);
});
