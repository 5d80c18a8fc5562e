import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Links an embedding to the onboarding source it came from (a preset id, or the "unrecognised" bucket).
  await db.schema
    .createTable('onboarding_embeddings')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('source_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('embedding_id', 'varchar(16)', (c) => c.notNull().references('embeddings.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('onboarding_embeddings_pk', ['domain_id', 'source_key'])
    .execute();
  // PostgreSQL does not index foreign keys by itself; the cascade from embeddings needs this one.
  await db.schema
    .createIndex('onboarding_embeddings_embedding_idx')
    .on('onboarding_embeddings')
    .column('embedding_id')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onboarding_embeddings').execute();
}
