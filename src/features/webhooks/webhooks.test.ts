import { createHash, randomBytes } from 'node:crypto';
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
  consentToken,
  createDomain,
  sendConsent,
  servedSnapshot,
  until,
  useApp,
  type TestContext,
} from '../../../test/helper.js';
import { canonicalRecordJson, chainHash, genesisHash, type ConsentRecord } from '../consent-log/consent-log.record.js';
import { appendRecords } from '../consent-ingest/consent-ingest.service.js';
import { registry } from '../../metrics.js';
import { enqueue, pruneSettled } from './webhooks.repository.js';
import { TappedRecords } from './webhooks.tap.js';
import { urlProblem } from './webhooks.sender.js';
import { verify } from './webhooks.signer.js';
import type { WebhookRow } from './webhooks.table.js';
import { consentBody, consentDeliveries } from './webhooks.worker.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver that can go down (port closed) and come back on the same port. */
class Receiver {
  received: Received[] = [];
  /** Requests answered 500 (recorded in `refused`, not in `received`) before the next 204s. */
  failNext = 0;
  refused: Received[] = [];
  private server: http.Server | undefined;
  port = 0;

  async up(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        if (this.failNext > 0) {
          this.failNext--;
          this.refused.push({ headers: req.headers, body });
          res.writeHead(500).end();
          return;
        }
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

const FAST = {
  webhooks: {
    allowPrivateNetworks: true, pollIntervalMs: 20, retryBaseMs: 50, maxAttempts: 50, timeoutMs: 2000, batchMaxEvents: 100, batchMaxBytes: 262_144, tapMaxRecords: 2000,
  },
} satisfies Partial<Config>;

interface ConsentBody {
  type: string;
  id: string;
  data: { domainId: string; events: { seq: number; hash: string; record: ConsentRecord }[] };
}

/** Consent deliveries the receiver got for a domain, parsed, in the order they arrived. */
const consentBodies = (receiver: Receiver, domainId: string) =>
  receiver.received
    .map((r) => ({ headers: r.headers, raw: r.body, body: JSON.parse(r.body) as ConsentBody }))
    .filter((r) => r.body.type === 'consent.recorded' && r.body.data.domainId === domainId);

/**
 * Holds the worker back without moving the cursor (switching a webhook off through the API would skip what
 * happens meanwhile), so records pile up and the next pass feeds them as one backlog.
 */
const hold = (ctx: TestContext, hookId: string, enabled: 0 | 1) =>
  ctx.database.db.updateTable('webhooks').set({ enabled }).where('id', '=', hookId).execute();

/** Many consents fast: one token and snapshot for all (sendConsent asks for both on every call). */
async function burst(ctx: TestContext, client: { apiKey: string }, domain: { id: string; name: string }, count: number): Promise<void> {
  const token = await consentToken(ctx, domain.id, 1, ctx.clock.now().getTime());
  const snapshot = await servedSnapshot(ctx, domain.id);
  for (let i = 0; i < count; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/public/consent',
      headers: { origin: `https://${domain.name}`, 'content-type': 'text/plain' },
      payload: JSON.stringify({
        apiKey: client.apiKey, domain: domain.id, ucid: randomBytes(32).toString('hex'), consent: true, embeddings: [],
        manipulationPrevention: true, button: 'acceptAll', lang: 'en', revision: 1, legalRevision: 1, token, snapshot,
      }),
    });
    expect(res.statusCode).toBe(204);
  }
}

/** Every record of the domain exactly once, seq 1…count in order, each hash the chain's from the genesis. */
function expectWholeChain(events: { seq: number; hash: string; record: ConsentRecord }[], domainId: string, count: number): void {
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  let prev = genesisHash(domainId);
  for (const e of events) {
    expect(e.hash).toBe(chainHash(prev, canonicalRecordJson(e.record)));
    prev = e.hash;
  }
}

