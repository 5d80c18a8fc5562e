import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, domainRevisions, useApp } from '../../../test/helper.js';
import { BUILTIN_TEXTS, LOCALE_TEXT_FIELDS } from './builtin-texts.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: locales`, () => {
    const ctx = useApp(dialect);
    const setup = async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      return { client, domain, url: `/hosting/api/client/${client.id}/domain/${domain.id}/locale` };
    };

    it('creates a locale: active by default, every text field present, unset ones empty', async () => {
      const { url } = await setup();
      const res = await ctx.hosting({
        method: 'POST',
        url,
        payload: { name: 'de_DE', widgetTitle: 'Datenschutz', purposeNames: { a717ff5: 'Statistik' } },
      });
      expect(res.statusCode).toBe(201);
      const locale = res.json();
      expect(locale).toMatchObject({ name: 'de_DE', active: true, widgetTitle: 'Datenschutz', widgetIntroText: '' });
      for (const f of LOCALE_TEXT_FIELDS) expect(typeof locale[f], f).toBe('string');
      expect(locale.purposeNames).toEqual({ a717ff5: 'Statistik' });
      expect(locale.purposeDescriptions).toEqual({});
      expect((await ctx.hosting({ method: 'GET', url: `${url}/de_DE` })).json()).toEqual(locale);
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual([locale]);
    });

    it('shows the fallback texts with ?effective=true', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'nl', widgetTitle: 'Eigen titel' } });
      const res = await ctx.hosting({ method: 'GET', url: `${url}/nl?effective=true` });
      expect(res.statusCode).toBe(200);
      expect(res.json().widgetTitle).toBe('Eigen titel');
      expect(res.json().widgetIntroText).toBe(BUILTIN_TEXTS.nl.widgetIntroText);
      expect(res.json().purposeNames['41ba25c']).toBe(BUILTIN_TEXTS.nl.purposeNames['41ba25c']);
    });

    it.each([
      ['name', 'german'],
      ['name', 'de-DE'],
      ['name', 'DE_de'],
      ['active', 'yes'],
      ['widgetTitle', 'x'.repeat(5001)],
      ['widgetTitle', 42],
      ['imprintUrl', 'javascript:alert(1)'],
      ['purposeNames', { notapurpose: 'x' }],
      ['purposeNames', { a717ff5: 5 }],
      ['purposeDescriptions', { '41ba25c': 'x'.repeat(2001) }],
    ])('rejects %s = %j with a detail naming the field', async (field, value) => {
      const { url } = await setup();
      const res = await ctx.hosting({ method: 'POST', url, payload: { name: 'fr', [field]: value } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.some((d: { field: string }) => d.field.startsWith(`body.${field}`))).toBe(true);
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual([]);
    });

    it('refuses a duplicate name', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'it' } });
      const res = await ctx.hosting({ method: 'POST', url, payload: { name: 'it' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('LOCALE_NAME_TAKEN');
    });

    it('PUT merges texts and purpose maps, "" clears a field, the name cannot change', async () => {
      const { url } = await setup();
      await ctx.hosting({
        method: 'POST',
        url,
        payload: { name: 'es', widgetTitle: 'Título', checkAllButtonText: 'Todo', purposeNames: { a717ff5: 'Análisis' } },
      });
      const res = await ctx.hosting({
        method: 'PUT',
        url: `${url}/es`,
        payload: { name: 'es', widgetTitle: '', active: false, purposeNames: { cdcbd7c: 'Publicidad' } },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'es', active: false, widgetTitle: '', checkAllButtonText: 'Todo' });
      expect(res.json().purposeNames).toEqual({ a717ff5: 'Análisis', cdcbd7c: 'Publicidad' });
      const rename = await ctx.hosting({ method: 'PUT', url: `${url}/es`, payload: { name: 'pt' } });
      expect(rename.statusCode).toBe(400);
      expect(rename.json().error.code).toBe('IMMUTABLE_FIELD');
      expect((await ctx.hosting({ method: 'GET', url: `${url}/pt` })).statusCode).toBe(404);
    });

    it('deletes, then answers 404 LOCALE_NOT_FOUND', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'pl' } });
      expect((await ctx.hosting({ method: 'DELETE', url: `${url}/pl` })).statusCode).toBe(204);
      const res = await ctx.hosting({ method: 'DELETE', url: `${url}/pl` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('LOCALE_NOT_FOUND');
      expect((await ctx.hosting({ method: 'PUT', url: `${url}/pl`, payload: {} })).statusCode).toBe(404);
    });

    it('bumps the configuration revision on real changes only', async () => {
      const { url, domain } = await setup();
      const r0 = await domainRevisions(ctx, domain.id);
      await ctx.hosting({ method: 'POST', url, payload: { name: 'en_US', widgetTitle: 'Hi' } });
      const r1 = await domainRevisions(ctx, domain.id);
      expect(r1.config_revision).toBe(r0.config_revision + 1);
      await ctx.hosting({ method: 'PUT', url: `${url}/en_US`, payload: { widgetTitle: 'Hi', active: true } });
      expect(await domainRevisions(ctx, domain.id)).toEqual(r1);
      await ctx.hosting({ method: 'PUT', url: `${url}/en_US`, payload: { widgetTitle: 'Hello' } });
      const r2 = await domainRevisions(ctx, domain.id);
      expect(r2.config_revision).toBe(r1.config_revision + 1);
      expect(r2.legal_revision).toBe(r0.legal_revision);
    });

    it('keeps tenants apart on every path', async () => {
      const a = await setup();
      const b = await setup();
      await ctx.hosting({ method: 'POST', url: b.url, payload: { name: 'de_DE', widgetTitle: 'b-only' } });
      const crossed = `/hosting/api/client/${a.client.id}/domain/${b.domain.id}/locale`;
      for (const res of [
        await ctx.hosting({ method: 'GET', url: crossed }),
        await ctx.hosting({ method: 'GET', url: `${crossed}/de_DE` }),
        await ctx.hosting({ method: 'PUT', url: `${crossed}/de_DE`, payload: { widgetTitle: 'x' } }),
        await ctx.hosting({ method: 'POST', url: crossed, payload: { name: 'fr' } }),
        await ctx.hosting({ method: 'DELETE', url: `${crossed}/de_DE` }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('b-only');
      }
      expect((await ctx.hosting({ method: 'GET', url: `${b.url}/de_DE` })).json().widgetTitle).toBe('b-only');
    });
  });
}
