import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { connect, sqliteHandleOf } from '../../db/connect.js';
import { randomIds, systemClock } from '../../deps.js';
import { canonicalRecordJson } from '../consent-log/consent-log.record.js';
import { HOSTING_KEY, createClient, createDomain, sendConsent, servedSnapshot, type TestContext } from '../../../test/helper.js';
import type { PreparedRecord } from './consent-ingest.service.js';
import { ThreadLogWriter } from './consent-ingest.thread-writer.js';
import { LockingWriter } from './consent-ingest.writer.js';

/**
 * The SQLite writer thread (docs/consent-log.md, "The SQLite writer thread"). SQLite only: PostgreSQL writes
 * through its pool and never uses it. The data tests elsewhere run on in-memory SQLite, which a second
 * connection cannot open, so the thread is proved here on a database file, as `npm start` runs it.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-thread-writer-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function useFileApp(file: string) {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.config = testConfig({ hostingApiKey: HOSTING_KEY, database: { kind: 'sqlite', file } });
    ctx.clock = systemClock;
    ctx.database = connect({ kind: 'sqlite', file });
    ctx.app = await buildApp({ config: ctx.config, database: ctx.database });
    ctx.hosting = (opts) => ctx.app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}`, ...(opts.headers ?? {}) } });
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  return ctx;
}

async function verify(ctx: TestContext, clientId: string, domainId: string) {
  const res = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${clientId}/domain/${domainId}/consent-log/verify` });
  return res.json<{ ok: boolean; checkedRecords: number }>();
}

async function storedUcids(ctx: TestContext, domainId: string): Promise<Set<string>> {
  const rows = await ctx.database.db.selectFrom('consent_records').select('ucid').where('domain_id', '=', domainId).execute();
  return new Set(rows.map((r) => r.ucid));
}

describe('SQLite writer thread, through the app', () => {
  const file = path.join(dir, 'app.sqlite');
  const ctx = useFileApp(file);

  it('stores every acknowledged consent of a burst on one unbroken chain, across an archive in between', async () => {
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id);
    const first = await Promise.all(Array.from({ length: 200 }, () => sendConsent(ctx, client, domain)));
    // An archive moves the head on the main connection: the thread's next batch must notice and not fork the chain.
    const archived = await ctx.hosting({ method: 'POST', url: `/hosting/api/client/${client.id}/domain/${domain.id}/consent-log/archive` });
    expect(archived.statusCode).toBe(201);
    const second = await Promise.all(Array.from({ length: 200 }, () => sendConsent(ctx, client, domain)));
    const stored = await storedUcids(ctx, domain.id);
    for (const ucid of [...first, ...second]) expect(stored.has(ucid)).toBe(true);
    expect(stored.size).toBe(400);
    expect(await verify(ctx, client.id, domain.id)).toMatchObject({ ok: true, checkedRecords: 400 });
  });

  it('two apps on one database file (two processes) write one chain between them', async () => {
    const other = await buildApp({ config: ctx.config, database: connect({ kind: 'sqlite', file }) });
    try {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const twin = { ...ctx, app: other } as TestContext;
      const ucids = await Promise.all(Array.from({ length: 300 }, (_, i) => sendConsent(i % 2 === 0 ? ctx : twin, client, domain)));
      const stored = await storedUcids(ctx, domain.id);
      expect(stored.size).toBe(300);
      for (const ucid of ucids) expect(stored.has(ucid)).toBe(true);
      expect(await verify(ctx, client.id, domain.id)).toMatchObject({ ok: true, checkedRecords: 300 });
    } finally {
      await other.close();
    }
  });
});

describe('SQLite writer thread, driven directly', () => {
  const file = path.join(dir, 'direct.sqlite');
  const ctx = useFileApp(file);

  async function records(domainId: string, n: number): Promise<PreparedRecord[]> {
    const snapshot = await servedSnapshot(ctx, domainId);
    const ts = Math.floor(Date.now() / 1000);
    return Array.from({ length: n }, () => {
      const ucid = randomBytes(32).toString('hex');
      const text = canonicalRecordJson({
        consent: true, ucid, timestamp: ts, purposes: {}, embeddings: {}, manipulationPrevention: true, button: 'acceptAll',
        lang: 'en', revision: 1, legalRevision: 1, themeId: null, gpc: null, dnt: null, snapshot, v: 2,
      });
      return { domainId, ucid, ts, text, snapshot };
    });
  }

  it('writes on its own thread, falls back to the head lock when the head moved or the thread died, and stops with the app', async () => {
    const deps = { config: ctx.config, db: ctx.database.db, engine: ctx.database.engine, clock: systemClock, ids: randomIds, log: ctx.app.log };
    const writer = new ThreadLogWriter(deps, sqliteHandleOf(ctx.database.db)!, new LockingWriter(deps));
    const client = await createClient(ctx);
    const domain = await createDomain(ctx, client.id);
    try {
      await writer.write(await records(domain.id, 50));
      await writer.write(await records(domain.id, 50));
      expect(writer.batches).toEqual({ thread: 2, locking: 0 });

      // Another writer (here the app's own, on the main connection) moves the head: the thread refuses the stale
      // plan, the batch is written under the lock, and the next one goes to the thread again.
      await sendConsent(ctx, client, domain);
      await writer.write(await records(domain.id, 10));
      expect(writer.batches).toEqual({ thread: 2, locking: 1 });
      await writer.write(await records(domain.id, 10));
      expect(writer.batches).toEqual({ thread: 3, locking: 1 });

      // The worker is gone (crash): the batch in flight is written by the lock, and a new worker takes the next.
      const worker = (writer as unknown as { worker: { terminate(): Promise<number> } }).worker;
      const inFlight = writer.write(await records(domain.id, 10));
      await worker.terminate();
      await inFlight;
      await writer.write(await records(domain.id, 10));
      expect(writer.batches.thread + writer.batches.locking).toBe(6);
      expect(writer.batches.thread).toBeGreaterThanOrEqual(4);

      expect(await verify(ctx, client.id, domain.id)).toMatchObject({ ok: true, checkedRecords: 141 });
    } finally {
      await writer.close();
    }
  });
});
