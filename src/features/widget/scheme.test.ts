import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, consentToken, createClient, createDomain, servedSnapshot, useApp } from '../../../test/helper.js';

/** Reference model (snippet): the calling page "must match the configured domain exactly (http vs https matters)". */
for (const dialect of DIALECTS) {
  describe(`${dialect}: http vs https`, () => {
    const ctx = useApp(dialect);
    const inlined = (body: string) => JSON.parse(JSON.parse(/JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body)![1]!)) as { bl?: string };
    const consent = async (client: { apiKey: string }, domain: { id: string }, origin: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/public/consent',
        headers: { origin, 'content-type': 'text/plain' },
        payload: JSON.stringify({
          apiKey: client.apiKey, domain: domain.id, ucid: randomBytes(32).toString('hex'), consent: false, embeddings: [],
          manipulationPrevention: true, button: 'declineAll', lang: 'en', revision: 1, legalRevision: 1,
          token: await consentToken(ctx, domain.id, 1), snapshot: await servedSnapshot(ctx, domain.id),
        }),
      });

    it('a domain written with https:// (or without a scheme) serves an http page its widget in blocked mode', async () => {
      const client = await createClient(ctx);
      for (const name of ['https://shop.example', 'shop.example']) {
        const domain = await createDomain(ctx, client.id, { name: name.replace('shop', `shop${name.length}`) });
        const url = `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`;
        const ok = await ctx.app.inject({ method: 'GET', url, headers: { referer: `https://${domain.name}/` } });
        expect(ok.statusCode).toBe(200);
        expect(inlined(ok.body).bl).toBeUndefined();
        const other = await ctx.app.inject({ method: 'GET', url, headers: { referer: `http://${domain.name}/` } });
        expect(other.statusCode).toBe(200);
        // Fail closed: the widget runs its blocking and says why, it is not left out.
        expect(inlined(other.body).bl).toMatch(/scheme \(http or https\)/);
      }
    });

    it('a domain written with http:// serves http pages normally and https pages in blocked mode', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'http://plain.example:8080' });
      const url = `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`;
      const ok = await ctx.app.inject({ method: 'GET', url, headers: { referer: 'http://plain.example:8080/' } });
      expect(inlined(ok.body).bl).toBeUndefined();
      const other = await ctx.app.inject({ method: 'GET', url, headers: { referer: 'https://plain.example:8080/' } });
      expect(inlined(other.body).bl).toMatch(/scheme/);
    });

    it('a consent from the other scheme is refused; from the configured one it is logged', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'https://log.example' });
      const refused = await consent(client, domain, 'http://log.example');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: 'CONSENT_INVALID',
        details: [{ field: 'headers.origin', message: "must be the domain's origin (the domain is configured for https)" }],
      });
      expect((await consent(client, domain, 'https://log.example')).statusCode).toBe(204);
      const rows = await ctx.database.db.selectFrom('consent_records').select('seq').where('domain_id', '=', domain.id).execute();
      expect(rows).toHaveLength(1);
    });
  });
}
