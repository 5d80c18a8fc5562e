import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp } from '../../../test/helper.js';
import { embeddingHosts } from './strict-policy.js';

describe('strict mode: the hosts an embedding names', () => {
  it('takes hosts under a public suffix from markers, not file names or inline code', () => {
    expect(
      embeddingHosts({
        scriptMarkers: ['googletagmanager.com/gtag/js?id=g-', 'fbevents.js', "fbq('init'", 'gtag/js', 'S.YTIMG.COM', 'https://cdn.example.org/x.js'],
        iframeMarkers: ['//player.vimeo.com/video', 'youtube.com/embed'],
      }).sort(),
    ).toEqual(['cdn.example.org', 'googletagmanager.com', 'player.vimeo.com', 's.ytimg.com', 'youtube.com']);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: the embed snippet in strict mode`, () => {
    const ctx = useApp(dialect);
    const setup = async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      const embedding = async (body: Record<string, unknown>) => {
        const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { active: true, ...body } });
        expect(res.statusCode).toBe(201);
        return res.json<{ id: string }>();
      };
      const snippet = async () => (await ctx.hosting({ method: 'GET', url: `${base}/onboarding/embed` })).json<{ default: string }>().default;
      return { base, embedding, snippet };
    };
    const put = (base: string, payload: Record<string, unknown>) => ctx.hosting({ method: 'PUT', url: base, payload });

    it('is off by default; on, one policy per embedding that needs consent, each leaving out its own hosts', async () => {
      const { base, embedding, snippet } = await setup();
      const ga = await embedding({ name: 'GA', purpose: 'a717ff5', scriptMarkers: ['googletagmanager.com/gtag/js'] });
      const maps = await embedding({ name: 'Maps', purpose: '15c61c3', iframeMarkers: ['google.com/maps/embed'], scriptMarkers: ['maps.googleapis.com'] });
      // Necessary, and one that names no host: no policy of their own.
      await embedding({ name: 'Session', purpose: '41ba25c', scriptMarkers: ['cdn.sessionhost.com/s.js'] });
      await embedding({ name: 'Inline', purpose: 'a717ff5', scriptMarkers: ["fbq('init'"] });
      // Off: no policy in the page's markup (only the fallback's, written if the widget cannot be loaded: widget.test.ts).
      expect(await snippet()).not.toContain('<meta http-equiv="Content-Security-Policy"');

      expect((await put(base, { strictBlocking: true, strictAllowedHosts: ['cdn.jsdelivr.net'] })).statusCode).toBe(200);
      const html = await snippet();
      const metas = [...html.matchAll(/ccmStrict\.indexOf\("([0-9a-f]{7})"\)<0\|\|document\.write\("<!--"\)<\/script><meta http-equiv="Content-Security-Policy" content="([^"]+)"><!---->/g)];
      expect(metas.map((m) => m[1])).toEqual([ga.id, maps.id]);
      const [gaPolicy, mapsPolicy] = metas.map((m) => m[2]!);
      expect(gaPolicy).not.toContain('googletagmanager.com');
      expect(gaPolicy).toContain(' google.com *.google.com');
      expect(mapsPolicy).toContain(' googletagmanager.com *.googletagmanager.com');
      expect(mapsPolicy).not.toMatch(/ (\*\.)?google\.com/);
      for (const p of [gaPolicy, mapsPolicy]) {
        // One directive that every kind of request falls back to: scripts, frames, stylesheets, fonts, images, fetch.
        expect(p).toMatch(/^default-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: https?:\/\/[^ ;]+ /);
        expect(p).not.toContain(';');
        expect(p).toContain('cdn.jsdelivr.net *.cdn.jsdelivr.net');
        expect(p).toContain('cdn.sessionhost.com *.cdn.sessionhost.com');
      }
      expect(html.indexOf('<meta')).toBeLessThan(html.indexOf('/public/app.js'));
      // The widget learns which embeddings the policies block, to reload once when one of them is accepted.
      const app = await ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${(await ctx.hosting({ method: 'GET', url: base.replace(/\/domain\/.*/, '') })).json<{ apiKey: string }>().apiKey}&domain=${base.split('/').pop()}`, headers: { referer: 'https://shop.example/' } });
      expect(app.statusCode).toBe(200);
      expect(app.body).toContain(`\\"st\\":[\\"${ga.id}\\",\\"${maps.id}\\"]`);
    });

    it('a shared host stays blocked until every embedding on it is accepted, allowed hosts included', async () => {
      const { base, embedding, snippet } = await setup();
      await embedding({ name: 'GA', purpose: 'a717ff5', scriptMarkers: ['googletagmanager.com/gtag/js'] });
      await embedding({ name: 'GTM', purpose: '15c61c3', scriptMarkers: ['www.googletagmanager.com/gtm.js'] });
      await put(base, { strictBlocking: true, strictAllowedHosts: ['googletagmanager.com'] });
      const policies = [...(await snippet()).matchAll(/content="([^"]+)"/g)].map((m) => m[1]!);
      expect(policies).toHaveLength(2);
      for (const p of policies) expect(p).not.toContain('googletagmanager.com');
    });

    it('refuses a strictAllowedHosts entry that is not a host name (nothing can be injected into the policy)', async () => {
      const { base } = await setup();
      for (const bad of ["x.com; script-src *", 'x.com"><script>', '*', 'https://x.com', 'localhost']) {
        const res = await put(base, { strictAllowedHosts: [bad] });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
      }
    });
  });
}
