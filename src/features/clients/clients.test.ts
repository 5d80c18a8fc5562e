import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, unique, useApp } from '../../../test/helper.js';
import { FEATURE_FLAGS } from './clients.schemas.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: clients`, () => {
    const ctx = useApp(dialect);

    describe('POST /client', () => {
      it('creates a client with defaults, a 48-hex public apiKey and no password in the answer', async () => {
        const res = await ctx.hosting({
          method: 'POST',
          url: '/hosting/api/client',
          payload: { username: 'acme', password: 'correct horse battery', emailAddress: 'ops@acme.example' },
        });
        expect(res.statusCode).toBe(201);
        const client = res.json();
        expect(client).toMatchObject({
          id: expect.stringMatching(/^[0-9a-f]{7}$/),
          username: 'acme',
          active: false,
          firstName: '',
          lastName: '',
          company: '',
          emailAddress: 'ops@acme.example',
          domainCount: 0,
          domainMaxCount: -1,
          whitelabelCount: 0,
          whitelabelMaxCount: -1,
          widgetDisplayCount: 0,
          widgetDisplayMaxCount: -1,
          autoCreateDomains: false,
          apiKey: expect.stringMatching(/^[0-9a-f]{48}$/),
        });
        expect(Object.keys(client.features).sort()).toEqual([...FEATURE_FLAGS].sort());
        expect(Object.values(client.features).every((v) => v === true)).toBe(true);
        expect(client).not.toHaveProperty('password');
        expect(client).not.toHaveProperty('passwordHash');
        expect(res.body).not.toContain('correct horse battery');
      });

      it('stores the password as a salted bcrypt hash', async () => {
        const client = await createClient(ctx, { password: 'another long secret' });
        const row = await ctx.database.db
          .selectFrom('clients')
          .select('password_hash')
          .where('id', '=', client.id)
          .executeTakeFirstOrThrow();
        expect(row.password_hash).toMatch(/^\$2[aby]\$/);
        expect(await bcrypt.compare('another long secret', row.password_hash)).toBe(true);
      });

      it('accepts a precomputed bcrypt passwordHash instead of a password', async () => {
        const hash = '$2y$10$' + 'a'.repeat(53);
        const client = await createClient(ctx, { password: undefined, passwordHash: hash });
        const row = await ctx.database.db
          .selectFrom('clients')
          .select('password_hash')
          .where('id', '=', client.id)
          .executeTakeFirstOrThrow();
        expect(row.password_hash).toBe(hash);
      });

      it('requires a password or a passwordHash', async () => {
        const res = await ctx.hosting({
          method: 'POST',
          url: '/hosting/api/client',
          payload: { username: unique('u'), emailAddress: 'x@example.com' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details).toEqual([{ field: 'body.password', message: expect.any(String) }]);
      });

      it('answers a taken username with 400 USERNAME_TAKEN, also with different case', async () => {
        const first = await createClient(ctx);
        for (const username of [first.username, first.username.toUpperCase()]) {
          const res = await ctx.hosting({
            method: 'POST',
            url: '/hosting/api/client',
            payload: { username, password: 'long enough pw', emailAddress: 'dup@example.com' },
          });
          expect(res.statusCode).toBe(400);
          expect(res.json().error.code).toBe('USERNAME_TAKEN');
        }
      });

      it.each([
        ['emailAddress', 'no-at-sign'],
        ['emailAddress', 'a@'],
        ['username', ''],
        ['username', 'white space'],
        ['password', 'short'],
        ['passwordHash', 'not-bcrypt'],
        ['domainMaxCount', -5],
        ['domainMaxCount', 1.5],
        ['whitelabelMaxCount', '3'],
        ['widgetDisplayMaxCount', null],
        ['active', 'true'],
        ['autoCreateDomains', 1],
        ['features', { canUseIAB: 'yes' }],
        ['firstName', 'x'.repeat(101)],
      ])('rejects %s = %j with a detail naming the field', async (field, value) => {
        const res = await ctx.hosting({
          method: 'POST',
          url: '/hosting/api/client',
          payload: { username: unique('v'), password: 'long enough pw', emailAddress: 'v@example.com', [field]: value },
        });
        expect(res.statusCode).toBe(400);
        const fields = res.json().error.details.map((d: { field: string }) => d.field);
        expect(fields.some((f: string) => f.startsWith(`body.${field}`))).toBe(true);
      });

      it('ignores read-only and unknown fields (apiKey is writable on create: given-ids.test.ts)', async () => {
        const client = await createClient(ctx, { id: 'fffffff', domainCount: 99, unknown: 1 });
        expect(client.id).not.toBe('fffffff');
        expect(client).toMatchObject({ domainCount: 0 });
      });
    });

    describe('GET /client', () => {
      it('lists clients with actualCallCount and domainCountData per domain', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id, { name: 'https://www.listed.example/shop/' });
        const res = await ctx.hosting({ method: 'GET', url: '/hosting/api/client' });
        expect(res.statusCode).toBe(200);
        const item = res.json().find((c: { id: string }) => c.id === client.id);
        expect(item.actualCallCount).toBe(0);
        expect(item.domainCount).toBe(1);
        expect(item.domainCountData).toEqual([{ domName: domain.name, count: 0 }]);
      });

      it('counts this month\'s widget calls per domain', async () => {
        const client = await createClient(ctx);
        const a = await createDomain(ctx, client.id);
        const b = await createDomain(ctx, client.id);
        const month = new Date().toISOString().slice(0, 7);
        await ctx.database.db
          .insertInto('call_counts')
          .values([
            { domain_id: a.id, month, count: 5 },
            { domain_id: b.id, month, count: 7 },
            { domain_id: a.id, month: '2001-01', count: 1000 },
          ])
          .execute();
        const item = (await ctx.hosting({ method: 'GET', url: '/hosting/api/client' }))
          .json()
          .find((c: { id: string }) => c.id === client.id);
        expect(item.actualCallCount).toBe(12);
        expect(item.widgetDisplayCount).toBe(12);
        expect(item.domainCountData).toHaveLength(2);
        expect(item.domainCountData).toEqual(
          expect.arrayContaining([
            { domName: a.name, count: 5 },
            { domName: b.name, count: 7 },
          ]),
        );
        const single = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}` })).json();
        expect(single.widgetDisplayCount).toBe(12);
        expect(single).not.toHaveProperty('actualCallCount');
      });
    });

    describe('GET /client/:clientId and lookups', () => {
      it('reads a client by id, username and apiKey', async () => {
        const client = await createClient(ctx);
        for (const url of [
          `/hosting/api/client/${client.id}`,
          `/hosting/api/client/by-username/${client.username}`,
          `/hosting/api/client/by-apiKey/${client.apiKey}`,
        ]) {
          const res = await ctx.hosting({ method: 'GET', url });
          expect(res.statusCode, url).toBe(200);
          expect(res.json().id).toBe(client.id);
        }
      });

      it('answers 404 for unknown ids, usernames and keys', async () => {
        for (const url of [
          '/hosting/api/client/0000000',
          '/hosting/api/client/by-username/nobody-here',
          `/hosting/api/client/by-apiKey/${'0'.repeat(48)}`,
          '/hosting/api/clientgetid/nobody@nowhere.example',
        ]) {
          const res = await ctx.hosting({ method: 'GET', url });
          expect(res.statusCode, url).toBe(404);
          expect(res.json().error.code).toBe('CLIENT_NOT_FOUND');
        }
      });

      it('finds by username or e-mail address with the deprecated search, marked deprecated', async () => {
        const client = await createClient(ctx, { emailAddress: 'Search.Me@Example.com' });
        for (const term of [client.username, 'search.me@example.com']) {
          const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/clientgetid/${encodeURIComponent(term)}` });
          expect(res.statusCode).toBe(200);
          expect(res.json().id).toBe(client.id);
          expect(res.headers.deprecation).toMatch(/^@\d+$/);
        }
      });
    });

    describe('PUT /client/:clientId', () => {
      it('merges: omitted fields, features and the password keep their value', async () => {
        const client = await createClient(ctx, {
          firstName: 'Ada',
          company: 'Engines Ltd',
          domainMaxCount: 5,
          features: { canUseIAB: false },
        });
        const before = await ctx.database.db
          .selectFrom('clients').select('password_hash').where('id', '=', client.id).executeTakeFirstOrThrow();
        const res = await ctx.hosting({
          method: 'PUT',
          url: `/hosting/api/client/${client.id}`,
          payload: { lastName: 'Lovelace', features: { canUseABTests: false } },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          firstName: 'Ada',
          lastName: 'Lovelace',
          company: 'Engines Ltd',
          domainMaxCount: 5,
          username: client.username,
          apiKey: client.apiKey,
        });
        expect(res.json().features).toMatchObject({ canUseIAB: false, canUseABTests: false, canUseAnalytics: true });
        const after = await ctx.database.db
          .selectFrom('clients').select('password_hash').where('id', '=', client.id).executeTakeFirstOrThrow();
        expect(after.password_hash).toBe(before.password_hash);
      });

      it('changes the password when one is given', async () => {
        const client = await createClient(ctx);
        await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${client.id}`, payload: { password: 'brand new secret' } });
        const row = await ctx.database.db
          .selectFrom('clients').select('password_hash').where('id', '=', client.id).executeTakeFirstOrThrow();
        expect(await bcrypt.compare('brand new secret', row.password_hash)).toBe(true);
      });

      it('rejects a taken username and invalid fields, changing nothing', async () => {
        const a = await createClient(ctx);
        const b = await createClient(ctx, { company: 'B Corp' });
        const taken = await ctx.hosting({
          method: 'PUT',
          url: `/hosting/api/client/${b.id}`,
          payload: { username: a.username, company: 'Changed' },
        });
        expect(taken.statusCode).toBe(400);
        expect(taken.json().error.code).toBe('USERNAME_TAKEN');
        const invalid = await ctx.hosting({
          method: 'PUT',
          url: `/hosting/api/client/${b.id}`,
          payload: { emailAddress: 'broken', company: 'Changed' },
        });
        expect(invalid.statusCode).toBe(400);
        const read = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${b.id}` })).json();
        expect(read.company).toBe('B Corp');
        expect(read.username).toBe(b.username);
      });

      it('answers 404 for an unknown client', async () => {
        const res = await ctx.hosting({ method: 'PUT', url: '/hosting/api/client/0000000', payload: { company: 'x' } });
        expect(res.statusCode).toBe(404);
      });
    });

    describe('DELETE /client/:clientId', () => {
      it('removes the client and everything it owns', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        const month = new Date().toISOString().slice(0, 7);
        await ctx.database.db.insertInto('call_counts').values({ domain_id: domain.id, month, count: 3 }).execute();
        const res = await ctx.hosting({ method: 'DELETE', url: `/hosting/api/client/${client.id}` });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}` })).statusCode).toBe(404);
        const domains = await ctx.database.db.selectFrom('domains').select('id').where('client_id', '=', client.id).execute();
        expect(domains).toEqual([]);
        const counts = await ctx.database.db.selectFrom('call_counts').select('month').where('domain_id', '=', domain.id).execute();
        expect(counts).toEqual([]);
        const again = await ctx.hosting({ method: 'DELETE', url: `/hosting/api/client/${client.id}` });
        expect(again.statusCode).toBe(404);
      });
    });

    describe('POST /client/:clientId/domain-api-key', () => {
      it('creates a secret key, stores only its hash, and replaces the previous one', async () => {
        const client = await createClient(ctx);
        const first = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` });
        expect(first.statusCode).toBe(201);
        const key1 = first.json().apiKey as string;
        expect(key1.length).toBeGreaterThanOrEqual(64);
        expect(key1).not.toBe(client.apiKey);
        const row = await ctx.database.db
          .selectFrom('clients').select('domain_api_key_hash').where('id', '=', client.id).executeTakeFirstOrThrow();
        expect(row.domain_api_key_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(row.domain_api_key_hash).not.toContain(key1);
        const second = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` });
        expect(second.json().apiKey).not.toBe(key1);
        const row2 = await ctx.database.db
          .selectFrom('clients').select('domain_api_key_hash').where('id', '=', client.id).executeTakeFirstOrThrow();
        expect(row2.domain_api_key_hash).not.toBe(row.domain_api_key_hash);
      });

      it('answers 404 for an unknown client', async () => {
        const res = await ctx.hosting({ method: 'POST', url: '/hosting/api/client/0000000/domain-api-key' });
        expect(res.statusCode).toBe(404);
      });
    });
  });
}
