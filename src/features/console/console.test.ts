import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DIALECTS, HOSTING_KEY, createClient, createDomain, useApp } from '../../../test/helper.js';
import { MAX_FAILURES_PER_ACCOUNT, SESSION_IDLE_MS } from './console.service.js';

const PASSWORD = 'correct horse battery';

/** A clock the test moves forward. */
const movingClock = () => {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
};

for (const dialect of DIALECTS) {
  describe(`${dialect}: console sessions and tenant isolation`, () => {
    const clock = movingClock();
    const ctx = useApp(dialect, { trustProxy: true }, { clock });

    const signIn = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: '/console/api/session', payload: body, headers: { 'x-forwarded-for': '203.0.113.9', ...headers } });
    const cookieOf = (res: LightMyRequestResponse) => {
      const set = res.headers['set-cookie'];
      const line = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('placet_console='))!;
      return line.split(';')[0]!;
    };
    /** A signed-in browser: the cookie, and the CSRF token on changes unless told otherwise. */
    const as = (res: LightMyRequestResponse) => {
      const cookie = cookieOf(res);
      const csrf = res.json().csrfToken as string;
      return (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, withCsrf = true) =>
        ctx.app.inject({
          method, url, payload: payload as never,
          headers: { cookie, ...(withCsrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {}) },
        });
    };

    it('signs the agency in with the Hosting API key into an HttpOnly, SameSite=Strict cookie (Secure over TLS)', async () => {
      const wrong = await signIn({ role: 'agency', key: 'nope' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe('LOGIN_FAILED');
      const plain = await signIn({ role: 'agency', key: HOSTING_KEY });
      expect(plain.statusCode).toBe(201);
      expect(plain.json()).toMatchObject({ role: 'agency', clientId: null, csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const cookie = String(plain.headers['set-cookie']);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Secure/);
      const tls = await signIn({ role: 'agency', key: HOSTING_KEY }, { 'x-forwarded-proto': 'https' });
      expect(String(tls.headers['set-cookie'])).toMatch(/Secure/);
      // The cookie token is stored only as a hash.
      const rows = await ctx.database.db.selectFrom('console_sessions').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(cookieOf(plain).split('=')[1]);
    });

    it('lets the agency session use the whole Hosting API, and refuses a change without the CSRF token', async () => {
      const call = as(await signIn({ role: 'agency', key: HOSTING_KEY }));
      expect((await call('GET', '/hosting/api/client')).statusCode).toBe(200);
      const body = { username: 'via-console', emailAddress: 'c@example.com', password: PASSWORD };
      const forged = await call('POST', '/hosting/api/client', body, false);
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error.code).toBe('CSRF_FAILED');
      expect((await call('POST', '/hosting/api/client', body)).statusCode).toBe(201);
      expect((await call('GET', '/console/api/session')).json()).toMatchObject({ role: 'agency' });
    });

    it('signs a client in only when active, and keeps it inside its own account', async () => {
      const mine = await createClient(ctx, { password: PASSWORD, active: false });
      const other = await createClient(ctx, { password: PASSWORD, active: true });
      const otherDomain = await createDomain(ctx, other.id);
      const inactive = await signIn({ role: 'client', username: mine.username, password: PASSWORD });
      expect(inactive.statusCode).toBe(401);
      await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${mine.id}`, payload: { active: true } });
      const myDomain = await createDomain(ctx, mine.id);
      const res = await signIn({ role: 'client', username: mine.username.toUpperCase(), password: PASSWORD });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ role: 'client', clientId: mine.id });
      const call = as(res);

      expect((await call('GET', `/hosting/api/client/${mine.id}`)).json()).toMatchObject({ id: mine.id });
      expect((await call('GET', `/hosting/api/client/${mine.id}/domain`)).json()).toEqual([expect.objectContaining({ id: myDomain.id })]);
      expect((await call('GET', '/hosting/api/onboarding/presets?limit=1')).statusCode).toBe(200);
      // Another client's data: as if it did not exist.
      for (const url of [
        `/hosting/api/client/${other.id}`,
        `/hosting/api/client/${other.id}/domain`,
        `/hosting/api/client/${other.id}/domain/${otherDomain.id}`,
        `/hosting/api/client/${other.id}/domain/${otherDomain.id}/onboarding/embed`,
        `/hosting/api/client/${other.id}/domain/${otherDomain.id}/consent-log/blocks`,
      ]) {
        const r = await call('GET', url);
        expect(r.statusCode, url).toBe(404);
        expect(r.body).not.toContain(other.apiKey);
      }
      // Another's domain under my own client id is not mine either.
      expect((await call('GET', `/hosting/api/client/${mine.id}/domain/${otherDomain.id}`)).statusCode).toBe(404);
      // The theme preview (a POST with the CSRF token): its own domain's widget, never another's.
      expect((await call('POST', `/hosting/api/client/${mine.id}/domain/${myDomain.id}/theme/preview`, {})).statusCode).toBe(200);
      expect((await call('POST', `/hosting/api/client/${mine.id}/domain/${myDomain.id}/theme/preview`, {}, false)).statusCode).toBe(403);
      for (const url of [`/hosting/api/client/${other.id}/domain/${otherDomain.id}/theme/preview`, `/hosting/api/client/${mine.id}/domain/${otherDomain.id}/theme/preview`]) {
        const r = await call('POST', url, {});
        expect(r.statusCode, url).toBe(404);
        expect(r.body).not.toContain(other.apiKey);
      }
      expect((await call('POST', `/hosting/api/client/${other.id}/domain`, { name: 'intruder.example' })).statusCode).toBe(404);
      expect((await call('DELETE', `/hosting/api/client/${other.id}/domain/${otherDomain.id}`)).statusCode).toBe(404);
      expect((await call('POST', `/hosting/api/client/${other.id}/domain-api-key`)).statusCode).toBe(404);
      // Agency-only calls: the list of clients, creating clients, changing its own quotas.
      expect((await call('GET', '/hosting/api/client')).json().error.code).toBe('FORBIDDEN');
      expect((await call('POST', '/hosting/api/client', { username: 'x', emailAddress: 'x@example.com', password: PASSWORD })).statusCode).toBe(403);
      expect((await call('PUT', `/hosting/api/client/${mine.id}`, { domainMaxCount: 999 })).statusCode).toBe(403);
      expect((await call('GET', `/hosting/api/client/by-username/${other.username}`)).statusCode).toBe(403);
      // What is its own, it may change.
      expect((await call('POST', `/hosting/api/client/${mine.id}/domain`, { name: 'mine-too.example' })).statusCode).toBe(201);
      expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${other.id}/domain` })).json()).toHaveLength(1);
      // Deactivated by the agency: signed out at the next request.
      await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${mine.id}`, payload: { active: false } });
      expect((await call('GET', `/hosting/api/client/${mine.id}/domain`)).statusCode).toBe(401);
      expect((await call('GET', '/console/api/session')).statusCode).toBe(401);
    });

    it('signs out (the cookie stops working) and ends idle sessions', async () => {
      const call = as(await signIn({ role: 'agency', key: HOSTING_KEY }));
      expect((await call('DELETE', '/console/api/session', undefined, false)).statusCode).toBe(403);
      expect((await call('DELETE', '/console/api/session')).statusCode).toBe(204);
      expect((await call('GET', '/hosting/api/client')).statusCode).toBe(401);
      const idle = as(await signIn({ role: 'agency', key: HOSTING_KEY }));
      expect((await idle('GET', '/console/api/session')).statusCode).toBe(200);
      clock.advance(SESSION_IDLE_MS + 1000);
      expect((await idle('GET', '/console/api/session')).statusCode).toBe(401);
      expect((await idle('GET', '/hosting/api/client')).statusCode).toBe(401);
    });

    it('throttles failed sign-ins per account, even for the right password afterwards', async () => {
      const client = await createClient(ctx, { password: PASSWORD, active: true });
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
        expect((await signIn({ role: 'client', username: client.username, password: 'wrong password' }, { 'x-forwarded-for': `198.51.100.${i}` })).statusCode).toBe(401);
      }
      const blocked = await signIn({ role: 'client', username: client.username, password: PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/Too many failed sign-ins/) });
      clock.advance(16 * 60 * 1000);
      expect((await signIn({ role: 'client', username: client.username, password: PASSWORD })).statusCode).toBe(201);
    });
  });
}
