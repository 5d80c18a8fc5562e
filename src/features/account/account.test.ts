import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, consentToken, createClient, createDomain, servedSnapshot, useApp } from '../../../test/helper.js';
import { namedTexts } from '../../../widget/src/text-fields.js';

interface Served {
  r: number;
  th: { id: string; colors: Record<string, string> };
  loc: Record<string, { t: string[]; pu: Record<string, [string, string]> }>;
}
const inlined = (body: string) => JSON.parse(JSON.parse(/JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body)![1]!)) as Served;

for (const dialect of DIALECTS) {
  describe(`${dialect}: account-wide themes and standard texts`, () => {
    const ctx = useApp(dialect);
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      ctx.hosting({ method, url: `/hosting/api${url}`, payload: payload as never });
    const site = async (body: Record<string, unknown> = {}) => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, body);
      const widget = async (query = '', headers: Record<string, string> = {}) => {
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}${query}`,
          headers: { referer: `https://${domain.name}/`, ...headers },
        });
        expect(res.statusCode).toBe(200);
        return inlined(res.body);
      };
      return { client, domain, widget, base: `/client/${client.id}/domain/${domain.id}` };
    };

    it('a theme distributed to chosen domains replaces their default theme at once; others and opted-out domains keep theirs', async () => {
      const a = await site();
      const b = await site();
      const own = await site({ useAccountTheme: false });
      const before = await a.widget();
      const created = await call('POST', '/account/theme', {
        name: 'Agency blue', primaryButtonBackgroundColor: '#0055AA', domainIds: [a.domain.id, own.domain.id],
      });
      expect(created.statusCode).toBe(201);
      const theme = created.json<{ id: string; primaryButtonBackgroundColor: string; allDomains: boolean }>();
      expect(theme).toMatchObject({ primaryButtonBackgroundColor: '#0055aa', allDomains: false });

      const after = await a.widget();
      expect(after.r).toBeGreaterThan(before.r);
      expect(after.th).toMatchObject({ id: theme.id, colors: { pb: '#0055aa' } });
      expect((await b.widget()).th.id).not.toBe(theme.id);
      expect((await own.widget()).th.id).not.toBe(theme.id);

      // A change goes live on the next load; a snippet that pins the domain's own theme keeps it.
      expect((await call('PUT', `/account/theme/${theme.id}`, { primaryButtonBackgroundColor: '#112233' })).statusCode).toBe(200);
      expect((await a.widget()).th.colors.pb).toBe('#112233');
      const ownThemes = (await call('GET', `${a.base}/theme`)).json<{ id: string }[]>();
      expect((await a.widget(`&theme=${ownThemes[0]!.id}`)).th.id).toBe(ownThemes[0]!.id);
      // ... and the opted-out domain can still pin the account theme.
      expect((await own.widget(`&theme=${theme.id}`)).th.id).toBe(theme.id);

      // To every domain, then deleted: each domain is back on its own default.
      await call('PUT', `/account/theme/${theme.id}`, { allDomains: true });
      expect((await b.widget()).th.id).toBe(theme.id);
      expect((await call('DELETE', `/account/theme/${theme.id}`)).statusCode).toBe(204);
      expect((await a.widget()).th.id).toBe(ownThemes[0]!.id);
      expect((await call('GET', `/account/theme/${theme.id}`)).statusCode).toBe(404);
    });

    it('a decision shown with an account theme is logged (its id is one of the domain\'s themes)', async () => {
      const s = await site();
      const theme = (await call('POST', '/account/theme', { name: 'For all', allDomains: true })).json<{ id: string }>();
      const served = await s.widget();
      expect(served.th.id).toBe(theme.id);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/public/consent',
        headers: { origin: `https://${s.domain.name}`, 'content-type': 'text/plain' },
        payload: JSON.stringify({
          apiKey: s.client.apiKey, domain: s.domain.id, ucid: randomBytes(32).toString('hex'), consent: false, embeddings: [],
          manipulationPrevention: true, button: 'declineAll', lang: 'en', revision: served.r, legalRevision: 1, themeId: theme.id,
          token: await consentToken(ctx, s.domain.id, served.r), snapshot: await servedSnapshot(ctx, s.domain.id),
        }),
      });
      expect(res.statusCode, res.body).toBe(204);
      await call('DELETE', `/account/theme/${theme.id}`);
    });

    it('refuses a distribution to a domain that does not exist, and nothing is created', async () => {
      const count = (await call('GET', '/account/theme')).json<unknown[]>().length;
      const res = await call('POST', '/account/theme', { name: 'Nowhere', domainIds: ['abcdef0'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.domainIds', message: 'no domain abcdef0' }] });
      expect((await call('GET', '/account/theme')).json<unknown[]>()).toHaveLength(count);
    });

    it("standard texts fill what a domain's locale leaves empty, for that language only; the domain's own text wins", async () => {
      const s = await site();
      expect((await call('POST', `${s.base}/locale`, { name: 'de_DE', widgetDeclineButtonText: 'Nein danke' })).statusCode).toBe(201);
      expect((await call('POST', `${s.base}/locale`, { name: 'en_GB' })).statusCode).toBe(201);
      const put = await call('PUT', '/account/text/de', {
        widgetTitle: 'Datenschutz bei der Agentur', widgetDeclineButtonText: 'Ablehnen', purposeNames: { a717ff5: 'Reichweitenmessung' },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({ language: 'de', widgetTitle: 'Datenschutz bei der Agentur', imprintUrl: '' });
      const de = (await s.widget('&lang=de_DE')).loc.de_DE!;
      expect(namedTexts(de.t).widgetTitle).toBe('Datenschutz bei der Agentur');
      expect(namedTexts(de.t).widgetDeclineButtonText).toBe('Nein danke');
      expect(de.pu.a717ff5![0]).toBe('Reichweitenmessung');
      const effective = await call('GET', `${s.base}/locale/de_DE?effective=true`);
      expect(effective.json()).toMatchObject({ widgetTitle: 'Datenschutz bei der Agentur', widgetDeclineButtonText: 'Nein danke' });
      const en = (await s.widget('&lang=en_GB')).loc.en_GB!;
      expect(namedTexts(en.t).widgetTitle).not.toBe('Datenschutz bei der Agentur');
      // Cleared again ('' clears a field; DELETE drops the language): the built-in German text is back.
      await call('PUT', '/account/text/de', { widgetTitle: '' });
      expect((await call('GET', '/account/text/de')).json().widgetTitle).toBe('');
      expect((await call('DELETE', '/account/text/de')).statusCode).toBe(204);
      expect((await s.widget('&lang=de_DE')).loc.de_DE!.pu.a717ff5![0]).not.toBe('Reichweitenmessung');
      expect((await call('GET', '/account/text/de')).statusCode).toBe(404);
    });

    it("is the agency's: a client's console session gets 403", async () => {
      const password = 'correct horse battery';
      const client = await createClient(ctx, { password, active: true });
      const session = await ctx.app.inject({
        method: 'POST', url: '/console/api/session', payload: { role: 'client', username: (client as unknown as { username: string }).username, password },
      });
      expect(session.statusCode).toBe(201);
      const cookie = String(session.headers['set-cookie']).split(';')[0]!;
      for (const url of ['/hosting/api/account/theme', '/hosting/api/account/text']) {
        const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      }
    });
  });
}
