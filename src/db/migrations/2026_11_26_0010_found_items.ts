import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // What the widget found on visitors' pages that no embedding declares (docs/found-items.md): one row per
  // (domain, kind, normalised key), so a report of a known item only moves `last_seen` and `seen_count`.
  await db.schema
    .createTable('found_items')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('key', 'varchar(320)', (c) => c.notNull())
    .addColumn('first_url', 'varchar(600)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('new'))
    .addColumn('seen_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('first_seen', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('found_items_key_uq', ['domain_id', 'kind', 'key'])
    .execute();
  await db.schema.createIndex('found_items_list_idx').on('found_items').columns(['domain_id', 'first_seen']).execute();

  // The server-side re-scan's schedule and lease per domain (times in Unix ms): a process scans a domain only
  // after taking its lease with a conditional update, so several processes on one database scan it once.
  await db.schema
    .createTable('found_scans')
    .addColumn('domain_id', 'varchar(16)', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('last_scan_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'varchar(32)')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('found_scans').execute();
  await db.schema.dropTable('found_items').execute();
}
