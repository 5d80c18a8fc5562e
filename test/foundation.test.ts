import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DIALECTS, HOSTING_KEY, createClient, useApp } from './helper.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: Hosting API authentication`, () => {
    const ctx = useApp(dialect);

    it('rejects a request without a key with 401 and the JSON error body', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/hosting/api/client' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    });

    it('rejects a wrong key in the query and in the header', async () => {
      for (const res of [
        await ctx.app.inject({ method: 'GET', url: '/hosting/api/client?apiKey=wrong' }),
        await ctx.app.inject({ method: 'GET', url: `/hosting/api/client?apiKey=${HOSTING_KEY}x` }),
        await ctx.app.inject({ method: 'GET', url: '/hosting/api/client', headers: { authorization: 'Bearer nope' } }),
        await ctx.app.inject({ method: 'GET', url: '/hosting/api/client', headers: { authorization: HOSTING_KEY } }),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('UNAUTHORIZED');
      }
    });

    it('accepts the key as ?apiKey= and as a Bearer token', async () => {
      const query = await ctx.app.inject({ method: 'GET', url: `/hosting/api/client?apiKey=${HOSTING_KEY}` });
      expect(query.statusCode).toBe(200);
      const header = await ctx.app.inject({
        method: 'GET',
        url: '/hosting/api/client',
        headers: { authorization: `Bearer ${HOSTING_KEY}` },
      });
      expect(header.statusCode).toBe(200);
      expect(header.json()).toEqual(query.json());
    });

    it('checks the key before reading the body, so an anonymous write stores nothing', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/hosting/api/client',
        payload: { username: 'intruder', password: 'long enough', emailAddress: 'i@example.com' },
      });
      expect(res.statusCode).toBe(401);
      const list = await ctx.hosting({ method: 'GET', url: '/hosting/api/client' });
      expect(list.json().map((c: { username: string }) => c.username)).not.toContain('intruder');
    });
  });

  describe(`${dialect}: error format`, () => {
    const ctx = useApp(dialect, { bodyLimitBytes: 4096 });

    it('answers malformed JSON with 400 INVALID_JSON', async () => {
      const res = await ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        headers: { 'content-type': 'application/json' },
        payload: '{"username": "a",',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_JSON');
    });

    it('answers an empty JSON body with 400 INVALID_JSON', async () => {
      const res = await ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_JSON');
    });

    it('answers a body over the limit with 413', async () => {
      const res = await ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        payload: { username: 'big', emailAddress: 'b@example.com', company: 'x'.repeat(5000) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('answers an unsupported content type with 415', async () => {
      const res = await ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        headers: { 'content-type': 'application/xml' },
        payload: '<client/>',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('answers an unknown route with 404 JSON', async () => {
      for (const url of ['/nope', `/hosting/api/nope?apiKey=${HOSTING_KEY}`]) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
    });

    it('lists every invalid or missing field at once', async () => {
      const res = await ctx.hosting({
        method: 'POST',
        url: '/hosting/api/client',
        payload: { username: 'has space', emailAddress: 'not-an-email', active: 'yes', domainMaxCount: -2 },
      });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      const fields = body.error.details.map((d: { field: string }) => d.field).sort();
      expect(fields).toEqual(['body.active', 'body.domainMaxCount', 'body.emailAddress', 'body.username']);
      for (const d of body.error.details) expect(d.message).toEqual(expect.any(String));
    });

    it('names a missing required field', async () => {
      const res = await ctx.hosting({ method: 'POST', url: '/hosting/api/client', payload: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual(
        expect.arrayContaining([
          { field: 'body.username', message: 'is required' },
          { field: 'body.emailAddress', message: 'is required' },
        ]),
      );
    });

    it('rejects a JSON body that is not an object', async () => {
      for (const payload of ['[]', '"text"', 'null', '42']) {
        const res = await ctx.hosting({
          method: 'POST',
          url: '/hosting/api/client',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toMatch(/VALIDATION_FAILED|INVALID_JSON/);
      }
    });

    it('names the field that holds a NUL character, nested values and keys included', async () => {
      const cases: [string, string][] = [
        ['{"username": "a\\u0000b", "emailAddress": "x@example.com", "password": "12345678"}', 'body.username'],
        ['{"username": "nul1", "emailAddress": "x@example.com", "password": "12345678", "features": {"x": ["ok", "\\u0000"]}}', 'body.features.x.1'],
        ['{"username": "nul2", "emailAddress": "x@example.com", "password": "12345678", "features": {"a\\u0000": 1}}', 'body.features.a\u0000'],
      ];
      for (const [payload, field] of cases) {
        const res = await ctx.hosting({ method: 'POST', url: '/hosting/api/client', headers: { 'content-type': 'application/json' }, payload });
        expect(res.statusCode, payload).toBe(400);
        expect(res.json().error.details, payload).toEqual([{ field, message: 'must not contain the NUL character' }]);
      }
    });

    it('never answers 500 for hostile input, and stores nothing from it', async () => {
      const before = (await ctx.hosting({ method: 'GET', url: '/hosting/api/client' })).json().length;
      const payloads = [
        '{"__proto__": {"admin": true}, "username": "p", "emailAddress": "p@example.com"}',
        '{"username": {"$gt": ""}, "emailAddress": "x@example.com", "password": "12345678"}',
        '{"username": "\\u0000", "emailAddress": "x@example.com", "password": "12345678"}',
        `{"username": "${'a'.repeat(101)}", "emailAddress": "x@example.com", "password": "12345678"}`,
        '{"username": "ok", "emailAddress": "x@example.com", "password": "12345678", "features": {"canUseIAB": "1"}}',
      ];
      for (const payload of payloads) {
        const res = await ctx.hosting({
          method: 'POST',
          url: '/hosting/api/client',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, payload).toBeLessThan(500);
        expect(res.json().error.code).toEqual(expect.any(String));
      }
      for (const url of ['/hosting/api/client/%', '/hosting/api/client/' + 'x'.repeat(2000), '/hosting/api/client/a%00b']) {
        const res = await ctx.hosting({ method: 'GET', url });
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, url).toBeLessThan(500);
      }
      const after = (await ctx.hosting({ method: 'GET', url: '/hosting/api/client' })).json().length;
      expect(after).toBe(before);
    });
  });

  describe(`${dialect}: health, OpenAPI and docs`, () => {
    const ctx = useApp(dialect);

    it('reports liveness and readiness', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    });

    it('serves an OpenAPI 3 document generated from the route schemas', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/hosting/api/client',
          '/hosting/api/client/{clientId}',
          '/hosting/api/client/by-username/{username}',
          '/hosting/api/client/by-apiKey/{apiKey}',
          '/hosting/api/clientgetid/{searchTerm}',
          '/hosting/api/client/{clientId}/domain',
          '/hosting/api/client/{clientId}/domain/{domainId}',
          '/hosting/api/client/{clientId}/domain-api-key',
        ]),
      );
      const create = doc.paths['/hosting/api/client'].post;
      expect(create.requestBody.content['application/json'].schema.required).toEqual(['username', 'emailAddress']);
      expect(doc.paths['/hosting/api/clientgetid/{searchTerm}'].get.deprecated).toBe(true);
    });

    it('serves interactive docs', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/html/);
    });
  });
}

describe('logging', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const ctx = useApp('sqlite', { logLevel: 'info' }, { logStream: stream });

  it('never writes a key or password into a log line', async () => {
    await ctx.app.inject({ method: 'GET', url: `/hosting/api/client?apiKey=${HOSTING_KEY}` });
    await ctx.app.inject({ method: 'GET', url: '/hosting/api/client?apiKey=guessed-key-value' });
    await createClient(ctx, { password: 'super-secret-password' });
    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(HOSTING_KEY);
    expect(log).not.toContain('guessed-key-value');
    expect(log).not.toContain('super-secret-password');
  });
});
