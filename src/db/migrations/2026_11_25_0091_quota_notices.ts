import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // One row per client, month and threshold reached: its primary key makes each notice (and the "quota
  // reached" log line) happen once across all processes.
  await db.schema
    .createTable('quota_notices')
    .addColumn('client_id', 'varchar(16)', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addColumn('quota', 'integer', (c) => c.notNull())
    .addColumn('email_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('email_error', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_notices_pk', ['client_id', 'month', 'threshold'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quota_notices').execute();
}
