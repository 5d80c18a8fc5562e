import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Anonymous consent statistics (issue #19 point 2, docs/statistics.md): counts per domain, day and metric,
  // nothing about a visitor. Several processes add their counts with atomic upserts.
  await db.schema
    .createTable('consent_statistics')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('metric', 'varchar(80)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('consent_statistics_pk', ['domain_id', 'day', 'metric'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('consent_statistics').execute();
}
