import type { Kysely } from 'kysely';

/**
 * Cross-domain hand-over tokens (docs/widget.md, "Consent sharing between hosts"): one row per issued token,
 * kept until shortly after it expires. Only the token's SHA-256 is stored.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('handover_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('ucid', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_origin', 'varchar(300)', (c) => c.notNull())
    .addColumn('address_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('redeemed_at', 'bigint')
    .execute();
  // The per-ucid bound on live tokens, and the domain cascade (PostgreSQL does not index foreign keys).
  await db.schema.createIndex('handover_tokens_ucid_idx').on('handover_tokens').columns(['domain_id', 'ucid']).execute();
  // The per-address rate limit, which holds across processes because it counts rows.
  await db.schema
    .createIndex('handover_tokens_address_idx')
    .on('handover_tokens')
    .columns(['address_hash', 'issued_at'])
    .execute();
  await db.schema.createIndex('handover_tokens_expiry_idx').on('handover_tokens').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('handover_tokens').execute();
}
