import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Console sign-ins, server-side: the cookie holds a random token, the table only its SHA-256.
  await db.schema
    .createTable('console_sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(16)', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_client_idx').on('console_sessions').column('client_id').execute();
  // Failed sign-ins per key (`user:<name>` or `ip:<address>`) in the current window: shared by all processes.
  await db.schema
    .createTable('console_login_failures')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_login_failures').execute();
  await db.schema.dropTable('console_sessions').execute();
}
