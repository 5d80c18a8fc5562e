import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, sendConsent, useApp, type TestContext } from '../../../test/helper.js';
import type { Clock } from '../../deps.js';

const T0 = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;

interface Rec {
  ucid: string;
  button: string;
  consent: boolean;
}

async function setup(ctx: TestContext) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const key = (await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` })).json<{ apiKey: string }>().apiKey;
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}/consent-log`;
  const api = async (path: string) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/consents${path}`, headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Rec[]>();
  };
  return { client, domain, base, api };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: setting a flood aside (quarantine)`, () => {
    let now = T0;
    const clock: Clock = { now: () => new Date(now) };
    const ctx = useApp(dialect, {}, { clock });

    it('leaves a quarantined range out of the Domain API, keeps it in the chain, and brings it back when lifted', async () => {
      now = T0;
      const s = await setup(ctx);
      const visitor = await sendConsent(ctx, s.client, s.domain, { button: 'declineAll', consent: false });
      const other = await sendConsent(ctx, s.client, s.domain);
      // An hour later a flood: forged records, one of them an "accept all" appended to the real visitor's ucid.
      now = T0 + HOUR;
      const forged: string[] = [];
      for (let i = 0; i < 4; i++) forged.push(await sendConsent(ctx, s.client, s.domain));
      await sendConsent(ctx, s.client, s.domain, { ucid: visitor, button: 'acceptAll', consent: true });
      expect((await s.api(`/${visitor}`))[0]).toMatchObject({ button: 'acceptAll' }); // the forgery wins, before

      const created = await ctx.hosting({
        method: 'POST', url: `${s.base}/quarantine`,
        payload: { from: (T0 + HOUR) / 1000, to: (T0 + HOUR) / 1000 + 59, reason: 'burst from one network, 2026-11-01 01:00' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ fromSeq: 3, toSeq: 7, reason: 'burst from one network, 2026-11-01 01:00' });

      // The visitor's newest decision is the genuine one again; the list holds only the two genuine records.
      expect(await s.api(`/${visitor}`)).toEqual([expect.objectContaining({ ucid: visitor, button: 'declineAll', consent: false })]);
      expect(await s.api(`/${visitor.slice(0, 12)}`)).toHaveLength(1);
      expect((await s.api('')).map((r) => r.ucid)).toEqual([other, visitor]);
      expect((await s.api('?limit=3')).map((r) => r.ucid)).toEqual([]); // newest three are all set aside: a short page
      expect(await s.api(`/${forged[0]}`)).toEqual([]);
      // Asked for, they are all there; the chain is untouched and verifies.
      expect(await s.api('?quarantined=include')).toHaveLength(7);
      expect(await s.api(`/${visitor}?quarantined=include`)).toHaveLength(2);
      const verify = await ctx.hosting({ method: 'GET', url: `${s.base}/verify` });
      expect(verify.json()).toMatchObject({ ok: true, checkedRecords: 7 });

      const list = await ctx.hosting({ method: 'GET', url: `${s.base}/quarantine` });
      expect(list.json()).toEqual([created.json()]);
      const lifted = await ctx.hosting({ method: 'DELETE', url: `${s.base}/quarantine/${created.json<{ id: string }>().id}` });
      expect(lifted.statusCode).toBe(204);
      expect(await s.api('')).toHaveLength(7);
      expect((await s.api(`/${visitor}`))[0]).toMatchObject({ button: 'acceptAll' });
    });

    it('takes chain positions too, and refuses ranges that are empty, reversed, beyond the chain or half given', async () => {
      now = T0;
      const s = await setup(ctx);
      for (let i = 0; i < 3; i++) await sendConsent(ctx, s.client, s.domain);
      const post = (payload: object) => ctx.hosting({ method: 'POST', url: `${s.base}/quarantine`, payload });
      const bySeq = await post({ fromSeq: 2, toSeq: 2, reason: 'one forged record' });
      expect(bySeq.statusCode).toBe(201);
      expect((await s.api('')).length).toBe(2);
      for (const [payload, field] of [
        [{ fromSeq: 3, toSeq: 2, reason: 'x' }, 'body.toSeq'],
        [{ fromSeq: 1, toSeq: 4, reason: 'x' }, 'body.toSeq'],
        [{ fromSeq: 1, reason: 'x' }, 'body'],
        [{ fromSeq: 1, toSeq: 1, from: 1, to: 2, reason: 'x' }, 'body'],
        [{ from: (T0 + 10 * HOUR) / 1000, to: (T0 + 11 * HOUR) / 1000, reason: 'x' }, 'body.from'],
      ] as const) {
        const res = await post(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field })] } });
      }
      expect((await post({ fromSeq: 1, toSeq: 1 })).statusCode).toBe(400); // a reason is required
      expect((await ctx.hosting({ method: 'DELETE', url: `${s.base}/quarantine/nope123` })).json()).toMatchObject({ error: { code: 'QUARANTINE_NOT_FOUND' } });
    });

    it("keeps each client to its own domains' ranges", async () => {
      now = T0;
      const s = await setup(ctx);
      await sendConsent(ctx, s.client, s.domain);
      const created = (await ctx.hosting({ method: 'POST', url: `${s.base}/quarantine`, payload: { fromSeq: 1, toSeq: 1, reason: 'x' } })).json<{ id: string }>();
      const intruder = await createClient(ctx);
      const foreign = `/hosting/api/client/${intruder.id}/domain/${s.domain.id}/consent-log/quarantine`;
      expect((await ctx.hosting({ method: 'GET', url: foreign })).statusCode).toBe(404);
      expect((await ctx.hosting({ method: 'POST', url: foreign, payload: { fromSeq: 1, toSeq: 1, reason: 'x' } })).statusCode).toBe(404);
      expect((await ctx.hosting({ method: 'DELETE', url: `${foreign}/${created.id}` })).statusCode).toBe(404);
      expect((await ctx.hosting({ method: 'GET', url: `${s.base}/quarantine` })).json()).toHaveLength(1);
    });
  });
}
