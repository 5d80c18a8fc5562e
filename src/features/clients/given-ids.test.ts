import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, unique, useApp } from '../../../test/helper.js';

/** #17 item 6: an agency recreates its clients and domains with the apiKey and domain id its sites carry. */
for (const dialect of DIALECTS) {
  describe(`${dialect}: given apiKey and domain id`, () => {
    const ctx = useApp(dialect);
    const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
    const newClient = (apiKey: unknown) => {
      const username = unique('mover');
      return ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        payload: { username, password: 'correct horse battery', emailAddress: `${username}@example.com`, apiKey },
      });
    };

    it('keeps a given apiKey, and a site snippet with it and the given domain id loads the widget', async () => {
      const apiKey = hex(48);
      const res = await newClient(apiKey);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ apiKey });
      const domainId = hex(7);
      const domain = await createDomain(ctx, res.json().id, { id: domainId, name: 'moved.example' });
      expect(domain.id).toBe(domainId);
      const widget = await ctx.app.inject({
        method: 'GET',
        url: `/public/app.js?apiKey=${apiKey}&domain=${domainId}`,
        headers: { referer: 'https://moved.example/' },
      });
      expect(widget.statusCode).toBe(200);
      expect(widget.body).toContain(domainId);
      expect(widget.body).not.toMatch(/^console\.warn/);
    });

    it('rejects a taken apiKey with a 400 that names the field, and creates nothing', async () => {
      const apiKey = hex(48);
      expect((await newClient(apiKey)).statusCode).toBe(201);
      const before = (await ctx.hosting({ method: 'GET', url: '/hosting/api/client' })).json<unknown[]>().length;
      const res = await newClient(apiKey);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'API_KEY_TAKEN',
          message: 'Another client already has this apiKey.',
          details: [{ field: 'body.apiKey', message: 'is already used by another client' }],
        },
      });
      expect((await ctx.hosting({ method: 'GET', url: '/hosting/api/client' })).json<unknown[]>()).toHaveLength(before);
    });

    it('still reports a taken username as USERNAME_TAKEN when the apiKey is new', async () => {
      const first = await createClient(ctx);
      const res = await ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        payload: { username: first.username, password: 'correct horse battery', emailAddress: 'x@example.com', apiKey: hex(48) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('USERNAME_TAKEN');
    });

    it.each([['47 hex', hex(47)], ['49 hex', hex(49)], ['not hex', 'g'.repeat(48)], ['a number', 42]])(
      'rejects an apiKey that is %s',
      async (_label, apiKey) => {
        const res = await newClient(apiKey);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(res.json().error.details[0].field).toBe('body.apiKey');
      },
    );

    it('ignores apiKey on PUT (set on create only), so a GET body can be PUT back', async () => {
      const client = await createClient(ctx);
      const res = await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${client.id}`, payload: { apiKey: hex(48), company: 'Moved' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ apiKey: client.apiKey, company: 'Moved' });
    });

    it('rejects a domain id that any client already uses with a 400 that names the field', async () => {
      const a = await createClient(ctx);
      const b = await createClient(ctx);
      const id = hex(7);
      await createDomain(ctx, a.id, { id });
      for (const owner of [a, b]) {
        const res = await ctx.hosting({
          method: 'POST',
          url: `/hosting/api/client/${owner.id}/domain`,
          payload: { id, name: `${unique('other')}.example` },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: {
            code: 'DOMAIN_ID_TAKEN',
            message: 'A domain with this id already exists.',
            details: [{ field: 'body.id', message: 'is already used by another domain' }],
          },
        });
      }
      const listed = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${b.id}/domain` });
      expect(listed.json()).toEqual([]);
    });

    it.each([['upper case', 'ABCDEF1'], ['6 characters', 'abcdef'], ['8 characters', 'abcdef12'], ['not hex', 'abcdefg']])(
      'rejects a domain id in %s',
      async (_label, id) => {
        const client = await createClient(ctx);
        const res = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain`, payload: { id, name: 'x.example' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details[0].field).toBe('body.id');
      },
    );

    it('ignores id on PUT (set on create only)', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const url = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      const res = await ctx.hosting({ method: 'PUT', url, payload: { id: hex(7), country: 'DE' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: domain.id, country: 'DE' });
    });
  });
}
