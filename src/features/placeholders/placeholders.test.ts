import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, domainRevisions as revisions, useApp } from '../../../test/helper.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: placeholders`, () => {
    const ctx = useApp(dialect);
    const setup = async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      return { client, domain, url: `/hosting/api/client/${client.id}/domain/${domain.id}/placeholder` };
    };

    it('creates a placeholder, strips braces, and reads it back by name with or without braces', async () => {
      const { url } = await setup();
      const res = await ctx.hosting({ method: 'POST', url, payload: { name: '{COMPANY}', value: 'Acme Ltd' } });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ name: 'COMPANY', value: 'Acme Ltd' });
      for (const name of ['COMPANY', '%7BCOMPANY%7D']) {
        const one = await ctx.hosting({ method: 'GET', url: `${url}/${name}` });
        expect(one.statusCode).toBe(200);
        expect(one.json()).toEqual({ name: 'COMPANY', value: 'Acme Ltd' });
      }
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual([{ name: 'COMPANY', value: 'Acme Ltd' }]);
    });

    it('refuses a duplicate name, bad names and missing values', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'CITY', value: 'Berlin' } });
      const dup = await ctx.hosting({ method: 'POST', url, payload: { name: '{CITY}', value: 'Paris' } });
      expect(dup.statusCode).toBe(400);
      expect(dup.json().error.code).toBe('PLACEHOLDER_NAME_TAKEN');
      for (const payload of [
        { name: 'has space', value: 'x' },
        { name: 'ümlaut', value: 'x' },
        { name: '', value: 'x' },
        { name: 'A'.repeat(65), value: 'x' },
        { name: 'OK' },
        { name: 'OK', value: 'x'.repeat(5001) },
      ]) {
        const res = await ctx.hosting({ method: 'POST', url, payload });
        expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
        expect(res.json().error.details[0].field).toMatch(/^body\.(name|value)$/);
      }
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual([{ name: 'CITY', value: 'Berlin' }]);
    });

    it('PUT on one changes the value, and refuses a rename', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'CITY', value: 'Berlin' } });
      const res = await ctx.hosting({ method: 'PUT', url: `${url}/CITY`, payload: { value: 'Hamburg' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'CITY', value: 'Hamburg' });
      const same = await ctx.hosting({ method: 'PUT', url: `${url}/CITY`, payload: { name: '{CITY}', value: 'Bremen' } });
      expect(same.statusCode).toBe(200);
      const rename = await ctx.hosting({ method: 'PUT', url: `${url}/CITY`, payload: { name: 'TOWN', value: 'Kiel' } });
      expect(rename.statusCode).toBe(400);
      expect(rename.json().error.code).toBe('IMMUTABLE_FIELD');
      expect((await ctx.hosting({ method: 'GET', url: `${url}/CITY` })).json().value).toBe('Bremen');
      expect((await ctx.hosting({ method: 'PUT', url: `${url}/NOPE`, payload: { value: 'x' } })).statusCode).toBe(404);
    });

    it('PUT on the collection replaces the whole set atomically and answers 201 with it', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'OLD', value: 'gone soon' } });
      const next = [
        { name: '{FIRMA}', value: 'Acme GmbH' },
        { name: 'Firma_Ort', value: 'Köln' },
      ];
      const res = await ctx.hosting({ method: 'PUT', url, payload: next });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual([
        { name: 'FIRMA', value: 'Acme GmbH' },
        { name: 'Firma_Ort', value: 'Köln' },
      ]);
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual(res.json());
      expect((await ctx.hosting({ method: 'GET', url: `${url}/OLD` })).statusCode).toBe(404);
      const empty = await ctx.hosting({ method: 'PUT', url, payload: [] });
      expect(empty.statusCode).toBe(201);
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual([]);
    });

    it('refuses duplicate names in the bulk set (also with braces) and keeps the old set', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'PUT', url, payload: [{ name: 'KEEP', value: 'me' }] });
      const res = await ctx.hosting({
        method: 'PUT',
        url,
        payload: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
          { name: '{A}', value: '3' },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: 'body.2.name', message: expect.stringContaining('body.0.name') }]);
      const invalid = await ctx.hosting({ method: 'PUT', url, payload: [{ name: 'A', value: '1' }, { name: 'bad name', value: '2' }] });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().error.details[0].field).toBe('body.1.name');
      expect((await ctx.hosting({ method: 'GET', url })).json()).toEqual([{ name: 'KEEP', value: 'me' }]);
    });

    it('deletes, then answers 404', async () => {
      const { url } = await setup();
      await ctx.hosting({ method: 'POST', url, payload: { name: 'X', value: 'y' } });
      expect((await ctx.hosting({ method: 'DELETE', url: `${url}/{X}` })).statusCode).toBe(204);
      expect((await ctx.hosting({ method: 'DELETE', url: `${url}/X` })).statusCode).toBe(404);
      const missing = await ctx.hosting({ method: 'GET', url: `${url}/X` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('PLACEHOLDER_NOT_FOUND');
    });

    it('bumps the configuration revision on real changes only, never the legal one', async () => {
      const { url, domain } = await setup();
      const r0 = await revisions(ctx, domain.id);
      await ctx.hosting({ method: 'POST', url, payload: { name: 'A', value: '1' } });
      const r1 = await revisions(ctx, domain.id);
      expect(r1.config_revision).toBe(r0.config_revision + 1);
      await ctx.hosting({ method: 'PUT', url: `${url}/A`, payload: { value: '1' } });
      await ctx.hosting({ method: 'PUT', url, payload: [{ name: 'A', value: '1' }] });
      expect(await revisions(ctx, domain.id)).toEqual(r1);
      await ctx.hosting({ method: 'PUT', url: `${url}/A`, payload: { value: '2' } });
      const r2 = await revisions(ctx, domain.id);
      expect(r2.config_revision).toBe(r1.config_revision + 1);
      expect(r2.legal_revision).toBe(r0.legal_revision);
    });

    it('keeps tenants apart on every path', async () => {
      const a = await setup();
      const b = await setup();
      await ctx.hosting({ method: 'POST', url: b.url, payload: { name: 'SECRET', value: 'b-only' } });
      const crossed = `/hosting/api/client/${a.client.id}/domain/${b.domain.id}/placeholder`;
      for (const res of [
        await ctx.hosting({ method: 'GET', url: crossed }),
        await ctx.hosting({ method: 'GET', url: `${crossed}/SECRET` }),
        await ctx.hosting({ method: 'PUT', url: `${crossed}/SECRET`, payload: { value: 'x' } }),
        await ctx.hosting({ method: 'PUT', url: crossed, payload: [] }),
        await ctx.hosting({ method: 'POST', url: crossed, payload: { name: 'N', value: 'v' } }),
        await ctx.hosting({ method: 'DELETE', url: `${crossed}/SECRET` }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('b-only');
      }
      expect((await ctx.hosting({ method: 'GET', url: b.url })).json()).toEqual([{ name: 'SECRET', value: 'b-only' }]);
      const unknownDomain = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${a.client.id}/domain/0000000/placeholder` });
      expect(unknownDomain.json().error.code).toBe('DOMAIN_NOT_FOUND');
    });
  });
}
