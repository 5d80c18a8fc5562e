import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // One HTTPS endpoint of a domain that receives its consent decisions (docs/webhooks.md).
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(16)', (c) => c.notNull())
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('secret', 'varchar(128)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // Last consent_records.seq of the domain already copied into the outbox.
    .addColumn('cursor_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_domain_idx').on('webhooks').columns(['domain_id', 'client_id']).execute();

  // The durable outbox: one row per (webhook, event); `event_id` is the idempotency key the receiver sees.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('webhook_id', 'varchar(16)', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('lease_owner', 'varchar(32)')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addUniqueConstraint('webhook_deliveries_event_uq', ['webhook_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_recent_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
