import http from 'node:http';
import type { InjectOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { testConfig, type Config } from '../../config.js';
import { connect } from '../../db/connect.js';
import {
  DIALECTS,
  HOSTING_KEY,
  TEST_DATABASE_URL,
  createClient,
  createDomain,
  sendConsent,
  useApp,
  type TestContext,
} from '../../../test/helper.js';
import { pruneSettled } from './webhooks.repository.js';
import { urlProblem } from './webhooks.sender.js';
import { verify } from './webhooks.signer.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver that can go down (port closed) and come back on the same port. */
class Receiver {
  received: Received[] = [];
  private server: http.Server | undefined;
  port = 0;

  async up(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const FAST: Partial<Config> = {
  webhooks: { allowPrivateNetworks: true, pollIntervalMs: 20, retryBaseMs: 50, maxAttempts: 50, timeoutMs: 2000 },
};

const hostingInject = (app: App, opts: InjectOptions) =>
  app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}` } });

async function register(ctx: TestContext, clientId: string, domainId: string, url: string) {
  const res = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${clientId}/domain/${domainId}/webhook`, payload: { url } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; secret: string; url: string }>();
}

describe('webhook URL guard', () => {
  it('refuses http, loopback, private and metadata endpoints unless private networks are allowed', async () => {
    expect(await urlProblem('http://example.com/hook', false)).toBe('must use https://');
    expect(await urlProblem('https://127.0.0.1/hook', false)).toMatch(/loopback/);
    expect(await urlProblem('https://169.254.169.254/latest', false)).toMatch(/metadata/);
    expect(await urlProblem('https://10.1.2.3/hook', false)).toMatch(/private/);
    expect(await urlProblem('https://localhost/hook', false)).toMatch(/loopback/);
    expect(await urlProblem('https://user:pw@93.184.215.14/hook', false)).toMatch(/credentials/);
    expect(await urlProblem('https://93.184.215.14/hook', false)).toBeUndefined();
    expect(await urlProblem('http://127.0.0.1:9/hook', true)).toBeUndefined();
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhooks API with the default (closed) network policy`, () => {
    const ctx = useApp(dialect);

    it('answers 400 WEBHOOK_URL_FORBIDDEN for a loopback endpoint', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const res = await ctx.hosting({
        method: 'POST',
        url: `/hosting/api/client/${client.id}/domain/${domain.id}/webhook`,
        payload: { url: 'https://127.0.0.1/hook' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('WEBHOOK_URL_FORBIDDEN');
    });
  });

  describe(`${dialect}: consent webhooks`, () => {
    const ctx = useApp(dialect, FAST);
    const receiver = new Receiver();
    beforeAll(() => receiver.up());
    afterAll(() => receiver.down());

    const deliveries = async (clientId: string, domainId: string, hookId: string) =>
      (
        await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${clientId}/domain/${domainId}/webhook/${hookId}/delivery` })
      ).json<{ eventId: string; status: string; attempts: number; lastError: string | null; type: string }[]>();

    it('creates, lists (without the secret), updates and deletes, scoped by client', async () => {
      const client = await createClient(ctx);
      const other = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}/webhook`;
      const list = await ctx.hosting({ method: 'GET', url: base });
      expect(list.json()).toEqual([expect.objectContaining({ id: hook.id, url: receiver.url, enabled: true })]);
      expect(list.body).not.toContain(hook.secret);
      const foreign = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${other.id}/domain/${domain.id}/webhook/${hook.id}` });
      expect(foreign.statusCode).toBe(404);
      const foreignDelete = await ctx.hosting({ method: 'DELETE', url: `/hosting/api/client/${other.id}/domain/${domain.id}/webhook/${hook.id}` });
      expect(foreignDelete.statusCode).toBe(404);
      const patched = await ctx.hosting({ method: 'PATCH', url: `${base}/${hook.id}`, payload: { enabled: false } });
      expect(patched.json()).toMatchObject({ enabled: false });
      expect((await ctx.hosting({ method: 'DELETE', url: `${base}/${hook.id}` })).statusCode).toBe(204);
      const gone = await ctx.hosting({ method: 'GET', url: `${base}/${hook.id}` });
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error.code).toBe('WEBHOOK_NOT_FOUND');
    });

    it('delivers each decision with its record and chain hash, signed (Standard Webhooks)', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      const ucid = await sendConsent(ctx, client, domain);
      const got = await until('the delivery', () => receiver.received.find((r) => r.body.includes(ucid)));
      expect(verify(hook.secret, got.headers, got.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verify(hook.secret, got.headers, got.body.replace('acceptAll', 'rejectAll'), Math.floor(Date.now() / 1000))).toBe(false);
      const event = JSON.parse(got.body) as { type: string; id: string; data: { domainId: string; seq: number; hash: string; record: { ucid: string } } };
      const row = await ctx.database.db
        .selectFrom('consent_records')
        .select(['seq', 'hash'])
        .where('domain_id', '=', domain.id)
        .where('ucid', '=', ucid)
        .executeTakeFirstOrThrow();
      expect(event).toMatchObject({ type: 'consent.recorded', data: { domainId: domain.id, seq: Number(row.seq), hash: row.hash, record: { ucid } } });
      expect(got.headers['webhook-id']).toBe(event.id);
      const state = await until('delivered state', async () => {
        const list = await deliveries(client.id, domain.id, hook.id);
        return list[0]?.status === 'delivered' ? list : undefined;
      });
      expect(state).toEqual([expect.objectContaining({ eventId: event.id, status: 'delivered', attempts: 1, lastError: null })]);
    });

    it('queues a signed test delivery', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      const res = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain/${domain.id}/webhook/${hook.id}/test` });
      expect(res.statusCode).toBe(202);
      const { eventId } = res.json<{ eventId: string }>();
      const got = await until('the test delivery', () => receiver.received.find((r) => r.headers['webhook-id'] === eventId));
      expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
      expect(verify(hook.secret, got.headers, got.body, Math.floor(Date.now() / 1000))).toBe(true);
    });

    it('retries with backoff while the receiver is down and delivers once it is back', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      await receiver.down();
      try {
        await sendConsent(ctx, client, domain);
        const failing = await until('two failed attempts', async () => {
          const [d] = await deliveries(client.id, domain.id, hook.id);
          return d && d.attempts >= 2 ? d : undefined;
        });
        expect(failing.status).toBe('pending');
        expect(failing.lastError).toMatch(/ECONNREFUSED|connect/);
        const row = await ctx.database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.id).executeTakeFirstOrThrow();
        // The next attempt is scheduled at least retryBaseMs × 2^(attempts-1) after the last one.
        expect(Number(row.next_attempt_at)).toBeGreaterThan(Number(row.created_at) + 50);
      } finally {
        await receiver.up();
      }
      const [done] = await until('delivery after recovery', async () => {
        const list = await deliveries(client.id, domain.id, hook.id);
        return list[0]?.status === 'delivered' ? list : undefined;
      });
      expect(done!.attempts).toBeGreaterThanOrEqual(3);
      expect(receiver.received.filter((r) => r.headers['webhook-id'] === done!.eventId)).toHaveLength(1);
    });

    it('loses nothing across a restart: a new app instance delivers what the old one could not', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      await receiver.down();
      const first = await buildApp({ config: ctx.config, database: ctx.database, migrate: false });
      let ucids: string[] = [];
      try {
        const asFirst = { ...ctx, app: first };
        ucids = [await sendConsent(asFirst, client, domain), await sendConsent(asFirst, client, domain)];
        await until('attempts by the first instance', async () => {
          const list = await deliveries(client.id, domain.id, hook.id);
          return list.length === 2 && list.every((d) => d.attempts >= 1) ? list : undefined;
        });
      } finally {
        await first.close();
        await ctx.app.close(); // the suite's own instance stops too: only the new one may deliver
      }
      await receiver.up();
      const second = await buildApp({ config: ctx.config, database: ctx.database, migrate: false });
      try {
        for (const ucid of ucids) await until(`delivery of ${ucid}`, () => receiver.received.find((r) => r.body.includes(ucid)));
        const list = await until('both delivered', async () => {
          const res = await hostingInject(second, { method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/webhook/${hook.id}/delivery` });
          const rows = res.json<{ status: string }[]>();
          return rows.every((d) => d.status === 'delivered') ? rows : undefined;
        });
        expect(list).toHaveLength(2);
      } finally {
        // Later suites of this file do not use ctx.app; the helper's afterAll closes it again harmlessly.
        ctx.app = second;
      }
    });
  });
}

