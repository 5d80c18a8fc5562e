import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DIALECTS,
  consentToken,
  createClient,
  createDomain,
  domainRevisions,
  servedSnapshot,
  useApp,
  type TestContext,
} from '../../../test/helper.js';
import { buildApp, type App } from '../../app.js';
import type { Clock } from '../../deps.js';
import { voidReason } from './consent-handover.decision.js';
import { MAX_LIVE_TOKENS_PER_UCID } from './consent-handover.service.js';
import { RateWindow } from './rate-window.js';

const PAGE = 'https://www.shop.test';
const TARGET = 'https://www.shop-de.test';
const ucid = () => randomBytes(32).toString('hex');

/** A clock the tests move forward: expiry and lifetimes are checked without waiting. */
class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}

async function setup(ctx: TestContext, settings: Record<string, unknown> = {}) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id, {
    name: 'www.shop.test',
    consentSharingDomains: ['shop.test', 'shop-de.test'],
    consentSharingCrossDomain: true,
    ...settings,
  });
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const embedding = async (name: string) => {
    const res = await ctx.hosting({ method: 'POST', url: `${base}/embedding`, payload: { name, purpose: 'a717ff5' } });
    if (res.statusCode !== 201) throw new Error(`embedding: ${res.body}`);
    return res.json<{ id: string }>().id;
  };
  const analytics = await embedding('Analytics');
  const video = await embedding('Video');
  const { config_revision: revision, legal_revision: legalRevision } = await domainRevisions(ctx, domain.id);
  const snapshot = await servedSnapshot(ctx, domain.id);
  // The widget token of a page Placet served at the app clock's current time.
  const widgetToken = () => consentToken(ctx, domain.id, revision, ctx.clock.now().getTime());
  const post = (app: App, url: string, body: unknown, origin: string, remoteAddress = '203.0.113.7') =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
      payload: JSON.stringify(body),
    });
  /** Logs a decision through POST /public/consent, as the widget on `origin` does. */
  const decide = async (id: string, embeddings: string[], origin = PAGE, button = 'save') => {
    const res = await post(ctx.app, '/public/consent', {
      apiKey: client.apiKey, domain: domain.id, ucid: id, consent: embeddings.length > 0, embeddings,
      manipulationPrevention: true, button, lang: 'en', revision, legalRevision, token: await widgetToken(), snapshot,
    }, origin);
    expect(res.statusCode).toBe(204);
  };
  const issue = (id: string, embeddings: string[], over: Record<string, unknown> = {}, origin = PAGE, app = ctx.app, address?: string) =>
    post(app, '/public/handover', {
      apiKey: client.apiKey, domain: domain.id, ucid: id, consent: embeddings.length > 0, embeddings,
      target: `${TARGET}/cart?x=1#top`, ...over,
    }, origin, address);
  const redeem = async (handover: string, over: Record<string, unknown> = {}, origin = TARGET, address?: string) =>
    post(ctx.app, '/public/handover/redeem', {
      apiKey: client.apiKey, domain: domain.id, handover, token: await widgetToken(), snapshot, lang: 'de', revision, legalRevision, ...over,
    }, origin, address);
  const records = async () =>
    (await ctx.database.db.selectFrom('consent_records').select('record').where('domain_id', '=', domain.id).orderBy('seq').execute())
      .map((r) => JSON.parse(r.record) as Record<string, unknown>);
  const verify = async () => (await ctx.hosting({ method: 'GET', url: `${base}/consent-log/verify` })).json<{ ok: boolean }>();
  return { client, domain, base, analytics, video, legalRevision, snapshot, decide, issue, redeem, records, verify };
}

describe('RateWindow', () => {
  it('allows the limit per minute and then names the seconds to wait', () => {
    const w = new RateWindow(2);
    expect([w.hit('a', 0), w.hit('a', 1000), w.hit('a', 2000), w.hit('b', 2000)]).toEqual([0, 0, 58, 0]);
    expect(w.hit('a', 60_000)).toBe(0);
  });

  it('never refuses with the limit off, and stays bounded in memory', () => {
    expect(new RateWindow(0).hit('a', 0)).toBe(0);
    const w = new RateWindow(1, 2);
    w.hit('a', 0);
    w.hit('b', 0);
    expect(w.hit('c', 0)).toBe(0);
  });
});

