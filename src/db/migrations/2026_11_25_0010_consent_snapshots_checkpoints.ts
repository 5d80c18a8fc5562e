import type { Kysely } from 'kysely';

/**
 * What the visitor saw (docs/consent-log.md, "Snapshots") and signed checkpoints of each domain's chain
 * ("Checkpoints"). Every table hangs off its domain with ON DELETE CASCADE, like the rest of the log.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // One row per distinct visible configuration of a domain, keyed by the SHA-256 of its canonical JSON.
  await db.schema
    .createTable('consent_snapshots')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('served_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('consent_snapshots_pk', ['domain_id', 'hash'])
    .execute();

  // Which snapshots the records of each block name. The foreign key to the snapshot makes deleting a
  // snapshot that a block still refers to fail on both engines.
  await db.schema
    .createTable('consent_log_block_snapshots')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('block_no', 'integer', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('consent_log_block_snapshots_pk', ['domain_id', 'block_no', 'hash'])
    .addForeignKeyConstraint('consent_log_block_snapshots_snapshot_fk', ['domain_id', 'hash'], 'consent_snapshots', ['domain_id', 'hash'])
    .execute();
  await db.schema
    .createIndex('consent_log_block_snapshots_hash_idx')
    .on('consent_log_block_snapshots')
    .columns(['domain_id', 'hash'])
    .execute();

  await db.schema
    .createTable('consent_log_checkpoints')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('head_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .addColumn('key_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('signature', 'varchar(128)', (c) => c.notNull())
    .addPrimaryKeyConstraint('consent_log_checkpoints_pk', ['domain_id', 'seq'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['consent_log_checkpoints', 'consent_log_block_snapshots', 'consent_snapshots']) {
    await db.schema.dropTable(table).execute();
  }
}
