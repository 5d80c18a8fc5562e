/** Shared by bench/verify-latency.ts and bench/consent-storage.ts: a store, an app and a domain to fill. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type App } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import type { Engine } from '../src/db/database.js';
import { appendRecords, type PreparedRecord } from '../src/features/consent-ingest/consent-ingest.service.js';
import { canonicalRecordJson } from '../src/features/consent-log/consent-log.record.js';

export const HOSTING_KEY = 'bench-hosting-key-0123456789abcdef';
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Store {
  handle: DatabaseHandle;
  /** SQLite: the database file. */
  file?: string;
  schema?: string;
  drop(): Promise<void>;
}

export async function openStore(engine: Engine): Promise<Store> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-bench-'));
    const file = path.join(dir, 'bench.sqlite');
    return { handle: connect({ kind: 'sqlite', file }), file, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    handle: connect({ kind: 'postgres', url: PG_URL }, { pgSchema: schema, pgPoolSize: 10 }),
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export async function startApp(store: Store, blockSize = 100_000): Promise<App> {
  const config = testConfig({ hostingApiKey: HOSTING_KEY, logLevel: 'warn', consentLog: { blockSize, retentionDays: 395 } });
  return buildApp({ config, database: store.handle });
}

export async function hosting<T>(app: App, method: 'POST' | 'GET' | 'PUT', url: string, payload?: unknown): Promise<T> {
  const res = await app.inject({ method, url: `/hosting/api${url}`, headers: { authorization: `Bearer ${HOSTING_KEY}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

/** A client and a domain with two locales and six embeddings (with assets): a realistic configuration size. */
export async function realisticDomain(app: App) {
  const client = await hosting<{ id: string; apiKey: string }>(app, 'POST', '/client', {
    username: `bench${randomBytes(4).toString('hex')}`, password: 'correct horse battery', emailAddress: 'bench@example.com',
  });
  const domain = await hosting<{ id: string; name: string }>(app, 'POST', `/client/${client.id}/domain`, { name: 'shop.example' });
  const base = `/client/${client.id}/domain/${domain.id}`;
  for (const name of ['de_DE', 'en']) await hosting(app, 'POST', `${base}/locale`, { name });
  const embeddings: string[] = [];
  const purposes = ['15c61c3', 'a717ff5', 'cdcbd7c'];
  for (let i = 0; i < 6; i++) {
    const id = (await hosting<{ id: string }>(app, 'POST', `${base}/embedding`, {
      name: `Service ${i}`, purpose: purposes[i % 3], vendor: `Vendor ${i} GmbH`,
      description: `What service ${i} does on this site, in a sentence or two that a visitor may read before deciding.`,
    })).id;
    await hosting(app, 'POST', `${base}/embedding/${id}/asset`, { name: `cookie_${i}`, storageType: 'cookie', lifetime: '1 year', description: 'Keeps the session' }).catch(() => undefined);
    embeddings.push(id);
  }
  return { client, domain, base, embeddings };
}

/** The snapshot hash of the widget as the domain's pages get it now. */
export async function servedHash(app: App, d: Awaited<ReturnType<typeof realisticDomain>>): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/public/app.js?apiKey=${d.client.apiKey}&domain=${d.domain.id}`, headers: { origin: `https://${d.domain.name}` } });
  const hash = /\\"sh\\":\\"([0-9a-f]{64})\\"/.exec(res.body)?.[1];
  if (!hash) throw new Error(`no snapshot hash in app.js: ${res.statusCode}`);
  return hash;
}

/** Appends `count` chained records naming `snapshot` (batches of 5000, as fast as the engine takes them). */
export async function appendMany(store: Store, engine: Engine, domainId: string, embeddings: string[], snapshot: string, count: number, blockSize = 100_000) {
  const t0 = Math.floor(Date.now() / 1000) - 86_400;
  for (let done = 0; done < count; ) {
    const records: PreparedRecord[] = [];
    for (let i = 0; i < 5000 && done < count; i++, done++) {
      const ucid = randomBytes(32).toString('hex');
      const text = canonicalRecordJson({
        consent: true, ucid, timestamp: t0,
        purposes: { '41ba25c': 'Technisch notwendig', '15c61c3': 'Sonstiges', a717ff5: 'Statistik' },
        embeddings: { [embeddings[0]!]: 'Service 0', [embeddings[1]!]: 'Service 1' },
        manipulationPrevention: true, button: 'acceptAll', lang: 'de_DE', revision: 1, legalRevision: 1,
        themeId: null, gpc: null, dnt: null, snapshot, v: 2,
      });
      records.push({ domainId, ucid, ts: t0, text, snapshot });
    }
    await appendRecords(store.handle.db, engine, blockSize, records, t0);
  }
}

export async function pgReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
