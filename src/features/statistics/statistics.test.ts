import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { connect } from '../../db/connect.js';
import { DIALECTS, TEST_DATABASE_URL, consentToken, createClient, createDomain, sendConsent, useApp, type TestContext } from '../../../test/helper.js';
import { uaFamilies } from './user-agent.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FAST = { counterFlushIntervalMs: 50 };

describe('browser and OS families', () => {
  it('tells the common browsers and systems apart (Edge and Opera before Chrome, Chrome before Safari)', () => {
    expect(uaFamilies(CHROME_WINDOWS)).toEqual({ browser: 'chrome', os: 'windows' });
    expect(uaFamilies(SAFARI_IPHONE)).toEqual({ browser: 'safari', os: 'ios' });
    expect(uaFamilies(`${CHROME_WINDOWS} Edg/131.0.0.0`).browser).toBe('edge');
    expect(uaFamilies('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toEqual({ browser: 'firefox', os: 'linux' });
    expect(uaFamilies('Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36'))
      .toEqual({ browser: 'samsung', os: 'android' });
    expect(uaFamilies(undefined)).toEqual({ browser: 'other', os: 'other' });
  });
});

interface Day {
  day: string; calls: number; displays: number; decisions: number; acceptAll: number; decline: number; custom: number;
  consented: number; bounces: number; acceptanceRate: number;
  purposes: Record<string, number>; embeddings: Record<string, number>; browsers: Record<string, number>; os: Record<string, number>;
}

async function setup(ctx: TestContext) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const embedding = async (name: string, purpose: string) =>
    (await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { name, purpose } })).json<{ id: string }>().id;
  const analytics = await embedding('Analytics', 'a717ff5');
  const video = await embedding('Video', '6cd2721');
  const { config_revision: revision } = await ctx.database.db.selectFrom('domains').select('config_revision').where('id', '=', domain.id).executeTakeFirstOrThrow();
  const load = (app: App, ua: string, ip = '198.51.100.7') =>
    app.inject({ method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, headers: { referer: `https://${domain.name}/p${Math.random()}`, 'user-agent': ua }, remoteAddress: ip });
  const display = async (app: App, ip: string, token?: string) =>
    app.inject({
      method: 'POST', url: '/public/display', remoteAddress: ip,
      headers: { 'content-type': 'text/plain', origin: `https://${domain.name}` },
      payload: JSON.stringify({ domain: domain.id, revision, token: token ?? (await consentToken(ctx, domain.id, revision)) }),
    });
  const read = async (query = '') => ctx.hosting({ method: 'GET', url: `${base}/statistics${query}` });
  const today = async () => {
    const res = await read();
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ days: Day[]; totals: Day }>().totals;
  };
  return { client, domain, base, analytics, video, revision, load, display, read, today };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: consent statistics`, () => {
    const ctx = useApp(dialect, FAST);

    it('counts calls with their browser/OS split, displays, decisions per button, purpose and embedding, and bounces', async () => {
      const s = await setup(ctx);
      await s.load(ctx.app, CHROME_WINDOWS, '198.51.100.1');
      await s.load(ctx.app, CHROME_WINDOWS, '198.51.100.2');
      await s.load(ctx.app, SAFARI_IPHONE, '198.51.100.3');
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) expect((await s.display(ctx.app, ip)).statusCode).toBe(204);
      // The same address again within 10 s counts once; a display without a valid token is refused.
      expect((await s.display(ctx.app, '198.51.100.4')).statusCode).toBe(204);
      const forged = await s.display(ctx.app, '198.51.100.9', 'forged');
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error.code).toBe('CONSENT_TOKEN_INVALID');

      await sendConsent(ctx, s.client, s.domain, { button: 'acceptAll', embeddings: [s.analytics, s.video], revision: s.revision });
      await sendConsent(ctx, s.client, s.domain, { button: 'declineAll', consent: false, embeddings: [], revision: s.revision });
      await sendConsent(ctx, s.client, s.domain, { button: 'save', embeddings: [s.analytics], revision: s.revision });

      await expect.poll(async () => (await s.today()).decisions, { timeout: 5000 }).toBe(3);
      await expect.poll(async () => (await s.today()).calls, { timeout: 5000 }).toBe(3);
      const t = await s.today();
      expect(t).toMatchObject({
        calls: 3, displays: 4, decisions: 3, acceptAll: 1, decline: 1, custom: 1, consented: 2, bounces: 1, acceptanceRate: 0.6667,
        browsers: { chrome: 2, safari: 1 }, os: { windows: 2, ios: 1 },
        purposes: { '41ba25c': 3, a717ff5: 2, '6cd2721': 1 },
        embeddings: { [s.analytics]: 2, [s.video]: 1 },
      });
      // Per day: today's row holds the same figures; the 29 days before it are zeros.
      const days = (await s.read()).json<{ days: Day[] }>().days;
      expect(days).toHaveLength(30);
      expect(days.at(-1)).toMatchObject({ calls: 3, decisions: 3 });
      expect(days.slice(0, -1).every((d) => d.calls === 0 && d.decisions === 0)).toBe(true);
    });

    it('exports CSV, checks the range, needs canUseAnalytics, and resets with an archive when asked', async () => {
      const s = await setup(ctx);
      await sendConsent(ctx, s.client, s.domain, { button: 'acceptAll', embeddings: [s.analytics], revision: s.revision });
      await expect.poll(async () => (await s.today()).decisions, { timeout: 5000 }).toBe(1);
      const day = new Date().toISOString().slice(0, 10);
      const csv = await s.read(`?from=${day}&to=${day}&format=csv`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const [header, row] = csv.body.trim().split('\r\n');
      expect(header).toBe(`day,calls,displays,decisions,acceptAll,decline,custom,consented,bounces,acceptanceRate,purpose:41ba25c,purpose:a717ff5,embedding:${s.analytics}`);
      expect(row).toBe(`${day},0,0,1,1,0,0,1,0,1,1,1,1`);

      const tooLong = await s.read('?from=2020-01-01&to=2026-01-01');
      expect(tooLong.statusCode).toBe(400);
      expect((await s.read('?from=2026-02-01&to=2026-01-01')).statusCode).toBe(400);

      await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${s.client.id}`, payload: { features: { canUseAnalytics: false } } });
      const refused = await s.read();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('FEATURE_NOT_AVAILABLE');
      await ctx.hosting({ method: 'PUT', url: `/hosting/api/client/${s.client.id}`, payload: { features: { canUseAnalytics: true } } });

      // A plain archive keeps the figures; with resetStatistics they are gone.
      expect((await ctx.hosting({ method: 'POST', url: `${s.base}/consent-log/archive` })).statusCode).toBe(201);
      expect((await s.today()).decisions).toBe(1);
      await sendConsent(ctx, s.client, s.domain, { button: 'declineAll', consent: false, embeddings: [], revision: s.revision });
      await expect.poll(async () => (await s.today()).decisions, { timeout: 5000 }).toBe(2);
      expect((await ctx.hosting({ method: 'POST', url: `${s.base}/consent-log/archive?resetStatistics=true` })).statusCode).toBe(201);
      expect((await s.today()).decisions).toBe(0);
    });
  });
}