const hostingInject = (app: App, opts: InjectOptions) =>
  app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}` } });

async function register(ctx: TestContext, clientId: string, domainId: string, url: string) {
  const res = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${clientId}/domain/${domainId}/webhook`, payload: { url } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; secret: string; url: string }>();
}

/** A client, a domain and a webhook to `url` held back (`hold`), with `count` consents waiting behind its cursor. */
async function heldBacklog(ctx: TestContext, url: string, count: number) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const hook = await register(ctx, client.id, domain.id, url);
  await hold(ctx, hook.id, 0);
  await burst(ctx, client, domain, count);
  return { client, domain, hook };
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

describe('consent batches', () => {
  const hook = { id: 'h1', domain_id: 'd1' } as WebhookRow;
  // Non-ASCII on purpose: the byte cap counts UTF-8 bytes, not characters.
  const event = (seq: number, size = 100) => ({ seq, hash: 'a'.repeat(64), record: JSON.stringify({ pad: 'ü'.repeat(size / 2) }) });
  const sized = (events: { seq: number; record: string }[]) => events.map((e) => ({ seq: e.seq, bytes: Buffer.byteLength(e.record) }));

  it('cut at the event cap and, before it, at the byte cap; a record larger than the cap goes alone', () => {
    const byCount = consentDeliveries(hook, sized(Array.from({ length: 25 }, (_, i) => event(i + 1))), { maxEvents: 10, maxBytes: 262_144 });
    expect(byCount.map((d) => d.events)).toEqual([
      { count: 10, firstSeq: 1, lastSeq: 10 }, { count: 10, firstSeq: 11, lastSeq: 20 }, { count: 5, firstSeq: 21, lastSeq: 25 },
    ]);
    expect(byCount.map((d) => d.eventId)).toEqual(['consent_d1_1_10', 'consent_d1_11_20', 'consent_d1_21_25']);
    // ~190 bytes per event: 4096 bytes hold about 20, fewer than the 100 the event cap allows.
    const events = [...Array.from({ length: 60 }, (_, i) => event(i + 1)), event(61, 10_000), event(62)];
    const byBytes = consentDeliveries(hook, sized(events), { maxEvents: 100, maxBytes: 4096 });
    expect(byBytes.length).toBeGreaterThan(3);
    // The rows carry no copy of the records: the body is built from the log when the row is sent.
    expect(byBytes.every((d) => d.payload === '')).toBe(true);
    const bodyOf = (d: (typeof byBytes)[number]) => consentBody('d1', d.eventId, d.events!.firstSeq, d.events!.lastSeq, events)!;
    let next = 1;
    for (const d of byBytes) {
      const body = JSON.parse(bodyOf(d)) as ConsentBody;
      expect(body.id).toBe(d.eventId);
      expect(body.data.events.map((e) => e.seq)).toEqual(Array.from({ length: d.events!.count }, (_, i) => next + i));
      next += d.events!.count;
      if (d.events!.firstSeq === 61) expect(d.events!.count).toBe(1);
      else expect(Buffer.byteLength(bodyOf(d))).toBeLessThanOrEqual(4096);
    }
    expect(next).toBe(63);
    // Full runs: adding the next record would have passed the cap.
    const first = byBytes[0]!;
    expect(Buffer.byteLength(bodyOf(first)) + 1 + Buffer.byteLength(`{"seq":${first.events!.lastSeq + 1},"hash":"${'a'.repeat(64)}","record":${event(1).record}}`)).toBeGreaterThan(4096);
    // A run the log no longer holds whole has no body.
    expect(consentBody('d1', 'x', 1, 3, events.filter((e) => e.seq !== 2))).toBeUndefined();
  });

  it('sends the JSON text of the run, and cuts it by the byte count of what is sent, whatever the records hold', () => {
    // Two-, three- and four-byte UTF-8, escapes, and chain positions of one to four digits.
    const texts = ['ü', 'Präferenzen – 統計 😀', '"quoted" \\ \u2028', ''];
    const events = Array.from({ length: 1100 }, (_, i) => ({
      seq: i + 1,
      hash: createHash('sha256').update(String(i)).digest('hex'),
      record: JSON.stringify({ i, text: texts[i % texts.length] }),
    }));
    for (const [first, last] of [[1, 1], [1, 12], [9, 11], [95, 105], [990, 1010], [1100, 1100]] as const) {
      const id = `consent_d1_${first}_${last}`;
      const run = events.slice(first - 1, last);
      const body = consentBody('d1', id, first, last, events)!;
      expect(body).toBe(
        `{"type":"consent.recorded","id":"${id}","data":{"domainId":"d1","events":[${run
          .map((e) => `{"seq":${e.seq},"hash":"${e.hash}","record":${e.record}}`)
          .join(',')}]}}`,
      );
      // With the cap at the body's UTF-8 size the run is one delivery; one byte less and it is cut.
      const bytes = Buffer.byteLength(body);
      expect(consentDeliveries(hook, sized(run), { maxEvents: 500, maxBytes: bytes })).toHaveLength(1);
      expect(consentDeliveries(hook, sized(run), { maxEvents: 500, maxBytes: bytes - 1 })).toHaveLength(run.length === 1 ? 1 : 2);
    }
  });

  it('counts bytes exactly where the chain positions gain a digit (sizes are computed, not built)', () => {
    const events = Array.from({ length: 1200 }, (_, i) => event(i + 1, 20 + (i % 7) * 2));
    const body = (first: number, last: number) => Buffer.byteLength(consentBody('d1', `consent_d1_${first}_${last}`, first, last, events)!);
    // Every cap in a span of 64 bytes: one of them falls exactly on a run's size, so an error of one byte shows.
    let exact = 0;
    let across = 0;
    for (let cap = 1400; cap < 1464; cap++) {
      const runs = consentDeliveries(hook, sized(events), { maxEvents: 500, maxBytes: cap });
      runs.forEach((d, i) => {
        const { firstSeq, lastSeq } = d.events!;
        expect(body(firstSeq, lastSeq)).toBeLessThanOrEqual(cap);
        if (body(firstSeq, lastSeq) === cap) exact++;
        if (`${firstSeq}`.length < `${lastSeq + 1}`.length) across++;
        // Full: the same run with the next record would have passed the cap.
        if (runs[i + 1]) expect(body(firstSeq, lastSeq + 1)).toBeGreaterThan(cap);
      });
    }
    expect(exact).toBeGreaterThan(0);
    expect(across).toBeGreaterThan(0);
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
      ).json<{
        eventId: string; status: string; attempts: number; lastError: string | null; type: string; events: number; firstSeq: number | null; lastSeq: number | null;
      }[]>();

    /** Waits until the webhook's newest delivery has `status`; the list, newest first. */
    const newestIs = (what: string, clientId: string, domainId: string, hookId: string, status: string) =>
      until(what, async () => {
        const list = await deliveries(clientId, domainId, hookId);
        return list[0]?.status === status ? list : undefined;
      });

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

    it('delivers a decision with its record and chain hash, signed (Standard Webhooks)', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      const ucid = await sendConsent(ctx, client, domain);
      const got = await until('the delivery', () => receiver.received.find((r) => r.body.includes(ucid)));
      expect(verify(hook.secret, got.headers, got.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verify(hook.secret, got.headers, got.body.replace('acceptAll', 'rejectAll'), Math.floor(Date.now() / 1000))).toBe(false);
      const event = JSON.parse(got.body) as ConsentBody;
      const row = await ctx.database.db
        .selectFrom('consent_records')
        .select(['seq', 'hash', 'record'])
        .where('domain_id', '=', domain.id)
        .where('ucid', '=', ucid)
        .executeTakeFirstOrThrow();
      const seq = Number(row.seq);
      expect(event).toEqual({
        type: 'consent.recorded',
        id: `consent_${domain.id}_${seq}_${seq}`,
        data: { domainId: domain.id, events: [{ seq, hash: row.hash, record: JSON.parse(row.record) as unknown }] },
      });
      // The record is sent byte for byte as stored (and hashed).
      expect(got.body).toContain(`"record":${row.record}}`);
      expect(got.headers['webhook-id']).toBe(event.id);
      const state = await newestIs('delivered state', client.id, domain.id, hook.id, 'delivered');
      expect(state).toEqual([
        expect.objectContaining({ eventId: event.id, status: 'delivered', attempts: 1, lastError: null, events: 1, firstSeq: seq, lastSeq: seq }),
      ]);
    });

    it('delivers a burst of 250 records as 100 + 100 + 50 in chain order, each record once, signed', async () => {
      const { client, domain, hook } = await heldBacklog(ctx, receiver.url, 250);
      await hold(ctx, hook.id, 1);
      const got = await until('250 records', () => {
        const bodies = consentBodies(receiver, domain.id);
        return bodies.reduce((n, b) => n + b.body.data.events.length, 0) >= 250 ? bodies : undefined;
      });
      const now = Math.floor(Date.now() / 1000);
      for (const g of got) {
        expect(verify(hook.secret, g.headers, g.raw, now)).toBe(true);
        expect(g.headers['webhook-id']).toBe(g.body.id);
        const seqs = g.body.data.events.map((e) => e.seq);
        expect(g.body.id).toBe(`consent_${domain.id}_${seqs[0]}_${seqs.at(-1)}`);
      }
      const bySeq = [...got].sort((a, b) => a.body.data.events[0]!.seq - b.body.data.events[0]!.seq);
      expect(bySeq.map((g) => g.body.data.events.length)).toEqual([100, 100, 50]);
      expectWholeChain(bySeq.flatMap((g) => g.body.data.events), domain.id, 250);
      const list = await until('delivered state', async () => {
        const rows = await deliveries(client.id, domain.id, hook.id);
        return rows.length === 3 && rows.every((d) => d.status === 'delivered') ? rows : undefined;
      });
      expect(list.map((d) => [d.events, d.firstSeq, d.lastSeq]).sort((a, b) => a[1]! - b[1]!)).toEqual([[100, 1, 100], [100, 101, 200], [50, 201, 250]]);
    });

    it('retries a refused batch with the same id and the same body', async () => {
      const { client, domain, hook } = await heldBacklog(ctx, receiver.url, 5);
      receiver.refused = [];
      receiver.failNext = 2;
      await hold(ctx, hook.id, 1);
      const [done] = await newestIs('delivery after two refusals', client.id, domain.id, hook.id, 'delivered');
      expect(done).toMatchObject({ events: 5, firstSeq: 1, lastSeq: 5, attempts: 3, eventId: `consent_${domain.id}_1_5` });
      const attempts = [...receiver.refused, ...receiver.received].filter((r) => r.headers['webhook-id'] === done!.eventId);
      expect(attempts).toHaveLength(3);
      const now = Math.floor(Date.now() / 1000);
      for (const a of attempts) {
        expect(a.body).toBe(attempts[0]!.body);
        expect(verify(hook.secret, a.headers, a.body, now)).toBe(true);
      }
      expectWholeChain((JSON.parse(attempts[0]!.body) as ConsentBody).data.events, domain.id, 5);
    });

    /**
     * The state a process leaves when it dies after queuing a run (cursor moved, row leased to it) and before
     * sending it: written directly, as the feed's transaction would, while the webhook is held back.
     */
    const queuedByDeadProcess = async (hookId: string, domainId: string, first: number, last: number, leaseMs: number) => {
      const now = Date.now();
      const eventId = `consent_${domainId}_${first}_${last}`;
      await enqueue(
        ctx.database.db,
        [{ webhookId: hookId, eventId, type: 'consent.recorded', payload: '', events: { count: last - first + 1, firstSeq: first, lastSeq: last } }],
        () => randomBytes(12).toString('hex'),
        now,
        { owner: 'dead-process', until: now + leaseMs },
      );
      await ctx.database.db.updateTable('webhooks').set({ cursor_seq: last }).where('id', '=', hookId).execute();
      return { eventId, leaseEnds: now + leaseMs };
    };

    it('keeps no copy of the records in the outbox: a run is sent from the log', async () => {
      const { domain, hook } = await heldBacklog(ctx, receiver.url, 12);
      await hold(ctx, hook.id, 1);
      await until('12 records delivered', () => consentBodies(receiver, domain.id).flatMap((g) => g.body.data.events).length === 12 || undefined);
      const rows = await ctx.database.db.selectFrom('webhook_deliveries').select(['payload', 'status']).where('webhook_id', '=', hook.id).execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.payload === '')).toBe(true);
      expectWholeChain(consentBodies(receiver, domain.id).flatMap((g) => g.body.data.events), domain.id, 12);
    });

    it('sends a run another process queued and died before sending, once its lease has run out', async () => {
      const { client, domain, hook } = await heldBacklog(ctx, receiver.url, 4);
      const { eventId, leaseEnds } = await queuedByDeadProcess(hook.id, domain.id, 1, 4, 400);
      await hold(ctx, hook.id, 1);
      const got = await until('the orphaned run', () => receiver.received.find((r) => r.headers['webhook-id'] === eventId));
      // Not before the dead process's lease ran out: until then the row is its own.
      expect(Date.now()).toBeGreaterThanOrEqual(leaseEnds);
      expect(verify(hook.secret, got.headers, got.body, Math.floor(Date.now() / 1000))).toBe(true);
      expectWholeChain((JSON.parse(got.body) as ConsentBody).data.events, domain.id, 4);
      const [row] = await newestIs('delivered', client.id, domain.id, hook.id, 'delivered');
      expect(row).toMatchObject({ eventId, events: 4, attempts: 1 });
      expect(receiver.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(1);
    });

    it('fails a run the log no longer holds whole at once, with a clear error, and sends nothing', async () => {
      const { client, domain, hook } = await heldBacklog(ctx, receiver.url, 3);
      const { eventId } = await queuedByDeadProcess(hook.id, domain.id, 1, 3, 0);
      // What retention does to an expired block, here to one record of the run.
      await ctx.database.db.deleteFrom('consent_records').where('domain_id', '=', domain.id).where('seq', '=', 2).execute();
      await hold(ctx, hook.id, 1);
      // Why this timed out in three CI runs (2026-11-26, -27, -29; the delivery list printed on the last): the run was
      // *delivered*, whole, 7 ms after it was queued, before the record was deleted. The worker claimed deliveries of
      // a switched-off webhook (the hook is held off above), and the dead process's lease ends at once here. It claims
      // only those of webhooks that are on since 2026-11-29 (test "switched off, it sends nothing more"), so the run
      // waits for `hold(…, 1)` above. On a timeout the error shows every delivery the hook has.
      let seen: unknown;
      const row = await until('the run given up', async () => {
        const list = await deliveries(client.id, domain.id, hook.id);
        seen = list;
        return list.find((d) => d.eventId === eventId && d.status === 'failed');
      }, 40_000).catch((err: Error) => {
        throw new Error(`${err.message}; the hook's deliveries: ${JSON.stringify(seen)}`);
      });
      expect(row).toMatchObject({ eventId, attempts: 1, lastError: 'records no longer in the consent log' });
      expect([...receiver.received, ...receiver.refused].some((r) => r.headers['webhook-id'] === eventId)).toBe(false);
      // A held backlog, a dead process's queue and a worker pass: under the whole suite on PostgreSQL this took
      // over the default 20 s once in CI (2026-11-26) while passing in the runs before and after.
    }, 60_000);

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
      const [done] = await newestIs('delivery after recovery', client.id, domain.id, hook.id, 'delivered');
      expect(done!.attempts).toBeGreaterThanOrEqual(3);
      expect(receiver.received.filter((r) => r.headers['webhook-id'] === done!.eventId)).toHaveLength(1);
    });

    it('switched off, it sends nothing more: its pending retries are given up, and what is queued for it waits until it is on', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const hook = await register(ctx, client.id, domain.id, receiver.url);
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}/webhook/${hook.id}`;
      const arrived = (id: string) => [...receiver.received, ...receiver.refused].some((r) => r.headers['webhook-id'] === id);
      await receiver.down();
      let eventId = '';
      try {
        await sendConsent(ctx, client, domain);
        eventId = (await until('a failed attempt', async () => {
          const [d] = await deliveries(client.id, domain.id, hook.id);
          return d && d.attempts >= 1 ? d : undefined;
        })).eventId;
        expect((await ctx.hosting({ method: 'PATCH', url: base, payload: { enabled: false } })).json()).toMatchObject({ enabled: false });
      } finally {
        await receiver.up();
      }
      // Until 2026-11-29 the retries went on: the worker claimed a switched-off webhook's deliveries like any other.
      // A retry is due within retryBaseMs × 2^attempts (50 ms × a few); this waits many times that.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(arrived(eventId)).toBe(false);
      expect((await deliveries(client.id, domain.id, hook.id))[0]).toMatchObject({ eventId, status: 'failed', lastError: 'webhook switched off' });
      // Queued while it is off (a test delivery here; a run another process queued before it heard): not sent until on.
      const queued = await ctx.hosting({ method: 'POST', url: `${base}/test` });
      expect(queued.statusCode).toBe(202);
      const testId = queued.json<{ eventId: string }>().eventId;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(arrived(testId)).toBe(false);
      expect((await ctx.hosting({ method: 'PATCH', url: base, payload: { enabled: true } })).json()).toMatchObject({ enabled: true });
      await until('the test delivery once switched on', () => receiver.received.find((r) => r.headers['webhook-id'] === testId));
      expect(arrived(eventId)).toBe(false);
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
          return list.reduce((n, d) => n + d.events, 0) === 2 && list.every((d) => d.attempts >= 1) ? list : undefined;
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
          const rows = res.json<{ status: string; events: number }[]>();
          return rows.every((d) => d.status === 'delivered') ? rows : undefined;
        });
        // Two records: two deliveries, or one of both if they were fed in the same pass.
        expect(list.reduce((n, d) => n + d.events, 0)).toBe(2);
      } finally {
        // Later suites of this file do not use ctx.app; the helper's afterAll closes it again harmlessly.
        ctx.app = second;
      }
    });
  });
}

describe.runIf(TEST_DATABASE_URL)('postgres: two app instances on one database', () => {
  // Small batches, so a backlog of 40 records makes several deliveries for the two workers to share.
  const ctx = useApp('postgres', { webhooks: { ...FAST.webhooks, batchMaxEvents: 7 } });
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

  /** What the receiver got for the domain: every webhook-id once, and each record's seq. */
  const receivedOnce = (domainId: string) => {
    const got = consentBodies(receiver, domainId);
    const ids = got.map((g) => g.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    return got.flatMap((g) => g.body.data.events).sort((a, b) => a.seq - b.seq);
  };

  it('delivers every record exactly once between them', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id);
    const hook = await register(ctx, client.id, domain.id, receiver.url);
    const asOther = { ...ctx, app: other };
    const sent: string[] = [];
    for (let i = 0; i < 40; i++) sent.push(await sendConsent(i % 2 === 0 ? ctx : asOther, client, domain));
    await until('all delivered', async () => {
      const rows = await ctx.database.db.selectFrom('webhook_deliveries').select(['status', 'event_count']).where('webhook_id', '=', hook.id).execute();
      return rows.reduce((n, r) => n + r.event_count, 0) === 40 && rows.every((r) => r.status === 'delivered') ? rows : undefined;
    });
    const events = receivedOnce(domain.id);
    expectWholeChain(events, domain.id, 40);
    expect(events.map((e) => e.record.ucid).sort()).toEqual([...sent].sort());
  });

  it('shares a backlog as batches: each batch and each record delivered once', async () => {
    const { client, domain, hook } = await heldBacklog(ctx, receiver.url, 20);
    await burst({ ...ctx, app: other }, client, domain, 20);
    await hold(ctx, hook.id, 1);
    const rows = await until('all delivered', async () => {
      const list = await ctx.database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.id).execute();
      return list.reduce((n, r) => n + r.event_count, 0) === 40 && list.every((r) => r.status === 'delivered') ? list : undefined;
    });
    expect(rows.map((r) => r.event_count).sort((a, b) => a - b)).toEqual([5, 7, 7, 7, 7, 7]);
    // Both workers poll every 20 ms; neither sent a batch the other had claimed.
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    expectWholeChain(receivedOnce(domain.id), domain.id, 40);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: the byte cap`, () => {
    const ctx = useApp(dialect, { webhooks: { ...FAST.webhooks, batchMaxBytes: 4096 } });
    const receiver = new Receiver();
    beforeAll(() => receiver.up());
    afterAll(() => receiver.down());

    it('splits a backlog that fits the event cap into deliveries of at most WEBHOOK_BATCH_MAX_BYTES', async () => {
      const { domain, hook } = await heldBacklog(ctx, receiver.url, 30);
      await hold(ctx, hook.id, 1);
      const got = await until('30 records', () => {
        const bodies = consentBodies(receiver, domain.id);
        return bodies.reduce((n, b) => n + b.body.data.events.length, 0) >= 30 ? bodies : undefined;
      });
      expect(got.length).toBeGreaterThan(1);
      for (const g of got) {
        expect(Buffer.byteLength(g.raw)).toBeLessThanOrEqual(4096);
        expect(verify(hook.secret, g.headers, g.raw, Math.floor(Date.now() / 1000))).toBe(true);
      }
      const events = got.flatMap((g) => g.body.data.events).sort((a, b) => a.seq - b.seq);
      expectWholeChain(events, domain.id, 30);
    });
  });

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

