import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config.js';
import { serveSite, type Site } from '../../../test/browser.js';
import { DIALECTS, createClient, createDomain, depsOf, useApp } from '../../../test/helper.js';
import { Scanner } from '../onboarding/scanner.js';
import { FoundRescan } from './found.rescan.js';

/**
 * The permanent crawler's server side (docs/found-items.md): the real onboarding scanner against a local site,
 * two schedulers (as two processes) on one database, a clock seam to move past the interval.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: found items, server re-scan`, () => {
    const base = testConfig();
    const ctx = useApp(dialect, { foundRescanHours: 24, scan: { ...base.scan, allowPrivateNetworks: true, maxPages: 1, timeoutMs: 20_000 } });
    let site: Site;
    let scanner: Scanner;
    beforeAll(async () => {
      site = await serveSite('127.0.0.1');
      scanner = new Scanner({ ...ctx.config.scan, log: ctx.app.log });
    });
    afterAll(async () => {
      await scanner?.close();
      await site?.close();
    });

    it('scans each due domain once across two processes, records what no embedding declares, and again only after the interval', async () => {
      const client = await createClient(ctx);
      const scanned = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}`, permanentScanEnabled: true });
      const other = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${site.port}/other`, permanentScanEnabled: false });
      site.setPage(
        '/',
        `<!doctype html><html><head><script src="http://localhost:${site.port}/lib.js"></script>
        <script>localStorage.setItem('srv_key', '1');</script></head><body><h1>Shop</h1></body></html>`,
        { 'set-cookie': 'srv_sid=abc; Path=/' },
      );
      let now = Date.now();
      const clock = { now: () => new Date(now) };
      const a = new FoundRescan(depsOf(ctx, clock), scanner);
      const b = new FoundRescan(depsOf(ctx, clock), scanner);
      const [fromA, fromB] = await Promise.all([a.tick(), b.tick()]);
      expect([...fromA, ...fromB]).toEqual([scanned.id]);
      const list = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${scanned.id}/found` });
      const keys = list.json<{ items: { kind: string; key: string; firstUrl: string }[] }>().items.map((i) => `${i.kind}:${i.key}`).sort();
      expect(keys).toEqual(expect.arrayContaining(['cookie:srv_sid', 'localStorage:srv_key', `script:localhost:${site.port}/lib.js`]));
      const otherList = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${other.id}/found` });
      expect(otherList.json<{ total: number }>().total).toBe(0);

      expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
      now += 23 * 3_600_000;
      expect(await a.tick()).toEqual([]);
      now += 2 * 3_600_000;
      const [againA, againB] = await Promise.all([a.tick(), b.tick()]);
      expect([...againA, ...againB]).toEqual([scanned.id]);
    }, 120_000);
  });
}
