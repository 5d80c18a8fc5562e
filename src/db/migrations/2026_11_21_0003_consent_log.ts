import type { Kysely } from 'kysely';

/**
 * The consent log (docs/consent-log.md). Every table references its domain with ON DELETE CASCADE:
 * deleting a domain or its client deletes that domain's whole log, archived blocks included.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('consent_records')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('block_no', 'integer', (c) => c.notNull())
    .addColumn('ucid', 'varchar(64)', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('consent_records_pk', ['domain_id', 'seq'])
    .execute();
  // Prefix lookups are range scans on this index: ucid >= prefix AND ucid < prefix + 'g'. Hex digits sort
  // the same way under every collation, and seq at the end gives a ucid's history without a sort.
  await db.schema
    .createIndex('consent_records_ucid_idx')
    .on('consent_records')
    .columns(['domain_id', 'block_no', 'ucid', 'seq'])
    .execute();

  await db.schema
    .createTable('consent_log_heads')
    .addColumn('domain_id', 'varchar(16)', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('block_no', 'integer', (c) => c.notNull())
    .addColumn('block_first_seq', 'bigint', (c) => c.notNull())
    .addColumn('block_count', 'integer', (c) => c.notNull())
    .addColumn('block_first_ts', 'bigint')
    .addColumn('block_last_ts', 'bigint')
    .addColumn('block_prev_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('block_opened_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('head_hash', 'varchar(64)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('consent_log_blocks')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('block_no', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('record_count', 'integer', (c) => c.notNull())
    .addColumn('first_ts', 'bigint')
    .addColumn('last_ts', 'bigint')
    .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('head_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint', (c) => c.notNull())
    .addColumn('expired_at', 'bigint')
    .addPrimaryKeyConstraint('consent_log_blocks_pk', ['domain_id', 'block_no'])
    .execute();
  await db.schema.createIndex('consent_log_blocks_expiry_idx').on('consent_log_blocks').columns(['state', 'last_ts']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['consent_log_blocks', 'consent_log_heads', 'consent_records']) {
    await db.schema.dropTable(table).execute();
  }
}
