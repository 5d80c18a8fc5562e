import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp } from '../../../test/helper.js';

/** The configuration inlined into a widget script (as `JSON.parse("…")`). */
function inlined(script: string): Record<string, unknown> & { th: Record<string, unknown>; tk: string; sh: string; k: string } {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(script);
  if (!match) throw new Error('no configuration in the script');
  return JSON.parse(JSON.parse(match[1]!) as string);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: POST /client/:clientId/domain/:domainId/theme/preview`, () => {
    const ctx = useApp(dialect);
    const url = (c: string, d: string) => `/hosting/api/client/${c}/domain/${d}/theme/preview`;

    it('answers the real widget with the unsaved settings over the default theme, inert toward the consent log', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain/${domain.id}/embedding`, payload: { name: 'Maps', purpose: '15c61c3' } });
      const res = await ctx.hosting({
        method: 'POST', url: url(client.id, domain.id),
        payload: { theme: { widgetPosition: 'center', windowBackgroundColor: '#112233' }, lang: 'de' },
      });
      expect(res.statusCode).toBe(200);
      const config = inlined(res.json<{ script: string }>().script);
      expect(config.th).toMatchObject({ position: 'center' });
      expect(JSON.stringify(config.th)).toContain('#112233');
      expect(JSON.stringify(config)).toContain('Maps');
      // No token, client key or snapshot: a decision clicked in the preview cannot be recorded.
      expect([config.tk, config.sh, config.k]).toEqual(['', '', '']);
      // Nothing counted as a widget load, and the saved theme is unchanged.
      const counted = await ctx.database.db.selectFrom('call_counts').selectAll().where('domain_id', '=', domain.id).execute();
      expect(counted).toEqual([]);
      const [theme] = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/theme` })).json();
      expect(theme.widgetPosition).toBe('bottom');
    });

    it('refuses a bad colour with the API\'s message, and an unknown theme or another client\'s domain with 404', async () => {
      const client = await createClient(ctx);
      const other = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const bad = await ctx.hosting({ method: 'POST', url: url(client.id, domain.id), payload: { theme: { windowBackgroundColor: 'red' } } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_FAILED');
      // Images are not previewed from the body: like any field the schema does not know, they are dropped (a
      // console may send back the whole theme it read), and the saved ones are shown.
      const image = await ctx.hosting({ method: 'POST', url: url(client.id, domain.id), payload: { theme: { logoImage: null, widgetPosition: 'top' } } });
      expect(image.statusCode).toBe(200);
      const unknown = await ctx.hosting({ method: 'POST', url: url(client.id, domain.id), payload: { themeId: 'fffffff' } });
      expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'THEME_NOT_FOUND']);
      const foreign = await ctx.hosting({ method: 'POST', url: url(other.id, domain.id), payload: {} });
      expect([foreign.statusCode, foreign.json().error.code]).toEqual([404, 'DOMAIN_NOT_FOUND']);
    });
  });
}
