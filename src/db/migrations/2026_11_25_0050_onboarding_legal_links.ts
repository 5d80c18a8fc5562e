import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // The imprint and privacy-policy pages the last scan found, and the ones onboarding applied to the
  // banner (for every language whose locale has no URL of its own). One row per domain.
  await db.schema
    .createTable('onboarding_legal_links')
    .addColumn('domain_id', 'varchar(16)', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('found_imprint_url', 'text')
    .addColumn('found_privacy_policy_url', 'text')
    .addColumn('found_at', 'varchar(32)')
    .addColumn('imprint_url', 'text')
    .addColumn('privacy_policy_url', 'text')
    .addColumn('applied_at', 'varchar(32)')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onboarding_legal_links').execute();
}
