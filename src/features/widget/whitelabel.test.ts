import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp } from '../../../test/helper.js';

/** Reference model §6: white label needs a licence; the agency sets the footer line of every other widget. */
for (const dialect of DIALECTS) {
  describe(`${dialect}: white label and the agency's footer line`, () => {
    const ctx = useApp(dialect, { widgetFooter: { text: 'Made by Example Agency', url: 'https://agency.example/' } });
    const served = async (client: { apiKey: string }, domain: { id: string; name: string }) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`,
        headers: { referer: `https://${domain.name}/` },
      });
      expect(res.statusCode).toBe(200);
      return JSON.parse(JSON.parse(/JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(res.body)![1]!)) as { ft: string; fu: string };
    };

    it("a theme's whitelabel alone does not hide the footer; a domain holding a licence does", async () => {
      const client = await createClient(ctx, { whitelabelMaxCount: 1 });
      const plain = await createDomain(ctx, client.id);
      const base = `/hosting/api/client/${client.id}/domain/${plain.id}/theme`;
      const [theme] = (await ctx.hosting({ method: 'GET', url: base })).json<{ id: string }[]>();
      expect((await ctx.hosting({ method: 'PUT', url: `${base}/${theme!.id}`, payload: { whitelabel: true } })).statusCode).toBe(200);
      expect(await served(client, plain)).toEqual(expect.objectContaining({ ft: 'Made by Example Agency', fu: 'https://agency.example/' }));

      const licensed = await createDomain(ctx, client.id, { whitelabel: true });
      expect(await served(client, licensed)).toEqual(expect.objectContaining({ ft: '', fu: '' }));
      // The client's only licence is in use: a second white-label domain is refused.
      const refused = await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${client.id}/domain/${plain.id}`, payload: { whitelabel: true } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('WHITELABEL_LIMIT_REACHED');
    });
  });

  describe(`${dialect}: the agency hides the footer everywhere`, () => {
    const ctx = useApp(dialect, { widgetFooter: { text: '', url: '' } });
    it('serves no footer line', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const res = await ctx.app.inject({
        method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, headers: { referer: `https://${domain.name}/` },
      });
      expect(res.body).toContain('\\"ft\\":\\"\\"');
    });
  });
}
