import { spawnSync } from 'node:child_process';
import { randomBytes, createPublicKey, verify as verifySignature } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, depsOf, useApp, type TestContext } from '../../../test/helper.js';
import { buildApp } from '../../app.js';
import { sha256Hex, type Clock } from '../../deps.js';
import { verifyExport } from '../../../scripts/verify-consent-export.mjs';
import { chainHash } from './consent-log.record.js';
import { applyRetention } from './consent-log.retention.js';
import { namedTexts } from '../../../widget/src/text-fields.js';

const ucid = () => randomBytes(32).toString('hex');
const DAY = 86_400_000;

/** The configuration inlined into a served widget (as `JSON.parse("…")`). */
function inlinedConfig(body: string): Record<string, unknown> & { sh: string } {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  if (!match) throw new Error(`no configuration in ${body.slice(0, 200)}`);
  return JSON.parse(JSON.parse(match[1]!) as string) as Record<string, unknown> & { sh: string };
}

async function setup(ctx: TestContext) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const key = (await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain-api-key` })).json<{ apiKey: string }>().apiKey;
  const origin = `https://${domain.name}`;
  /** Loads the widget as a page of the domain does; returns the configuration it was served with. */
  const served = new Map<string, Record<string, unknown>>();
  let latest: Record<string, unknown> | undefined;
  const widget = async (query = '') => {
    const config = inlinedConfig((await ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}${query}`, headers: { origin } })).body);
    served.set(config.sh, config);
    latest = config;
    return config;
  };
  /** Sends a decision as the widget that was served with `body.snapshot` would (its token and revisions). */
  const send = async (body: Record<string, unknown>) => {
    const config = served.get(body.snapshot as string) ?? latest ?? (await widget());
    return ctx.app.inject({
      method: 'POST', url: '/public/consent', headers: { origin, 'content-type': 'text/plain' },
      payload: JSON.stringify({
        apiKey: client.apiKey, domain: domain.id, ucid: ucid(), consent: true, embeddings: [], manipulationPrevention: true,
        button: 'acceptAll', lang: 'en', revision: config.r, legalRevision: config.lr, token: config.tk, ...body,
      }),
    });
  };
  const api = (path: string) => ctx.app.inject({ method: 'GET', url: `/api${path}${path.includes('?') ? '&' : '?'}apiKey=${key}` });
  const rows = () => ctx.database.db.selectFrom('consent_records').selectAll().where('domain_id', '=', domain.id).orderBy('seq').execute();
  const verify = async (query = '') => (await ctx.hosting({ method: 'GET', url: `${base}/consent-log/verify${query}` })).json();
  return { client, domain, base, key, widget, send, api, rows, verify };
}

type Shown = { record: { ucid: string; snapshot: string }; snapshot: string; shown: { lang: string; texts: Record<string, string>; embeddings: { id: string; name: string; description: string }[]; purposes: { id: string; name: string }[] } };

for (const dialect of DIALECTS) {
  describe(`${dialect}: consent log snapshots and checkpoints`, () => {
    let now = Date.UTC(2026, 5, 1);
    const clock: Clock = { now: () => new Date(now) };
    const ctx = useApp(dialect, { consentLog: { blockSize: 100, retentionDays: 30 } }, { clock });

    it('ties each record to what its visitor saw: an old record keeps the old text, a new one gets the new', async () => {
      const s = await setup(ctx);
      const maps = (await ctx.hosting({ method: 'POST', url: `${s.base}/embedding`, payload: { name: 'Maps', purpose: '15c61c3', description: 'Old description' } })).json<{ id: string }>().id;
      await ctx.hosting({ method: 'POST', url: `${s.base}/locale`, payload: { name: 'en', widgetIntroText: 'We use cookies (old text).' } });
      const before = await s.widget();
      expect(before.sh).toMatch(/^[0-9a-f]{64}$/);
      const first = ucid();
      expect((await s.send({ ucid: first, embeddings: [maps], snapshot: before.sh })).statusCode).toBe(204);

      await ctx.hosting({ method: 'PUT', url: `${s.base}/locale/en`, payload: { widgetIntroText: 'We use cookies (new text).' } });
      await ctx.hosting({ method: 'PUT', url: `${s.base}/embedding/${maps}`, payload: { description: 'New description' } });
      const after = await s.widget();
      expect(after.sh).not.toBe(before.sh);
      const second = ucid();
      expect((await s.send({ ucid: second, embeddings: [maps], snapshot: after.sh })).statusCode).toBe(204);
      // The old snapshot still counts as served: a page loaded before the change may still send it.
      expect((await s.send({ snapshot: before.sh })).statusCode).toBe(204);

      const [old] = (await s.api(`/domains/${s.domain.id}/consents/${first}/shown`)).json<Shown[]>();
      expect(old!.record.snapshot).toBe(before.sh);
      expect(old!.shown.lang).toBe('en');
      expect(old!.shown.texts.widgetIntroText).toBe('We use cookies (old text).');
      expect(old!.shown.embeddings).toMatchObject([{ id: maps, name: 'Maps', description: 'Old description' }]);
      expect(old!.shown.purposes.map((p) => p.id)).toEqual(expect.arrayContaining(['41ba25c', '15c61c3']));
      const [fresh] = (await s.api(`/domains/${s.domain.id}/consents/${second}/shown`)).json<Shown[]>();
      expect(fresh!.shown.texts.widgetIntroText).toBe('We use cookies (new text).');
      expect(fresh!.shown.embeddings[0]!.description).toBe('New description');

      // The snapshot by hash: its config hashes to its key (canonical JSON, as stored).
      const res = await s.api(`/domains/${s.domain.id}/snapshots/${before.sh}`);
      expect(res.statusCode).toBe(200);
      const stored = await ctx.database.db.selectFrom('consent_snapshots').select('config').where('hash', '=', before.sh).executeTakeFirstOrThrow();
      expect(sha256Hex(stored.config)).toBe(before.sh);
      expect(res.body).toContain(`"config":${stored.config}}`);
      expect(namedTexts(res.json().config.loc.en.t).widgetIntroText).toBe('We use cookies (old text).');
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 3, checkedSnapshots: 2 });
    });

    it('accepts a hash that another process served (its own cache has never seen it)', async () => {
      const s = await setup(ctx);
      // A second app on the same database: another Placet process with caches of its own.
      const second = await buildApp({ config: ctx.config, database: ctx.database });
      try {
        const origin = `https://${s.domain.name}`;
        const served = inlinedConfig((await second.inject({ method: 'GET', url: `/public/app.js?apiKey=${s.client.apiKey}&domain=${s.domain.id}`, headers: { origin } })).body);
        expect((await s.send({ snapshot: served.sh })).statusCode).toBe(204);
        expect(JSON.parse((await s.rows())[0]!.record).snapshot).toBe(served.sh);
      } finally {
        await second.close();
      }
    });

    it('shares one snapshot between identical configurations', async () => {
      const s = await setup(ctx);
      const a = await s.widget();
      // A placeholder no text uses raises the revision but changes nothing the visitor sees.
      expect((await ctx.hosting({ method: 'POST', url: `${s.base}/placeholder`, payload: { name: 'unused', value: 'x' } })).statusCode).toBe(201);
      const b = await s.widget(); // a new revision that changes nothing visible
      expect(b.r).not.toBe(a.r);
      expect(b.sh).toBe(a.sh);
      const count = await ctx.database.db.selectFrom('consent_snapshots').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', s.domain.id).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });

    it('refuses a forged hash and a hash served for another domain (400, nothing stored)', async () => {
      const s = await setup(ctx);
      const other = await setup(ctx);
      const foreign = (await other.widget()).sh;
      for (const snapshot of ['a'.repeat(64), foreign]) {
        const res = await s.send({ snapshot });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'CONSENT_INVALID', details: [{ field: 'body.snapshot' }] });
      }
      const missing = await s.send({});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.code).toBe('VALIDATION_FAILED');
      expect(await s.rows()).toEqual([]);
      // Only the key's own domains: another client's key does not see this domain's snapshot.
      expect((await other.api(`/domains/${s.domain.id}/snapshots/${foreign}`)).statusCode).toBe(404);
      expect((await s.api(`/domains/${s.domain.id}/snapshots/${foreign}`)).json().error.code).toBe('SNAPSHOT_NOT_FOUND');
      expect((await other.api(`/domains/${other.domain.id}/snapshots/${foreign}`)).statusCode).toBe(200);
      // The signed head: 409 before the first record, 404 for another client's domain.
      expect((await s.api(`/domains/${s.domain.id}/checkpoint`)).json().error.code).toBe('CONSENT_LOG_NO_RECORDS');
      expect((await other.api(`/domains/${s.domain.id}/checkpoint`)).json().error.code).toBe('DOMAIN_NOT_FOUND');
      expect((await other.api(`/domains/${s.domain.id}/consents/${'a'.repeat(64)}/shown`)).statusCode).toBe(404);
    });

    it('a deleted embedding does not change what an old record shows', async () => {
      const s = await setup(ctx);
      const video = (await ctx.hosting({ method: 'POST', url: `${s.base}/embedding`, payload: { name: 'Video', purpose: '15c61c3', vendor: 'Tube Inc.' } })).json<{ id: string }>().id;
      const seen = await s.widget();
      const visitor = ucid();
      expect((await s.send({ ucid: visitor, embeddings: [video], snapshot: seen.sh })).statusCode).toBe(204);
      expect((await ctx.hosting({ method: 'DELETE', url: `${s.base}/embedding/${video}` })).statusCode).toBe(204);
      expect((await s.widget()).em).toEqual([]);
      const [decision] = (await s.api(`/domains/${s.domain.id}/consents/${visitor}/shown`)).json<Shown[]>();
      expect(decision!.shown.embeddings).toMatchObject([{ id: video, name: 'Video', vendor: 'Tube Inc.' }]);
    });

    it('exports a block with its snapshots and signed checkpoint, which verifies offline; a change is found', async () => {
      const s = await setup(ctx);
      const seen = await s.widget();
      for (let i = 0; i < 3; i++) expect((await s.send({ snapshot: seen.sh })).statusCode).toBe(204);
      const text = (await ctx.hosting({ method: 'GET', url: `${s.base}/consent-log/blocks/1/export` })).body;
      const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ snapshot: seen.sh });
      expect(lines.at(-1)).toMatchObject({ checkpoint: { domainId: s.domain.id, seq: 3 } });
      const checkpoint = (lines.at(-1) as { checkpoint: { publicKey: string } }).checkpoint;
      const rows = await s.rows();
      const trusted = (await s.api(`/domains/${s.domain.id}/checkpoint`)).json<{ publicKey: string; seq: number; headHash: string }>();
      expect(trusted).toMatchObject({ seq: 3, headHash: rows[2]!.hash });
      expect(verifyExport(text, { publicKey: trusted.publicKey, kept: { seq: 2, headHash: rows[1]!.hash } })).toMatchObject({
        ok: true, records: 3, snapshots: 1, lastSeq: 3, checkpoint: { signature: 'valid', trustedKey: true }, kept: { matches: true }, problems: [],
      });
      // The same as a command, on a gzip export, with the public key from a file.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-export-'));
      const gz = (await ctx.hosting({ method: 'GET', url: `${s.base}/consent-log/blocks/1/export`, headers: { 'accept-encoding': 'gzip' } })).rawPayload;
      fs.writeFileSync(path.join(dir, 'block.ndjson.gz'), gz);
      fs.writeFileSync(path.join(dir, 'placet.pem'), trusted.publicKey);
      const run = (file: string) =>
        spawnSync(process.execPath, ['scripts/verify-consent-export.mjs', path.join(dir, file), '--public-key', path.join(dir, 'placet.pem'), '--checkpoint', `3:${rows[2]!.hash}`], { encoding: 'utf8' });
      const good = run('block.ndjson.gz');
      expect(good.status).toBe(0);
      expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, records: 3 });
      fs.writeFileSync(path.join(dir, 'forged.ndjson'), text.replace('"consent":true', '"consent":false'));
      expect(run('forged.ndjson').status).toBe(1);
      fs.rmSync(dir, { recursive: true, force: true });
      // A decline turned into an accept in the export itself, with its hash recomputed: the next line breaks.
      const forged = text.replace('"consent":true', '"consent":false');
      expect(verifyExport(forged, { publicKey: checkpoint.publicKey }).ok).toBe(false);
      // A changed snapshot text no longer hashes to its key.
      const edited = text.replace(/(\{"snapshot":"[0-9a-f]{64}","config":")/, '$1 ');
      expect(verifyExport(edited, { publicKey: checkpoint.publicKey }).problems.join()).toMatch(/does not hash to its key/);
    });

    it('verify reports a snapshot that was changed in the database', async () => {
      const s = await setup(ctx);
      const seen = await s.widget();
      expect((await s.send({ snapshot: seen.sh })).statusCode).toBe(204);
      await ctx.database.db.updateTable('consent_snapshots').set({ config: '{"changed":true}' }).where('domain_id', '=', s.domain.id).where('hash', '=', seen.sh).execute();
      expect((await s.verify()).firstMismatch).toMatchObject({ seq: 1, reason: 'snapshot' });
    });

    it('detects a record rewritten and re-chained in the database: against signed checkpoints and against a kept one', async () => {
      const s = await setup(ctx);
      const seen = await s.widget();
      for (let i = 0; i < 3; i++) await s.send({ snapshot: seen.sh });
      for (let i = 0; i < 2; i++) await s.send({ consent: false, button: 'declineAll', snapshot: seen.sh });
      // The site owner keeps the signed head (Domain API); then more decisions arrive.
      const kept = (await s.api(`/domains/${s.domain.id}/checkpoint`)).json<{ seq: number; headHash: string; signedAt: number; signature: string; message: string; publicKey: string }>();
      expect(kept.seq).toBe(5);
      expect(verifySignature(null, Buffer.from(kept.message), createPublicKey(kept.publicKey), Buffer.from(kept.signature, 'base64url'))).toBe(true);
      await s.send({ snapshot: seen.sh });
      const incomplete = await ctx.hosting({ method: 'GET', url: `${s.base}/consent-log/verify?seq=5` });
      expect(incomplete.statusCode).toBe(400);
      expect(incomplete.json().error.code).toBe('VALIDATION_FAILED');
      const keptQuery = `?seq=${kept.seq}&headHash=${kept.headHash}&signedAt=${kept.signedAt}&signature=${kept.signature}`;
      expect(await s.verify(keptQuery)).toMatchObject({ ok: true, kept: { seq: 5, matches: true, signature: 'valid' }, checkpoints: { checked: 1 } });

      // Someone with database access turns the decline at seq 4 into an accept and recomputes every hash
      // after it, the head and the block summary: the chain is consistent again.
      const rows = await s.rows();
      let prev = rows[1]!.hash;
      const rewritten = rows.map((r, i) => {
        if (i < 2) return r;
        const record = i === 3 ? r.record.replace('"consent":false', '"consent":true').replace('"declineAll"', '"acceptAll"') : r.record;
        const hash = chainHash(prev, record);
        prev = hash;
        return { ...r, record, hash };
      });
      for (const r of rewritten.slice(2)) {
        await ctx.database.db.updateTable('consent_records').set({ record: r.record, hash: r.hash }).where('domain_id', '=', s.domain.id).where('seq', '=', r.seq).execute();
      }
      await ctx.database.db.updateTable('consent_log_heads').set({ head_hash: prev }).where('domain_id', '=', s.domain.id).execute();
      const plain = await s.verify();
      expect(plain.firstMismatch).toMatchObject({ seq: 5, reason: 'checkpoint' }); // the signed head at seq 5
      expect(await s.verify(keptQuery)).toMatchObject({ ok: false, firstMismatch: { reason: 'checkpoint' } });

      // With the stored checkpoints deleted as well, the checkpoint the owner kept still shows it.
      await ctx.database.db.deleteFrom('consent_log_checkpoints').where('domain_id', '=', s.domain.id).execute();
      expect((await s.verify()).ok).toBe(true); // nothing inside the database tells any more
      expect(await s.verify(keptQuery)).toMatchObject({ ok: false, firstMismatch: { seq: 5, reason: 'kept' } });
      // A forged checkpoint row (wrong signature) is reported too.
      await ctx.database.db.insertInto('consent_log_checkpoints').values({
        domain_id: s.domain.id, seq: 6, head_hash: prev, signed_at: 1, key_id: plain.checkpoints.keyId, signature: 'A'.repeat(86),
      }).execute();
      expect((await s.verify()).firstMismatch).toMatchObject({ seq: 6, reason: 'signature' });
    });

    it('signs at block close (archive) and periodically; retention deletes a snapshot with the last record naming it', async () => {
      now = Date.UTC(2026, 5, 1);
      const s = await setup(ctx);
      const seen = await s.widget();
      await s.send({ snapshot: seen.sh });
      expect((await ctx.hosting({ method: 'POST', url: `${s.base}/consent-log/archive` })).statusCode).toBe(201);
      const checkpoints = () => ctx.database.db.selectFrom('consent_log_checkpoints').select(['seq']).where('domain_id', '=', s.domain.id).execute();
      expect((await checkpoints()).map((c) => Number(c.seq))).toEqual([1]);
      expect((await ctx.hosting({ method: 'POST', url: `${s.base}/locale`, payload: { name: 'en', widgetTitle: 'Changed' } })).statusCode).toBe(201);
      const next = await s.widget();
      expect(next.sh).not.toBe(seen.sh);
      await s.send({ snapshot: next.sh });
      const { signDueCheckpoints } = await import('./consent-log.checkpoints.js');
      now += 2 * 3600 * 1000;
      expect(await signDueCheckpoints(depsOf(ctx, clock))).toBeGreaterThanOrEqual(1);
      expect((await checkpoints()).map((c) => Number(c.seq))).toEqual([1, 2]);

      const snapshotsLeft = async () =>
        (await ctx.database.db.selectFrom('consent_snapshots').select('hash').where('domain_id', '=', s.domain.id).execute()).map((r) => r.hash).sort();
      // 31 days later, block 1 (the only record naming the first snapshot) expires; block 2 is open and its
      // record is as old: it is closed and expires too, but the second snapshot is still served, so it stays.
      now += 31 * DAY;
      const result = await applyRetention(depsOf(ctx, clock));
      expect(result.deletedSnapshots).toBeGreaterThanOrEqual(1);
      expect(await snapshotsLeft()).toEqual([next.sh]);
      expect(await s.verify()).toMatchObject({ ok: true });
    });

    it('never deletes a snapshot a block still refers to (foreign key)', async () => {
      const s = await setup(ctx);
      const seen = await s.widget();
      await s.send({ snapshot: seen.sh });
      await expect(ctx.database.db.deleteFrom('consent_snapshots').where('domain_id', '=', s.domain.id).execute()).rejects.toThrow();
    });
  });
}
