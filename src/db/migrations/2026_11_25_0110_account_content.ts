import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Account-wide themes and standard texts (issue #19 point 5, docs/account.md): the agency's, not a
  // client's, so they hang off no client; a theme's distribution names the domains it is used on.
  await db.schema
    .createTable('account_themes')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('all_domains', 'integer', (c) => c.notNull())
    .addColumn('domain_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('account_texts')
    .addColumn('language', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('texts', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_texts').execute();
  await db.schema.dropTable('account_themes').execute();
}