describe.runIf(TEST_DATABASE_URL)('postgres: two app instances on one database', () => {
  const ctx = useApp('postgres', FAST);
  let other: App;
  let otherClose: () => Promise<void>;
  beforeAll(async () => {
    // A second process's view: its own pool and its own in-memory counts, same schema.
    const handle = connect({ kind: 'postgres', url: TEST_DATABASE_URL! }, { pgSchema: ctx.database.schema!, pgPoolSize: 5 });
    other = await buildApp({ config: testConfig({ ...ctx.config }), database: handle, migrate: false });
    otherClose = async () => {
      await other.close();
      await handle.close();
    };
  });
  afterAll(async () => {
    await otherClose?.();
  });

  it('adds up what both count', async () => {
    const s = await setup(ctx);
    const asOther = { ...ctx, app: other };
    for (let i = 0; i < 20; i++) {
      await s.load(i % 2 === 0 ? ctx.app : other, i % 3 === 0 ? SAFARI_IPHONE : CHROME_WINDOWS, `203.0.113.${i + 1}`);
      expect((await s.display(i % 2 === 0 ? ctx.app : other, `203.0.113.${i + 1}`)).statusCode).toBe(204);
      await sendConsent(i % 2 === 0 ? ctx : asOther, s.client, s.domain, { button: i % 4 === 0 ? 'declineAll' : 'acceptAll', consent: i % 4 !== 0, embeddings: i % 4 === 0 ? [] : [s.analytics], revision: s.revision });
    }
    await expect.poll(async () => (await s.today()).decisions, { timeout: 5000 }).toBe(20);
    await expect.poll(async () => (await s.today()).calls, { timeout: 5000 }).toBe(20);
    await expect.poll(async () => (await s.today()).displays, { timeout: 5000 }).toBe(20);
    expect(await s.today()).toMatchObject({ acceptAll: 15, decline: 5, consented: 15, browsers: { safari: 7, chrome: 13 }, embeddings: { [s.analytics]: 15 } });
  });
});
