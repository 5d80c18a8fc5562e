/**
 * Tenant isolation, swept over every operation of the OpenAPI document rather than a sample of them: a client
 * signed in to the console (and its Domain API key) aims every client-scoped operation at another client's
 * resources, with a body that passes validation so the request reaches the authorisation check. Every answer
 * must be an error that names nothing of the other client's, and afterwards the other client's data is exactly
 * as it was. On SQLite and PostgreSQL.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { operations, resolve, sample } from './openapi/samples.js';
import { DIALECTS, populatedClient, useApp, type TestContext } from './helper.js';

const PASSWORD = 'correct horse battery';

/** The other client's data as the agency reads it, to compare before and after the sweep. */
async function dump(ctx: TestContext, t: Awaited<ReturnType<typeof populatedClient>>) {
  const urls = [
    `/hosting/api/client/${t.client.id}`, `/hosting/api/client/${t.client.id}/domain`, t.base, `${t.base}/embedding`,
    `${t.base}/embedding/${t.ids.embeddingId}/asset`, `${t.base}/placeholder`, `${t.base}/locale`, `${t.base}/theme`,
    `${t.base}/webhook`, `${t.base}/consent-log/quarantine`, `${t.base}/consent-log/blocks`, `${t.base}/consent-log/verify`,
  ];
  const out: Record<string, unknown> = {};
  for (const url of urls) {
    const res = await ctx.hosting({ method: 'GET', url });
    out[url] = [res.statusCode, res.json()];
  }
  const rows = await ctx.database.db.selectFrom('consent_records').select(['seq', 'hash']).where('domain_id', '=', t.domain.id).orderBy('seq').execute();
  out.records = rows.map((r) => `${r.seq}:${r.hash}`);
  return out;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: tenant isolation, every operation`, () => {
    // A webhook to a loopback address is allowed here (the fixture has one); the worker stays idle.
    const ctx = useApp(dialect, { webhooks: { ...testConfig().webhooks, allowPrivateNetworks: true, pollIntervalMs: 3_600_000 } });

    it("refuses every client-scoped operation on another client's resources and changes nothing of theirs", { timeout: 300_000 }, async () => {
      await ctx.app.ready();
      const doc = structuredClone(ctx.app.swagger()) as unknown as Record<string, unknown>;
      const mine = await populatedClient(ctx, 'mine', PASSWORD);
      const theirs = await populatedClient(ctx, 'theirs', PASSWORD);
      const before = await dump(ctx, theirs);

      const session = await ctx.app.inject({ method: 'POST', url: '/console/api/session', payload: { role: 'client', username: mine.client.username, password: PASSWORD } });
      expect(session.statusCode).toBe(201);
      const set = session.headers['set-cookie'];
      const cookie = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('placet_console='))!.split(';')[0]!;
      const csrf = session.json<{ csrfToken: string }>().csrfToken;

      const problems: string[] = [];
      const check = (label: string, res: LightMyRequestResponse) => {
        if (res.statusCode < 400) problems.push(`${label} → ${res.statusCode} ${res.body.slice(0, 160)}`);
        const leaked = theirs.secrets.filter((s) => res.body.includes(s));
        if (leaked.length > 0) problems.push(`${label} → ${res.statusCode} names ${leaked.join(', ')}`);
      };
      let reachedHandler = 0;
      let sent = 0;

      for (const { path, method, op } of operations(doc)) {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        const body = op.requestBody ? sample(doc, resolve(doc, Object.values(op.requestBody.content)[0]!.schema)) : undefined;
        if (path.startsWith('/hosting/api/client/{clientId}')) {
          // Their ids throughout; then my client id with their domain; then my client and domain with their
          // deeper ids (an embedding, a theme … of theirs under my own domain).
          const variants: Record<string, string>[] = [theirs.ids, { ...theirs.ids, clientId: mine.ids.clientId! }];
          if (names.length > 2) variants.push({ ...theirs.ids, clientId: mine.ids.clientId!, domainId: mine.ids.domainId! });
          for (const ids of variants) {
            // Only requests that name something of theirs (a locale name, say, is the same in both accounts).
            if (!names.some((n) => ids[n] === theirs.ids[n] && theirs.ids[n] !== mine.ids[n])) continue;
            const url = path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(ids[n] ?? 'x'));
            const res = await ctx.app.inject({
              method: method.toUpperCase() as 'GET',
              url,
              headers: { cookie, ...(method !== 'get' ? { 'x-csrf-token': csrf } : {}) },
              ...(body !== undefined ? { payload: body as object } : {}),
            });
            sent++;
            // Refused as not found or forbidden, not by the body validator: the request reached the check.
            if (res.statusCode === 404 || res.statusCode === 403) reachedHandler++;
            check(`${method.toUpperCase()} ${url}`, res);
          }
        } else if (path.startsWith('/api/domains/{domainId}')) {
          // My Domain API key on their domain.
          const url = path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(theirs.ids[n] ?? 'x'));
          const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${mine.domainKey}` } });
          sent++;
          check(`GET ${url} with my Domain API key`, res);
        }
      }
      expect(problems).toEqual([]);
      expect(sent).toBeGreaterThan(120);
      // Nearly every request got past validation to the ownership check (a few bodies the sample cannot make).
      expect(reachedHandler).toBeGreaterThan(sent * 0.8);

      // Their data is exactly as it was, and mine still works for me.
      expect(await dump(ctx, theirs)).toEqual(before);
      const own = await ctx.app.inject({ method: 'GET', url: `${mine.base}/embedding`, headers: { cookie } });
      expect(own.statusCode).toBe(200);
      expect(own.body).toContain('mine secret embedding');
    });
  });
}
