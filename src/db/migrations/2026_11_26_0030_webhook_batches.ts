import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // A consent delivery now carries a run of consecutive records of the domain's chain (docs/webhooks.md,
  // "Delivery"): how many, and the first and last chain position, for the delivery list. Other event types
  // (webhook.test, quota.threshold) carry no consent record: 0 and null.
  await db.schema.alterTable('webhook_deliveries').addColumn('event_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('first_seq', 'bigint').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('last_seq', 'bigint').execute();
  // Rows queued before: one record each (their seq is in the payload; the delivery list shows the count only).
  await db.updateTable('webhook_deliveries').set({ event_count: 1 }).where('type', '=', 'consent.recorded').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('last_seq').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('first_seq').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('event_count').execute();
}