describe.runIf(TEST_DATABASE_URL)('postgres: two app instances on one database', () => {
  const ctx = useApp('postgres', FAST);
  const receiver = new Receiver();
  let other: App;
  let otherClose: () => Promise<void>;
  beforeAll(async () => {
    await receiver.up();
    // A second process's view: its own pool, same schema.
    const handle = connect({ kind: 'postgres', url: TEST_DATABASE_URL! }, { pgSchema: ctx.database.schema!, pgPoolSize: 5 });
    other = await buildApp({ config: testConfig({ ...ctx.config }), database: handle, migrate: false });
    otherClose = async () => {
      await other.close();
      await handle.close();
    };
  });
  afterAll(async () => {
    await otherClose?.();
    await receiver.down();
  });

  it('delivers every record exactly once between them', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id);
    const hook = await register(ctx, client.id, domain.id, receiver.url);
    const asOther = { ...ctx, app: other };
    const sent: string[] = [];
    for (let i = 0; i < 40; i++) sent.push(await sendConsent(i % 2 === 0 ? ctx : asOther, client, domain));
    await until('all delivered', async () => {
      const rows = await ctx.database.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', hook.id).execute();
      return rows.length === 40 && rows.every((r) => r.status === 'delivered') ? rows : undefined;
    });
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    for (const ucid of sent) expect(receiver.received.some((r) => r.body.includes(ucid))).toBe(true);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: outbox pruning`, () => {
    const ctx = useApp(dialect, { webhooks: { ...FAST.webhooks!, pollIntervalMs: 600_000 } });

    it('deletes settled rows older than the cutoff and keeps pending ones', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, 'http://127.0.0.1:9/hook');
      const row = (id: string, status: 'pending' | 'delivered' | 'failed', created: number) => ({
        id, webhook_id: hook.id, event_id: `e_${id}`, type: 't', payload: '{}', status, next_attempt_at: created,
        lease_until: null, lease_owner: null, last_status: null, last_error: null, created_at: created, delivered_at: null,
      });
      await ctx.database.db.insertInto('webhook_deliveries').values([row('old1', 'delivered', 1000), row('old2', 'failed', 1000), row('old3', 'pending', 1000), row('new1', 'delivered', 5000)]).execute();
      expect(await pruneSettled(ctx.database.db, 2000)).toBe(2);
      const left = await ctx.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).orderBy('id').execute();
      expect(left.map((r) => r.id)).toEqual(['new1', 'old3']);
    });
  });
}
