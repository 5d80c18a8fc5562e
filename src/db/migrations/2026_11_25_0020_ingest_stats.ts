import type { Kysely } from 'kysely';

/**
 * Hourly counters per domain of widget loads, stored consents and refused consents (docs/consent-log.md,
 * "Floods"): the agency compares a domain's ingest rate with its widget-load rate. Deleted with the domain.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ingest_stats')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('loads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ingest_stats_pk', ['domain_id', 'hour'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ingest_stats').execute();
}
