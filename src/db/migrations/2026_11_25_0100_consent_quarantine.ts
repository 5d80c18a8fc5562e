import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Ranges of a domain's chain that the agency set aside (a flood of forged records): kept beside the
  // chain, never in it, so records and hashes stay untouched (docs/consent-log.md, "Setting a flood aside").
  await db.schema
    .createTable('consent_quarantine')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('from_seq', 'bigint', (c) => c.notNull())
    .addColumn('to_seq', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('consent_quarantine_domain').on('consent_quarantine').columns(['domain_id', 'from_seq']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('consent_quarantine').execute();
}
