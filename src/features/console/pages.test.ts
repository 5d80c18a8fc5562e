import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp } from '../../../test/helper.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: pages for people and the plugins' addresses`, () => {
    const ctx = useApp(dialect, { publicUrl: 'https://cmp.agency.example/placet' });

    it('GET / is an HTML page naming the console and the API docs, not a JSON 404', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('href="console/"');
      expect(res.body).toContain('href="docs"');
    });

    it('/public/ (the WordPress plugin\'s back-end link) redirects to the console, relatively, so a path prefix survives', async () => {
      for (const url of ['/public/', '/public']) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(302);
        // Resolved against the address the browser used, behind a proxy that mounts Placet under /placet/.
        const target = new URL(res.headers.location as string, `https://cmp.agency.example/placet${url}`);
        expect(target.href).toBe('https://cmp.agency.example/placet/console/');
      }
    });

    it('/app.js and /ccm19.js at the root serve the same widget as /public/app.js', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'neos.example' });
      const query = `?apiKey=${client.apiKey}&domain=${domain.id}`;
      const load = (path: string) =>
        ctx.app.inject({ method: 'GET', url: `${path}${query}`, headers: { referer: 'https://neos.example/' } });
      const reference = await load('/public/app.js');
      expect(reference.statusCode).toBe(200);
      for (const path of ['/app.js', '/ccm19.js', '/public/ccm19.js']) {
        const res = await load(path);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(reference.headers['content-type']);
        expect(res.headers.etag).toBe(reference.headers.etag);
        expect(res.body).toBe(reference.body);
      }
    });

    it('the Shopify plugin\'s snippet check passes when PUBLIC_URL has a path', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      await ctx.hosting({
        method: 'POST',
        url: `/hosting/api/client/${client.id}/domain/${domain.id}/locale`,
        payload: { name: 'de_DE', active: true },
      });
      const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/embed` });
      expect(res.statusCode).toBe(200);
      // The regular expression the established product's Shopify plugin validates snippets with.
      const shopify = /<script src="https?:\/\/[^"]+\/public\/(ccm19|app)\.js\?[^"]+" referrerpolicy="origin"><\/script>/;
      const snippets = Object.values(res.json() as Record<string, string>);
      expect(snippets.length).toBeGreaterThanOrEqual(2);
      for (const snippet of snippets) {
        expect(snippet).toMatch(shopify);
        expect(snippet).toContain('src="https://cmp.agency.example/placet/public/app.js?');
      }
    });
  });
}
