import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type LocalServer } from '../../../test/fixtures/onboarding/test-site.js';
import { CrawlState, MAX_RESULT_CHARS, MAX_URL_LENGTH } from './crawl-state.js';
import { Scanner } from './scanner.js';

/** A scan result is bounded in size, not only in the number of its entries. */
describe('scan result size', () => {
  const long = (i: number, chars: number) => `https://cdn${i}.example/js/app.js?${'q'.repeat(chars)}`;

  it('cuts reported URLs, does not follow over-long links, and stops at the total budget with a warning', () => {
    const state = new CrawlState(new URL('https://shop.example/'), 10, Date.now() + 10_000);
    for (let i = 0; i < 300; i++) state.addScript(long(i, 300_000));
    for (let i = 0; i < 100; i++) state.addIframe(long(i, 50_000));
    for (let i = 0; i < 200; i++) state.addBlocked(long(i, 50_000));
    for (let i = 0; i < 100; i++) state.addInlineScript(`/* ${i} */ ${'x'.repeat(10_000)}`);
    for (let i = 0; i < 500; i++) state.addCookie({ name: `c${i}${'n'.repeat(4000)}`, domain: 'shop.example', path: '/' });
    state.addAnchors([{ href: `https://shop.example/${'p'.repeat(5000)}`, text: 'far too long' }, { href: 'https://shop.example/short', text: 'ok' }]);
    state.visited('https://shop.example/');

    const result = state.result();
    expect(Math.max(...result.scripts.map((u) => u.length))).toBe(MAX_URL_LENGTH);
    expect(result.scripts[0]).toBe(long(0, 300_000).slice(0, MAX_URL_LENGTH));
    expect(JSON.stringify(result).length).toBeLessThan(MAX_RESULT_CHARS * 1.1);
    expect(result.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/size limit/), expect.stringMatching(/longer than 2048 characters/)]),
    );
    // The short link is queued after the start page, the long one is not.
    const queued: string[] = [];
    for (let next = state.next(); next; next = state.next()) queued.push(next.href);
    expect(queued).toEqual(['https://shop.example/', 'https://shop.example/short']);
  });

  describe('in Chromium', () => {
    let site: LocalServer;
    const scanner = new Scanner({
      maxPages: 1,
      timeoutMs: 30_000,
      concurrency: 1,
      allowPrivateNetworks: false,
      chromiumPath: undefined,
      chromiumUser: 'nobody',
      requireSandbox: false,
      trustedHosts: ['127.0.0.1'],
      log: Fastify({ logger: false }).log,
    });
    beforeAll(async () => {
      // A page that requests 300 scripts with 20 000-character URLs and has 500 such links: 16 MB of URLs.
      site = await serve((req, res) => {
        if (req.url === '/') {
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>t</title><body><script>
            const pad = 'q'.repeat(20000);
            for (let i = 0; i < 300; i++) { const s = document.createElement('script'); s.src = '/s' + i + '.js?' + pad; document.head.append(s); }
            for (let i = 0; i < 500; i++) { const a = document.createElement('a'); a.href = '/page' + i + '?' + pad; a.textContent = 'p' + i; document.body.append(a); }
          </script><a href="/impressum">Impressum</a></body>`);
        } else {
          res.writeHead(200, { 'content-type': 'application/javascript' }).end('');
        }
      });
    });
    afterAll(async () => {
      await scanner.close();
      await site?.close();
    });

    it('keeps a scan of a page full of huge URLs small', async () => {
      const raw = await scanner.scan(new URL(`http://127.0.0.1:${site.port}/`));
      expect(raw.mode).toBe('browser');
      expect(raw.scripts.length).toBeGreaterThan(0);
      expect(raw.scripts.every((u) => u.length <= MAX_URL_LENGTH)).toBe(true);
      expect(raw.legal.imprintUrl).toBe(`http://127.0.0.1:${site.port}/impressum`);
      expect(JSON.stringify(raw).length).toBeLessThan(MAX_RESULT_CHARS * 1.1);
    }, 60_000);
  });
});
