import { randomBytes } from 'node:crypto';
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
    }
  });
}
