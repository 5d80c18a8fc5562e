import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../config.js';
import { randomIds, type Clock, type Deps } from '../../deps.js';
import { DIALECTS, createClient, createDomain, until, useApp, type TestContext } from '../../../test/helper.js';
import { QuotaNotices } from './quotas.notices.js';
import { CountingPolicy } from './quotas.policy.js';

/** A local SMTP server that keeps every message. */
class MailSink {
  messages: string[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, done) => {
      let text = '';
      stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
      stream.on('end', () => {
        this.messages.push(text);
        done();
      });
    },
  });
  port = 0;
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// Each load comes from an address of its own unless told otherwise: repeat loads from one address and page within
// WIDGET_COUNT_WINDOW_SECONDS count once (README "Security model"), and these tests are about counting visitors.
let visitor = 0;
const load = (ctx: TestContext, url: string, extra: { headers?: Record<string, string>; remoteAddress?: string } = {}) =>
  ctx.app.inject({
    method: 'GET', url, headers: { referer: 'https://shop.example/', ...extra.headers },
    remoteAddress: extra.remoteAddress ?? `198.51.${Math.floor(++visitor / 250) % 250}.${visitor % 250}`,
  });

async function setup(ctx: TestContext, quota: number) {
  const client = await createClient(ctx, { widgetDisplayMaxCount: quota, company: 'Shop GmbH' });
  const domain = await createDomain(ctx, client.id, { name: 'shop.example' });
  return { client, domain, url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}` };
}

describe('quota and webhook settings', () => {
  it('parse lists and refuse bad ranges, thresholds and SMTP URLs', () => {
    const config = loadConfig({
      QUOTA_EXCLUDE_IPS: '10.0.0.0/8, 2001:db8::/32,192.0.2.1', QUOTA_EXCLUDE_USER_AGENTS: 'Bot,Pingdom', QUOTA_NOTICE_THRESHOLDS: '100,50,80',
      SMTP_URL: 'smtp://u:p@mail.example:587', QUOTA_NOTICE_EMAIL_TO: 'a@x.example,b@x.example',
    });
    expect(config.quotas).toEqual({
      excludeIps: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.1'], excludeUserAgents: ['bot', 'pingdom'],
      noticeThresholds: [50, 80, 100], noticeEmailTo: ['a@x.example', 'b@x.example'],
    });
    expect(config.smtp).toEqual({ url: 'smtp://u:p@mail.example:587', from: 'placet@localhost' });
    expect(loadConfig({}).quotas).toMatchObject({ excludeUserAgents: ['bot', 'crawler', 'spider', 'slurp'], noticeThresholds: [80, 100] });
    expect(loadConfig({ QUOTA_EXCLUDE_USER_AGENTS: 'none' }).quotas.excludeUserAgents).toEqual([]);
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivateNetworks: false, pollIntervalMs: 1000, retryBaseMs: 10_000, maxAttempts: 12, timeoutMs: 10_000, batchMaxEvents: 250, batchMaxBytes: 262_144, tapMaxRecords: 2000,
    });
    expect(loadConfig({ WEBHOOK_BATCH_MAX_EVENTS: '500', WEBHOOK_BATCH_MAX_BYTES: '4096' }).webhooks).toMatchObject({ batchMaxEvents: 500, batchMaxBytes: 4096 });
    expect(() => loadConfig({ WEBHOOK_BATCH_MAX_EVENTS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_BATCH_MAX_EVENTS: '501' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_BATCH_MAX_BYTES: '4095' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUOTA_EXCLUDE_IPS: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUOTA_EXCLUDE_IPS: 'office' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUOTA_NOTICE_THRESHOLDS: '80,abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'mail.example' })).toThrow(ConfigError);
  });
});

describe('counting policy', () => {
  it('excludes configured addresses, CIDR ranges (IPv4, mapped, IPv6) and bot user agents', () => {
    const policy = new CountingPolicy({ excludeIps: ['10.9.0.0/16', '192.0.2.7', '2001:db8::/32'], excludeUserAgents: ['bot', 'spider'], noticeThresholds: [], noticeEmailTo: [] });
    expect(policy.counts('10.9.200.1', 'Mozilla/5.0')).toBe(false);
    expect(policy.counts('::ffff:10.9.0.1', 'Mozilla/5.0')).toBe(false);
    expect(policy.counts('192.0.2.7', 'Mozilla/5.0')).toBe(false);
    expect(policy.counts('2001:db8::1', 'Mozilla/5.0')).toBe(false);
    expect(policy.counts('10.10.0.1', 'Mozilla/5.0 (compatible; Googlebot/2.1)')).toBe(false);
    expect(policy.counts('10.10.0.1', 'Baiduspider')).toBe(false);
    expect(policy.counts('10.10.0.1', 'Mozilla/5.0 Firefox/140.0')).toBe(true);
    expect(policy.counts(undefined, undefined)).toBe(true);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: monthly reset at 00:00 UTC on the 1st (clock seam)`, () => {
    let now = new Date('2026-01-31T23:59:59.999Z');
    const clock: Clock = { now: () => now };
    const ctx = useApp(dialect, { counterFlushIntervalMs: 60_000 }, { clock });

    it('counts January until its last millisecond and starts February at zero', async () => {
      const { url } = await setup(ctx, 2);
      expect((await load(ctx, url)).body).toContain('JSON.parse(');
      expect((await load(ctx, url)).body).toContain('JSON.parse(');
      expect((await load(ctx, url)).body).toContain('quota for this month is used up');
      now = new Date('2026-02-01T00:00:00.000Z');
      expect((await load(ctx, url)).body).toContain('JSON.parse(');
    });
  });

  describe(`${dialect}: excluded addresses and bots are not counted`, () => {
    const quotas: Config['quotas'] = { excludeIps: ['10.9.0.0/16'], excludeUserAgents: ['bot'], noticeThresholds: [80, 100], noticeEmailTo: [] };
    const ctx = useApp(dialect, { counterFlushIntervalMs: 60_000, quotas });

    it('serves them without using the quota', async () => {
      const { url } = await setup(ctx, 1);
      for (let i = 0; i < 3; i++) expect((await load(ctx, url, { remoteAddress: '10.9.3.4' })).body).toContain('JSON.parse(');
      expect((await load(ctx, url, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' } })).body).toContain('JSON.parse(');
      expect((await load(ctx, url, { headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' } })).body).toContain('JSON.parse(');
      expect((await load(ctx, url, { headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' } })).body).toContain('quota for this month is used up');
    });
  });

  describe(`${dialect}: quota notices and the manual reset`, () => {
    const mail = new MailSink();
    const ctx = useApp(dialect, {
      counterFlushIntervalMs: 100,
      quotas: { excludeIps: [], excludeUserAgents: [], noticeThresholds: [50, 100], noticeEmailTo: ['agency@example.com'] },
      webhooks: { allowPrivateNetworks: true, pollIntervalMs: 60_000, retryBaseMs: 1000, maxAttempts: 3, timeoutMs: 1000, batchMaxEvents: 100, batchMaxBytes: 262_144, tapMaxRecords: 2000 },
    });
    beforeAll(() => mail.start());
    afterAll(() => mail.stop());

    const deps = (log: FastifyBaseLogger, smtpPort: number): Deps => ({
      config: { ...ctx.config, smtp: { url: `smtp://127.0.0.1:${smtpPort}`, from: 'placet@example.com' } },
      db: ctx.database.db, engine: ctx.database.engine, clock: { now: () => new Date() }, ids: randomIds, log,
    });

    it('two processes seeing the quota reached at once: one log line, one webhook event and one e-mail per threshold', async () => {
      const { client, domain } = await setup(ctx, 10);
      const hook = await ctx.hosting({
        method: 'POST', url: `/hosting/api/client/${client.id}/domain/${domain.id}/webhook`, payload: { url: 'http://127.0.0.1:9/hook' },
      });
      expect(hook.statusCode).toBe(201);
      const lines: string[] = [];
      const log = { warn: (_o: unknown, msg: string) => lines.push(msg), info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
      const a = new QuotaNotices(deps(log, mail.port));
      const b = new QuotaNotices(deps(log, mail.port));
      a.observe(client.id, 10, 10);
      b.observe(client.id, 10, 10);
      a.observe(client.id, 12, 10);
      await Promise.all([a.settled(), b.settled()]);
      expect(lines.filter((l) => l === 'quota reached')).toHaveLength(1);
      const events = await ctx.database.db.selectFrom('webhook_deliveries').select(['event_id', 'payload']).where('webhook_id', '=', hook.json().id).execute();
      expect(events.map((e) => e.event_id).sort()).toEqual([`quota_${client.id}_${new Date().toISOString().slice(0, 7)}_100`, `quota_${client.id}_${new Date().toISOString().slice(0, 7)}_50`]);
      expect(JSON.parse(events[0]!.payload)).toMatchObject({ type: 'quota.threshold', data: { clientId: client.id, quota: 10 } });
      const mine = mail.messages.filter((m) => m.includes('Shop GmbH'));
      expect(mine).toHaveLength(2);
      expect(mine.some((m) => /has reached its quota/.test(m))).toBe(true);
      expect(mine.some((m) => /has used 50 % of its quota/.test(m))).toBe(true);
      const notices = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/quota/notice` });
      expect(notices.json()).toEqual([
        expect.objectContaining({ threshold: 50, emailStatus: 'sent' }),
        expect.objectContaining({ threshold: 100, emailStatus: 'sent', used: 10, quota: 10 }),
      ]);
    });

    it('the widget path records the notice when the quota is hit', async () => {
      const { client, url } = await setup(ctx, 2);
      await load(ctx, url);
      await load(ctx, url);
      await until('the quota to be hit', async () => ((await load(ctx, url)).body.includes('quota for this month is used up') ? true : undefined));
      const rows = await until('the notices', async () => {
        const r = await ctx.database.db.selectFrom('quota_notices').select('threshold').where('client_id', '=', client.id).execute();
        return r.length === 2 ? r : undefined;
      });
      expect(rows.map((r) => r.threshold).sort((x, y) => x - y)).toEqual([50, 100]);
    });

    it('a manual reset sets the current month to zero and serves the widget again', async () => {
      const { client, url } = await setup(ctx, 2);
      await load(ctx, url);
      await load(ctx, url);
      const sum = async () =>
        Number(
          (await ctx.database.db.selectFrom('call_counts as cc').innerJoin('domains as d', 'd.id', 'cc.domain_id')
            .select((eb) => eb.fn.sum<number>('cc.count').as('n')).where('d.client_id', '=', client.id).executeTakeFirst())?.n ?? 0,
        );
      await until('the counts to be flushed', async () => ((await sum()) === 2 ? true : undefined));
      expect((await load(ctx, url)).body).toContain('quota for this month is used up');
      const res = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/quota/reset` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ month: new Date().toISOString().slice(0, 7), resetCalls: 2 });
      // Other processes see the reset within one counter flush interval (their cached total expires).
      await until('the widget to be served again', async () => ((await load(ctx, url)).body.includes('JSON.parse(') ? true : undefined));
      const unknown = await ctx.hosting({ method: 'POST', url: '/hosting/api/client/0000000/quota/reset' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('CLIENT_NOT_FOUND');
    });
  });
}
