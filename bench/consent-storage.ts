/**
 * `npx tsx bench/consent-storage.ts`: the storage of the consent log with snapshots, on SQLite and
 * PostgreSQL (TEST_DATABASE_URL; skipped when unreachable): BENCH_STORAGE_RECORDS records (default
 * 1000000) spread over BENCH_STORAGE_CHANGES configuration changes (default 50), each change a new text and
 * so a new snapshot, of a domain with two locales and six embeddings. Prints the bytes per table
 * (indexes included), per record and per snapshot. Figures are printed, not asserted.
 */
import { sql } from 'kysely';
import type { Engine } from '../src/db/database.js';
import { appendMany, hosting, openStore, pgReachable, realisticDomain, servedHash, startApp } from './log-common.js';

const RECORDS = Number(process.env.BENCH_STORAGE_RECORDS ?? 1_000_000);
const CHANGES = Number(process.env.BENCH_STORAGE_CHANGES ?? 50);
const TABLES = ['consent_records', 'consent_snapshots', 'consent_log_block_snapshots', 'consent_log_blocks', 'consent_log_checkpoints'];

async function measure(engine: Engine): Promise<void> {
  const store = await openStore(engine);
  const app = await startApp(store);
  try {
    const d = await realisticDomain(app);
    const started = Date.now();
    for (let change = 0; change < CHANGES; change++) {
      await hosting(app, 'PUT', `${d.base}/locale/de_DE`, { widgetIntroText: `Wir verwenden Cookies (Fassung ${change + 1}).` });
      const hash = await servedHash(app, d);
      const share = Math.floor(RECORDS / CHANGES) + (change < RECORDS % CHANGES ? 1 : 0);
      await appendMany(store, engine, d.domain.id, d.embeddings, hash, share);
    }
    const loadS = (Date.now() - started) / 1000;
    const sizes = new Map<string, number>();
    if (engine === 'sqlite') {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.handle.db);
      const rows = await sql<{ name: string; tbl: string; bytes: number }>`
        select s.name, m.tbl_name as tbl, sum(s.pgsize) as bytes from dbstat s join sqlite_master m on m.name = s.name group by s.name`.execute(store.handle.db);
      for (const r of rows.rows) sizes.set(r.tbl, (sizes.get(r.tbl) ?? 0) + Number(r.bytes));
    } else {
      await sql`vacuum analyze`.execute(store.handle.db).catch(() => undefined);
      for (const table of TABLES) {
        const r = await sql<{ bytes: string }>`select pg_total_relation_size(${sql.lit(`${store.schema}.${table}`)}::regclass) as bytes`.execute(store.handle.db);
        sizes.set(table, Number(r.rows[0]!.bytes));
      }
    }
    const snapshots = await store.handle.db.selectFrom('consent_snapshots').select([(eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.sum<number>(eb.fn('length', ['config'])).as('chars')]).executeTakeFirstOrThrow();
    const refs = await store.handle.db.selectFrom('consent_log_block_snapshots').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    console.log(`\n${engine}: ${RECORDS.toLocaleString('en-US')} records over ${CHANGES} configuration changes (loaded in ${loadS.toFixed(0)} s)`);
    for (const table of TABLES) console.log(`  ${table.padEnd(30)} ${mb(sizes.get(table) ?? 0).padStart(10)}`);
    const n = Number(snapshots.n);
    console.log(`  snapshots: ${n}, ${Math.round(Number(snapshots.chars) / n)} characters of canonical JSON each on average, ${Math.round((sizes.get('consent_snapshots') ?? 0) / n)} bytes stored each`);
    console.log(`  block references: ${Number(refs.n)}`);
    console.log(`  records: ${Math.round((sizes.get('consent_records') ?? 0) / RECORDS)} bytes per record (table and indexes); the "snapshot" field adds 76 characters of it`);
    const snapshotShare = ((sizes.get('consent_snapshots') ?? 0) + (sizes.get('consent_log_block_snapshots') ?? 0)) / (sizes.get('consent_records') ?? 1);
    console.log(`  snapshots and references: ${(snapshotShare * 100).toFixed(2)} % of the records' storage`);
  } finally {
    await app.close();
    await store.handle.close();
    await store.drop();
  }
}

await measure('sqlite');
if (await pgReachable()) await measure('postgres');
else console.log('\npostgres: not reachable, skipped');