describe('the tap (records this process just wrote)', () => {
  const rec = (domainId: string, seq: number) => ({ domain_id: domainId, seq, hash: String(seq).padStart(64, '0'), record: `{"n":${seq}}` });
  const seqs = (events: { seq: number }[] | undefined) => events?.map((e) => e.seq);

  it('gives a run only when it starts right after the cursor and stops at a gap', () => {
    const tap = new TappedRecords(100, () => undefined);
    tap.watch(new Set(['d1']));
    tap.add([1, 2, 3, 5, 6].map((n) => rec('d1', n)));
    expect(seqs(tap.take('d1', 0, 100))).toEqual([1, 2, 3]);
    expect(seqs(tap.take('d1', 1, 1))).toEqual([2]);
    // Seq 4 was written by another process: the feed must read from the log.
    expect(tap.take('d1', 3, 100)).toBeUndefined();
    expect(seqs(tap.take('d1', 4, 100))).toEqual([5, 6]);
    expect(tap.take('d1', 6, 100)).toBeUndefined();
    expect(tap.take('d2', 0, 100)).toBeUndefined();
  });

  it('keeps only watched domains, drops what the feed queued, skips a commit heard late, and stays bounded', () => {
    let backlog = 0;
    const tap = new TappedRecords(10, () => backlog++);
    tap.watch(new Set(['d1']));
    tap.add([rec('d1', 1), rec('d2', 1), rec('d1', 2)]);
    expect(tap.size).toBe(2);
    tap.add([rec('d1', 2), rec('d1', 1)]);
    expect(tap.size).toBe(2);
    tap.consumed('d1', 1);
    expect(tap.size).toBe(1);
    expect(seqs(tap.take('d1', 1, 100))).toEqual([2]);
    tap.add([3, 4, 5].map((n) => rec('d1', n)));
    expect(backlog).toBe(0);
    tap.add([rec('d1', 6)]);
    expect(backlog).toBe(1);
    tap.add([7, 8, 9, 10, 11, 12].map((n) => rec('d1', n)));
    // Past the cap everything is dropped: the feed reads the log.
    expect(tap.size).toBe(0);
    expect(tap.take('d1', 1, 100)).toBeUndefined();
    tap.add([rec('d1', 13)]);
    tap.watch(new Set());
    expect(tap.size).toBe(0);
  });
});