describe('voidReason', () => {
  const settings = { consentCookieLifetime: 30, consentResetBeforeDate: null, consentResetOnLegalChange: true };
  const now = Date.parse('2026-11-25T12:00:00Z') / 1000;
  it.each([
    ['a decision of an hour ago', { decidedAt: now - 3600, legalRevision: 2 }, settings, undefined],
    ['a decision dated in the future', { decidedAt: now + 3600, legalRevision: 2 }, settings, 'future'],
    ['a decision past the lifetime', { decidedAt: now - 31 * 86_400, legalRevision: 2 }, settings, 'lifetime'],
    ['a session-only decision of two days ago', { decidedAt: now - 2 * 86_400, legalRevision: 2 }, { ...settings, consentCookieLifetime: 0 }, 'lifetime'],
    ['a decision before the reset date', { decidedAt: now - 2 * 86_400, legalRevision: 2 }, { ...settings, consentResetBeforeDate: '2026-11-24' }, 'consentResetBeforeDate'],
    ['a decision under an older legal revision', { decidedAt: now - 3600, legalRevision: 1 }, settings, 'legal revision'],
    ['an older legal revision when the domain keeps consents', { decidedAt: now - 3600, legalRevision: 1 }, { ...settings, consentResetOnLegalChange: false }, undefined],
  ])('%s', (_name, decision, s, expected) => {
    const reason = voidReason(decision, s, 2, now);
    if (expected === undefined) expect(reason).toBeUndefined();
    else expect(reason).toContain(expected);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: consent hand-over`, () => {
    const clock = new TestClock();
    const ctx = useApp(dialect, {}, { clock });

    it('hands a logged decision over once: the target page redeems it, and a chained handover record is logged first', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.analytics]);
      const [decision] = await s.records();
      const issued = await s.issue(id, [s.analytics]);
      expect(issued.statusCode).toBe(200);
      expect(issued.headers['access-control-allow-origin']).toBe(PAGE);
      const { token, expiresAt } = issued.json<{ token: string; expiresAt: string }>();
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(Date.parse(expiresAt) - clock.now().getTime()).toBeLessThanOrEqual(120_000);

      // The token is stored hashed: the database does not hold what redeems it.
      const stored = await ctx.database.db.selectFrom('handover_tokens').select('token_hash').execute();
      expect(stored.map((r) => r.token_hash)).not.toContain(token);

      const redeemed = await s.redeem(token);
      expect(redeemed.statusCode).toBe(200);
      expect(redeemed.headers['access-control-allow-origin']).toBe(TARGET);
      const decidedAt = new Date(Number(decision!.timestamp) * 1000).toISOString();
      expect(redeemed.json()).toEqual({
        ucid: id, consent: true, embeddings: [s.analytics], created: decidedAt, updated: decidedAt, legalRevision: s.legalRevision,
      });
      const logged = await s.records();
      expect(logged).toHaveLength(2);
      expect(logged[1]).toMatchObject({
        ucid: id, consent: true, button: 'handover', lang: 'de', embeddings: { [s.analytics]: 'Analytics' }, manipulationPrevention: true,
        // The configuration the receiving page was served, as in every record of POST /public/consent.
        snapshot: s.snapshot,
      });
      // The log's time is the server's when the record was written; the decision keeps its own.
      expect(logged[1]!.timestamp).toBeGreaterThanOrEqual(Number(decision!.timestamp));
      expect(await s.verify()).toMatchObject({ ok: true });
    });

    it('issues a token without a target for CCM.crossDomainConsentString, good once on any page of the set', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.video]);
      const { token } = (await s.issue(id, [s.video], { target: undefined })).json<{ token: string }>();
      const onBlog = await s.redeem(token, {}, 'https://blog.shop.test');
      expect(onBlog.statusCode).toBe(200);
      expect((await s.redeem(token)).json().error.code).toBe('HANDOVER_TOKEN_INVALID');
    });

    it('needs the widget token and a served snapshot of the receiving page, and a refusal for those leaves the token usable', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.video]);
      const { token } = (await s.issue(id, [s.video])).json<{ token: string }>();
      const noWidgetToken = await s.redeem(token, { token: undefined });
      expect(noWidgetToken.statusCode).toBe(403);
      expect(noWidgetToken.json().error.code).toBe('CONSENT_TOKEN_INVALID');
      const forged = await s.redeem(token, { token: 'abc.' + 'A'.repeat(22) });
      expect(forged.json().error.code).toBe('CONSENT_TOKEN_INVALID');
      expect(await s.records()).toHaveLength(1);
      // An unserved snapshot is refused by the consent write path (after its token was consumed).
      const next = (await s.issue(id, [s.video])).json<{ token: string }>().token;
      const unserved = await s.redeem(next, { snapshot: 'e'.repeat(64) });
      expect(unserved.statusCode).toBe(400);
      expect(unserved.json().error.details[0].field).toBe('body.snapshot');
      expect(await s.records()).toHaveLength(1);
      expect((await s.redeem(token)).statusCode).toBe(200);
    });

    it('refuses a replayed token, and of concurrent redeems exactly one succeeds', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.analytics]);
      const { token } = (await s.issue(id, [s.analytics])).json<{ token: string }>();
      const results = await Promise.all(Array.from({ length: 6 }, () => s.redeem(token)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400]);
      const replay = await s.redeem(token);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error.code).toBe('HANDOVER_TOKEN_INVALID');
      expect((await s.records()).filter((r) => r.button === 'handover')).toHaveLength(1);
    });

    it('refuses an expired token and logs nothing', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, []);
      const { token } = (await s.issue(id, [])).json<{ token: string }>();
      clock.advance(121);
      const res = await s.redeem(token);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('HANDOVER_TOKEN_INVALID');
      expect(await s.records()).toHaveLength(1);
      // A minute later its row, with the hash of the address that asked for it, is gone.
      const rows = () => ctx.database.db.selectFrom('handover_tokens').select('ucid').where('ucid', '=', id).execute();
      expect(await rows()).toHaveLength(1);
      clock.advance(61);
      await s.redeem('0'.repeat(64));
      expect(await rows()).toHaveLength(0);
    });

    it('refuses a token on another page than the one it was issued for, or from another address', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.video]);
      const first = (await s.issue(id, [s.video])).json<{ token: string }>().token;
      const onOtherHost = await s.redeem(first, {}, 'https://blog.shop.test');
      expect(onOtherHost.json().error.code).toBe('HANDOVER_TOKEN_INVALID');
      // A refused attempt used the token up.
      expect((await s.redeem(first)).statusCode).toBe(400);
      const second = (await s.issue(id, [s.video])).json<{ token: string }>().token;
      const elsewhere = await s.redeem(second, {}, TARGET, '198.51.100.9');
      expect(elsewhere.json()).toMatchObject({ error: { code: 'HANDOVER_TOKEN_INVALID' } });
      expect(await s.records()).toHaveLength(1);
    });

    it('issues nothing for a decision the log does not hold as the ucid latest', async () => {
      const s = await setup(ctx);
      const id = ucid();
      const never = await s.issue(id, [s.analytics]);
      expect(never.statusCode).toBe(409);
      expect(never.json().error.code).toBe('HANDOVER_NOT_LOGGED');
      await s.decide(id, [s.analytics]);
      await s.decide(id, []);
      // The earlier acceptance is no longer this ucid's decision; the decline is.
      expect((await s.issue(id, [s.analytics])).json().error.code).toBe('HANDOVER_NOT_LOGGED');
      expect((await s.issue(id, [])).statusCode).toBe(200);
    });

    it('hands over nothing the agency set aside in quarantine: the decision before it is the latest', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, []);
      await s.decide(id, [s.analytics, s.video]);
      const records = await ctx.database.db.selectFrom('consent_records').select('seq').where('domain_id', '=', s.domain.id).orderBy('seq').execute();
      const last = Number(records.at(-1)!.seq);
      const set = await ctx.hosting({ method: 'POST', url: `${s.base}/consent-log/quarantine`, payload: { fromSeq: last, toSeq: last, reason: 'flood' } });
      expect(set.statusCode).toBe(201);
      expect((await s.issue(id, [s.analytics, s.video])).json().error.code).toBe('HANDOVER_NOT_LOGGED');
      expect((await s.issue(id, [])).statusCode).toBe(200);
    });

    it('refuses a token whose decision changed after it was issued', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.analytics]);
      const { token } = (await s.issue(id, [s.analytics])).json<{ token: string }>();
      await s.decide(id, []);
      expect((await s.redeem(token)).json().error.code).toBe('HANDOVER_NOT_LOGGED');
    });

    it('never renews a decision: a handed-over decision keeps its time, and one past the lifetime is not handed over', async () => {
      const s = await setup(ctx, { consentCookieLifetime: 1 });
      const id = ucid();
      await s.decide(id, [s.analytics]);
      const decidedAt = (await s.records())[0]!.timestamp as number;
      clock.advance(3600);
      const first = (await s.issue(id, [s.analytics])).json<{ token: string }>().token;
      expect((await s.redeem(first)).json().updated).toBe(new Date(decidedAt * 1000).toISOString());
      // Handed over again later (now from the page that received it), it is still the same decision.
      clock.advance(3600);
      const back = await s.issue(id, [s.analytics], { target: `${PAGE}/` }, TARGET);
      expect(back.statusCode).toBe(200);
      const again = await s.redeem(back.json<{ token: string }>().token, {}, PAGE);
      expect(again.json().updated).toBe(new Date(decidedAt * 1000).toISOString());
      clock.advance(86_400);
      const late = await s.issue(id, [s.analytics]);
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('HANDOVER_DECISION_VOID');
    });

    it('hands nothing over after a legal change that voids consents', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.analytics]);
      const { token } = (await s.issue(id, [s.analytics])).json<{ token: string }>();
      const changed = await ctx.hosting({ method: 'PUT', url: `${s.base}/embedding/${s.analytics}`, payload: { description: 'Now also profiles.' } });
      expect(changed.statusCode).toBe(200);
      const res = await s.redeem(token, { legalRevision: s.legalRevision + 1 });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('HANDOVER_DECISION_VOID');
    });

    it('keeps a page decision of another ucid that is as new, without logging', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, [s.analytics]);
      const { token } = (await s.issue(id, [s.analytics])).json<{ token: string }>();
      const res = await s.redeem(token, { held: { ucid: ucid(), updated: clock.now().getTime() + 1000 } });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('HANDOVER_NOT_NEWER');
      expect(await s.records()).toHaveLength(1);
      // The same ucid always takes the log's latest decision.
      const next = (await s.issue(id, [s.analytics])).json<{ token: string }>().token;
      expect((await s.redeem(next, { held: { ucid: id, updated: clock.now().getTime() + 1000 } })).statusCode).toBe(200);
    });

    it('refuses pages, targets and domains outside a cross-domain sharing set', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, []);
      const cases = [
        await s.issue(id, [], {}, 'https://www.elsewhere.test'),
        await s.issue(id, [], { target: 'https://www.elsewhere.test/' }),
        await s.issue(id, [], { target: `${PAGE}/other` }),
        await s.issue(id, [], { target: 'not a url' }),
        await s.issue(id, [], { apiKey: 'f'.repeat(48) }),
      ];
      for (const res of cases) {
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('HANDOVER_INVALID');
      }
      expect(cases[0]!.headers['access-control-allow-origin']).toBeUndefined();
      const plain = await setup(ctx, { name: 'www.plain.test', consentSharingCrossDomain: false, consentSharingDomains: ['plain-de.test'] });
      const other = ucid();
      await plain.decide(other, [], 'https://www.plain.test');
      const off = await plain.issue(other, [], { target: 'https://www.plain-de.test/' }, 'https://www.plain.test');
      expect(off.json().error.details[0].message).toContain('does not share consent across domains');
      expect((await s.redeem('0'.repeat(64), {}, 'https://www.elsewhere.test')).json().error.code).toBe('HANDOVER_INVALID');
    });

    it('serves the widget variant with the hand-over only to domains that share consent across domains', async () => {
      const s = await setup(ctx);
      const plain = await setup(ctx, { name: 'www.plain.test', consentSharingCrossDomain: false, consentSharingDomains: [] });
      const load = (domain: { id: string }, apiKey: string, page: string) =>
        ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${apiKey}&domain=${domain.id}`, headers: { referer: `${page}/` } });
      const sharing = await load(s.domain, s.client.apiKey, PAGE);
      const base = await load(plain.domain, plain.client.apiKey, 'https://www.plain.test');
      expect(sharing.statusCode).toBe(200);
      expect(base.statusCode).toBe(200);
      expect(sharing.body).toContain('/redeem');
      expect(base.body).not.toContain('/redeem');
      expect(base.body).not.toContain('ccm_handover');
    });

    it('lets no one log a handover record through POST /public/consent', async () => {
      const s = await setup(ctx);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/public/consent',
        headers: { 'content-type': 'text/plain', origin: PAGE },
        payload: JSON.stringify({
          apiKey: s.client.apiKey, domain: s.domain.id, ucid: ucid(), consent: true, embeddings: [s.analytics],
          manipulationPrevention: true, button: 'handover', lang: 'en', revision: 1, legalRevision: 1,
          token: await consentToken(ctx, s.domain.id, 1, clock.now().getTime()), snapshot: s.snapshot,
        }),
      });
      expect(res.statusCode).toBe(400);
      expect(await s.records()).toHaveLength(0);
    });

    it(`bounds the live tokens of one ucid at ${MAX_LIVE_TOKENS_PER_UCID}`, async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, []);
      for (let i = 0; i < MAX_LIVE_TOKENS_PER_UCID; i++) {
        expect((await s.issue(id, [], {}, PAGE, ctx.app, `192.0.2.${i}`)).statusCode).toBe(200);
      }
      const over = await s.issue(id, [], {}, PAGE, ctx.app, '192.0.2.200');
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe('120');
      expect(over.json().error.code).toBe('RATE_LIMITED');
    });
  });

  describe(`${dialect}: hand-over rate limits with two processes`, () => {
    const ctx = useApp(dialect, { handover: { tokenTtlSeconds: 120, ratePerMinute: 3, bindAddress: true } });

    it('counts the tokens of an address in the database, so a second process refuses the one over the limit', async () => {
      const s = await setup(ctx);
      const id = ucid();
      await s.decide(id, []);
      const other = await buildApp({ config: ctx.config, database: ctx.database, migrate: false });
      try {
        for (let i = 0; i < 3; i++) expect((await s.issue(id, [])).statusCode).toBe(200);
        const fourth = await s.issue(id, [], {}, PAGE, other);
        expect(fourth.statusCode).toBe(429);
        expect(fourth.headers['retry-after']).toBe('60');
        expect(fourth.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
        // Another address is not affected.
        expect((await s.issue(id, [], {}, PAGE, other, '198.51.100.1')).statusCode).toBe(200);
        // The in-process window refuses a flood before it reaches the database.
        const flood = await Promise.all(Array.from({ length: 5 }, () => s.redeem('0'.repeat(64), {}, TARGET, '198.51.100.2')));
        expect(flood.map((r) => r.statusCode).sort()).toEqual([400, 400, 400, 429, 429]);
      } finally {
        await other.close();
      }
    });
  });
}
