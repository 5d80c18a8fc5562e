import { gunzipSync } from 'node:zlib';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, depsOf, sendConsent, useApp, type TestContext } from '../../../test/helper.js';
import type { Clock } from '../../deps.js';
import { chainHash, genesisHash } from './consent-log.record.js';
import { firstUcidQuery, pageNewestFirstQuery, prefixRangeQuery, recordsOfUcidQuery } from './consent-log.repository.js';
import { applyRetention } from './consent-log.retention.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

async function setup(ctx: TestContext) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}/consent-log`;
  const consent = () => sendConsent(ctx, client, domain, { manipulationPrevention: false });
  const get = async (path: string) => ctx.hosting({ method: 'GET', url: `${base}${path}` });
  const blocks = async () => (await get('/blocks')).json<{ id: number; state: string; reason: string | null; recordCount: number }[]>();
  const verify = async () => (await get('/verify')).json<{ ok: boolean; checkedRecords: number; firstMismatch: { seq: number; reason: string } | null }>();
  const rows = () =>
    ctx.database.db.selectFrom('consent_records').selectAll().where('domain_id', '=', domain.id).orderBy('seq').execute();
  return { client, domain, base, consent, get, blocks, verify, rows };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: consent log`, () => {
    let now = T0;
    const clock: Clock = { now: () => new Date(now) };
    const ctx = useApp(dialect, { consentLog: { blockSize: 3, retentionDays: 395 } }, { clock });
    const deps = () => depsOf(ctx, clock);

    it('appends records chained by hash from a per-domain genesis', async () => {
      now = T0;
      const s = await setup(ctx);
      const ucids = [await s.consent(), await s.consent()];
      const rows = await s.rows();
      expect(rows.map((r) => [Number(r.seq), r.block_no, r.ucid])).toEqual([[1, 1, ucids[0]], [2, 1, ucids[1]]]);
      expect(rows[0]!.hash).toBe(chainHash(genesisHash(s.domain.id), rows[0]!.record));
      expect(rows[1]!.hash).toBe(chainHash(rows[0]!.hash, rows[1]!.record));
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 2, lastSeq: 2, headHash: rows[1]!.hash });
    });

    it('closes a block when it reaches the block size and continues the chain in the next', async () => {
      now = T0;
      const s = await setup(ctx);
      for (let i = 0; i < 4; i++) await s.consent();
      const blocks = (await s.get('/blocks')).json();
      expect(blocks).toMatchObject([
        { id: 1, state: 'archived', reason: 'size', recordCount: 3, firstSeq: 1, lastSeq: 3, firstTimestamp: T0 / 1000, lastTimestamp: T0 / 1000 },
        { id: 2, state: 'open', reason: null, recordCount: 1, firstSeq: 4, lastSeq: 4 },
      ]);
      expect(blocks[1].prevHash).toBe(blocks[0].headHash);
      expect((await s.rows()).map((r) => r.block_no)).toEqual([1, 1, 1, 2]);
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 4, checkedBlocks: 2 });
    });

    it('rotates blocks inside one batch of concurrent consents', async () => {
      now = T0;
      const s = await setup(ctx);
      await Promise.all(Array.from({ length: 20 }, () => s.consent()));
      const blocks = await s.blocks();
      expect(blocks.map((b) => [b.id, b.state, b.recordCount])).toEqual([
        ...Array.from({ length: 6 }, (_, i) => [i + 1, 'archived', 3]),
        [7, 'open', 2],
      ]);
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 20, checkedBlocks: 7 });
    });

    it('archives the current block on request (201 with its summary); 409 when it is empty', async () => {
      now = T0;
      const s = await setup(ctx);
      expect((await ctx.hosting({ method: 'POST', url: `${s.base}/archive` })).statusCode).toBe(409);
      await s.consent();
      await s.consent();
      const res = await ctx.hosting({ method: 'POST', url: `${s.base}/archive` });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ id: 1, state: 'archived', reason: 'manual', recordCount: 2, closedAt: T0 / 1000 });
      expect(await s.blocks()).toMatchObject([{ id: 1, state: 'archived' }, { id: 2, state: 'open', recordCount: 0 }]);
      await s.consent();
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 3 });
    });

    it('exports a block as NDJSON, gzip when accepted, verifiable line by line', async () => {
      now = T0;
      const s = await setup(ctx);
      const ucids = [await s.consent(), await s.consent(), await s.consent()];
      const plain = await s.get('/blocks/1/export');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-type']).toMatch(/^application\/x-ndjson/);
      // Record lines; the export also opens with the snapshots the records name and ends with a checkpoint.
      const lines = plain.body.trim().split('\n').map((l) => JSON.parse(l) as { seq: number; prevHash: string; hash: string; record: { ucid: string } }).filter((l) => l.seq !== undefined);
      expect(lines.map((l) => [l.seq, l.record.ucid])).toEqual(ucids.map((u, i) => [i + 1, u]));
      expect(lines[0]!.prevHash).toBe(genesisHash(s.domain.id));
      const stored = await s.rows();
      lines.forEach((l, i) => expect(chainHash(l.prevHash, stored[i]!.record)).toBe(l.hash));

      const zipped = await ctx.hosting({ method: 'GET', url: `${s.base}/blocks/1/export`, headers: { 'accept-encoding': 'br, gzip' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
      const refused = await ctx.hosting({ method: 'GET', url: `${s.base}/blocks/1/export`, headers: { 'accept-encoding': 'gzip;q=0' } });
      expect(refused.headers['content-encoding']).toBeUndefined();

      expect((await s.get('/blocks/9/export')).json().error.code).toBe('BLOCK_NOT_FOUND');
      const other = await setup(ctx);
      expect((await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${other.client.id}/domain/${s.domain.id}/consent-log/blocks/1/export` })).statusCode).toBe(404);
    });

    it('retention deletes whole expired blocks only and keeps the chain verifiable', async () => {
      now = T0;
      const s = await setup(ctx);
      for (let i = 0; i < 3; i++) await s.consent(); // block 1: all at T0, closed by size
      now = T0 + 200 * DAY;
      await s.consent();
      now = T0 + 250 * DAY;
      await s.consent(); // block 2 spans day 200 to day 250
      await ctx.hosting({ method: 'POST', url: `${s.base}/archive` });
      now = T0 + 300 * DAY;
      await s.consent(); // block 3 (open)

      now = T0 + 201 * DAY + 395 * DAY; // cutoff: day 201, inside block 2
      await applyRetention(deps());
      expect(await s.blocks()).toMatchObject([
        { id: 1, state: 'expired', recordCount: 3 },
        { id: 2, state: 'archived', recordCount: 2 },
        { id: 3, state: 'open', recordCount: 1 },
      ]);
      expect((await s.rows()).map((r) => Number(r.seq))).toEqual([4, 5, 6]);
      expect((await s.get('/blocks/1/export')).statusCode).toBe(410);
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 3 });

      now = T0 + 301 * DAY + 395 * DAY; // everything is past the cutoff: the open block closes and expires
      await applyRetention(deps());
      expect(await s.blocks()).toMatchObject([
        { id: 1, state: 'expired' },
        { id: 2, state: 'expired' },
        { id: 3, state: 'expired', reason: 'retention' },
        { id: 4, state: 'open', recordCount: 0, firstSeq: 7 },
      ]);
      expect(await s.rows()).toEqual([]);
      await s.consent();
      expect(await s.verify()).toMatchObject({ ok: true, checkedRecords: 1, lastSeq: 7 });
    });

    describe('verify', () => {
      it('reports a changed record', async () => {
        now = T0;
        const s = await setup(ctx);
        for (let i = 0; i < 5; i++) await s.consent();
        const target = (await s.rows())[3]!;
        await ctx.database.db
          .updateTable('consent_records')
          .set({ record: target.record.replace('"consent":true', '"consent":false') })
          .where('domain_id', '=', s.domain.id)
          .where('seq', '=', 4)
          .execute();
        expect((await s.verify()).firstMismatch).toMatchObject({ seq: 4, blockId: 2, reason: 'hash', ucid: target.ucid });
      });

      it('reports the next record when the changed record got a recomputed hash', async () => {
        now = T0;
        const s = await setup(ctx);
        for (let i = 0; i < 3; i++) await s.consent();
        const [first, second] = await s.rows();
        const forged = second!.record.replace('"consent":true', '"consent":false');
        await ctx.database.db
          .updateTable('consent_records')
          .set({ record: forged, hash: chainHash(first!.hash, forged) })
          .where('domain_id', '=', s.domain.id)
          .where('seq', '=', 2)
          .execute();
        expect((await s.verify()).firstMismatch).toMatchObject({ seq: 3, reason: 'hash' });
      });

      it('reports a deleted record', async () => {
        now = T0;
        const s = await setup(ctx);
        for (let i = 0; i < 3; i++) await s.consent();
        await ctx.database.db.deleteFrom('consent_records').where('domain_id', '=', s.domain.id).where('seq', '=', 2).execute();
        expect((await s.verify()).firstMismatch).toMatchObject({ seq: 2, reason: 'missing' });
      });
    });

    it('removes the log with its domain (ON DELETE CASCADE)', async () => {
      now = T0;
      const s = await setup(ctx);
      for (let i = 0; i < 4; i++) await s.consent();
      expect((await ctx.hosting({ method: 'DELETE', url: `/hosting/api/client/${s.client.id}/domain/${s.domain.id}` })).statusCode).toBe(204);
      for (const table of ['consent_records', 'consent_log_heads', 'consent_log_blocks'] as const) {
        const n = await ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', s.domain.id).executeTakeFirstOrThrow();
        expect(Number(n.n)).toBe(0);
      }
    });

    describe('query plans', () => {
      const plan = async (query: { compile(): CompiledQuery }): Promise<string> => {
        const compiled = query.compile();
        if (dialect === 'sqlite') {
          const result = await ctx.database.db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          );
          return result.rows.map((r) => r.detail).join('\n');
        }
        // The test tables are tiny, so PostgreSQL would rightly prefer a sequential scan: forbid it to see
        // whether an index range scan is possible at all.
        return ctx.database.db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
          );
          return result.rows.map((r) => r['QUERY PLAN']).join('\n');
        });
      };
      const db = () => ctx.database.db;

      it('finds a ucid prefix with a range scan on the ucid index', async () => {
        for (const query of [
          prefixRangeQuery(db(), { clientId: 'c000001' }, 'abcdef0', 'abc', 'abcg', 51),
          prefixRangeQuery(db(), { keyHash: 'f'.repeat(64) }, 'abcdef0', 'abc', 'abcg', 51),
          firstUcidQuery(db(), 'abcdef0', 1, 'abc', 'abcg', 'abc0'),
        ]) {
          const p = await plan(query);
          if (dialect === 'sqlite') {
            expect(p).toMatch(/USING (COVERING )?INDEX consent_records_ucid_idx \(domain_id=\? AND block_no=\? AND ucid>\? AND ucid<\?\)/);
          } else {
            expect(p).toMatch(/Index (Only )?Scan using consent_records_ucid_idx/);
            expect(p).toMatch(/Index Cond: .*block_no = .*ucid\)?(::text)? >= .*ucid\)?(::text)? < /s);
          }
          expect(p).not.toMatch(/SCAN consent_records$|Seq Scan|TEMP B-TREE|Sort/m);
        }
        const history = await plan(recordsOfUcidQuery(db(), 'abcdef0', 1, 'a'.repeat(64)));
        expect(history).toMatch(/consent_records_ucid_idx/);
        expect(history).not.toMatch(/TEMP B-TREE|Sort/);
      });

      it('pages the current block with a range scan on the primary key, without sorting', async () => {
        const p = await plan(pageNewestFirstQuery(db(), 'abcdef0', 100, 200, 1000));
        if (dialect === 'sqlite') expect(p).toMatch(/SEARCH consent_records USING INDEX sqlite_autoindex_consent_records_1 \(domain_id=\? AND seq>\? AND seq<\?\)/);
        else expect(p).toMatch(/Index Scan Backward using consent_records_pk/);
        expect(p).not.toMatch(/TEMP B-TREE|Sort|Seq Scan/);
      });
    });
  });
}