/** Records the webhook feed queued so far in this process, by where it found them. */
async function fedFrom(source: 'tap' | 'log'): Promise<number> {
  const metric = await registry.getSingleMetric('placet_webhook_feed_records_total')!.get();
  return metric.values.find((v) => v.labels.source === source)?.value ?? 0;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the feed and this process's own writes`, () => {
    const ctx = useApp(dialect, FAST);
    const receiver = new Receiver();
    beforeAll(() => receiver.up());
    afterAll(() => receiver.down());

    it("sends this process's commits from memory and another writer's from the log, every record once, byte for byte", async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      await register(ctx, client.id, domain.id, receiver.url);
      const delivered = (n: number) =>
        until(`${n} records`, () => {
          const events = consentBodies(receiver, domain.id).flatMap((b) => b.body.data.events);
          return events.length >= n ? events : undefined;
        });
      // One consent first: once it is delivered, the worker has seen that the domain has a webhook.
      await sendConsent(ctx, client, domain);
      await delivered(1);
      const before = { tap: await fedFrom('tap'), log: await fedFrom('log') };
      await burst(ctx, client, domain, 10);
      await delivered(11);
      // A writer this app does not hear of, as another process would be.
      const ts = Math.floor(ctx.clock.now().getTime() / 1000);
      const foreign = Array.from({ length: 5 }, (_, i) => {
        const ucid = randomBytes(32).toString('hex');
        const text = canonicalRecordJson({
          consent: false, ucid, timestamp: ts + i, purposes: { '41ba25c': 'x' }, embeddings: {},
          manipulationPrevention: false, button: 'api', lang: 'en', revision: 1, legalRevision: 1,
          themeId: null, gpc: null, dnt: null, v: 1,
        });
        return { domainId: domain.id, ucid, ts, text, snapshot: null };
      });
      await appendRecords(ctx.database.db, dialect, 100_000, foreign, ts);
      await delivered(16);
      await burst(ctx, client, domain, 10);
      const events = (await delivered(26)).sort((a, b) => a.seq - b.seq);
      expectWholeChain(events, domain.id, 26);
      expect(await fedFrom('tap')).toBe(before.tap + 20);
      expect(await fedFrom('log')).toBe(before.log + 5);
      // What the receiver got is the log's text, to the byte, whichever way the feed found it.
      const raw = consentBodies(receiver, domain.id).map((b) => b.raw).join('\n');
      const stored = await ctx.database.db.selectFrom('consent_records').select(['seq', 'record']).where('domain_id', '=', domain.id).execute();
      expect(stored).toHaveLength(26);
      for (const r of stored) expect(raw).toContain(`"record":${r.record}}`);
    });
  });

  describe(`${dialect}: the tap switched off (WEBHOOK_TAP_MAX_RECORDS=0)`, () => {
    const ctx = useApp(dialect, { webhooks: { ...FAST.webhooks, tapMaxRecords: 0 } });
    const receiver = new Receiver();
    beforeAll(() => receiver.up());
    afterAll(() => receiver.down());

    it('reads every record back from the log', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      await register(ctx, client.id, domain.id, receiver.url);
      const before = { tap: await fedFrom('tap'), log: await fedFrom('log') };
      await burst(ctx, client, domain, 10);
      const events = await until('10 records', () => {
        const got = consentBodies(receiver, domain.id).flatMap((b) => b.body.data.events);
        return got.length >= 10 ? got : undefined;
      });
      expectWholeChain(events.sort((a, b) => a.seq - b.seq), domain.id, 10);
      expect(await fedFrom('tap')).toBe(before.tap);
      expect(await fedFrom('log')).toBe(before.log + 10);
    });
  });
}
