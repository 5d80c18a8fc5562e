import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { DIALECTS, freshDatabase, TEST_DATABASE_URL } from './helper.js';

const schemas: string[] = [];

afterAll(async () => {
  if (schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  for (const s of schemas) await admin.query(`drop schema if exists ${s} cascade`);
  await admin.end();
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: migrations`, () => {
    it('apply once, and a second run applies nothing', async () => {
      const database = await freshDatabase(dialect);
      try {
        expect((await migrateToLatest(database.db, database.schema)).length).toBeGreaterThan(0);
        expect(await migrateToLatest(database.db, database.schema)).toEqual([]);
      } finally {
        await database.close();
      }
    });

    if (dialect === 'postgres') {
      it('work in the schema a search_path in the URL selects, beside another schema that has migration tables', async () => {
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await admin.connect();
        const [first, second] = [`m_${randomBytes(5).toString('hex')}`, `m_${randomBytes(5).toString('hex')}`];
        schemas.push(first, second);
        await admin.query(`create schema ${first}; create schema ${second}`);
        const withPath = (schema: string) =>
          `${TEST_DATABASE_URL}${TEST_DATABASE_URL!.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
        for (const schema of [first, second]) {
          // As server.ts connects: the schema comes only from the URL.
          const database = connect({ kind: 'postgres', url: withPath(schema) });
          try {
            expect((await migrateToLatest(database.db)).length).toBeGreaterThan(0);
          } finally {
            await database.close();
          }
        }
        const { rows } = await admin.query<{ table_schema: string }>(
          `select table_schema from information_schema.tables where table_name = 'consent_records' and table_schema in ($1, $2) order by 1`,
          [first, second].sort(),
        );
        expect(rows.map((r) => r.table_schema)).toEqual([first, second].sort());
        await admin.end();
      });

      // CI failed so on 2026-11-28: two test files side by side, one migrating while the other dropped its schema.
      it('start while another process creates and drops schemas in the same database (the introspector stays in its own)', async () => {
        const stop = { now: false };
        const churn = async () => {
          const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
          await c.connect();
          let rounds = 0;
          while (!stop.now) {
            const other = `churn_${randomBytes(5).toString('hex')}`;
            await c.query(`create schema ${other}; create table ${other}.t (id serial primary key, a text)`);
            await c.query(`drop schema ${other} cascade`);
            rounds++;
          }
          await c.end();
          return rounds;
        };
        const churning = [churn(), churn()];
        const listTables = async (db: Kysely<unknown>, until: number) => {
          let failure: unknown;
          while (Date.now() < until && !failure) {
            await db.introspection.getTables({ withInternalKyselyTables: true }).catch((e: unknown) => (failure = e));
          }
          return failure;
        };
        try {
          // The churn is real: Kysely's own introspector, which looks up every schema by name, trips over it.
          const stock = new Kysely<unknown>({
            dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 }) }),
          });
          const stockFailure = await listTables(stock, Date.now() + 15_000);
          await stock.destroy();
          expect(String(stockFailure)).toMatch(/schema "churn_[0-9a-f]+" does not exist/);

          for (let i = 0; i < 3; i++) {
            const database = await freshDatabase(dialect);
            try {
              expect((await migrateToLatest(database.db, database.schema)).length).toBeGreaterThan(0);
              expect(await listTables(database.db as unknown as Kysely<unknown>, Date.now() + 1_000)).toBeUndefined();
              const tables = await database.db.introspection.getTables();
              expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([database.schema]));
              expect(tables.map((t) => t.name)).toContain('consent_records');
            } finally {
              await database.close();
            }
          }
        } finally {
          stop.now = true;
          expect(Math.min(...(await Promise.all(churning)))).toBeGreaterThan(0);
        }
      }, 60_000);
    }
  });
}
