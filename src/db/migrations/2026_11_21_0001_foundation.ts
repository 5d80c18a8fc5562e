import type { Kysely } from 'kysely';

// Portable schema builder only: the same migration runs on SQLite and PostgreSQL.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(200)', (c) => c.notNull())
    .addColumn('username_key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('company', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('email_address', 'varchar(320)', (c) => c.notNull())
    .addColumn('domain_max_count', 'integer', (c) => c.notNull())
    .addColumn('whitelabel_max_count', 'integer', (c) => c.notNull())
    .addColumn('widget_display_max_count', 'integer', (c) => c.notNull())
    .addColumn('auto_create_domains', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('api_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('domain_api_key_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('clients_email_idx').on('clients').column('email_address').execute();

  await db.schema
    .createTable('domains')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(16)', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('name', 'varchar(300)', (c) => c.notNull())
    .addColumn('path', 'varchar(500)', (c) => c.notNull())
    .addColumn('scheme', 'varchar(8)', (c) => c.notNull())
    .addColumn('whitelabel', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('config_revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('legal_revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('domains_client_name_path_uq', ['client_id', 'name', 'path'])
    .execute();

  await db.schema
    .createTable('call_counts')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('call_counts_pk', ['domain_id', 'month'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['call_counts', 'domains', 'clients', 'settings']) {
    await db.schema.dropTable(table).execute();
  }
}
