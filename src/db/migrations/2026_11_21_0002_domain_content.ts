import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('embeddings')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('embeddings_domain_idx').on('embeddings').columns(['domain_id', 'created_at']).execute();

  await db.schema
    .createTable('assets')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('embedding_id', 'varchar(16)', (c) => c.notNull().references('embeddings.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assets_embedding_idx').on('assets').columns(['embedding_id', 'position']).execute();

  await db.schema
    .createTable('placeholders')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('placeholders_pk', ['domain_id', 'name'])
    .execute();

  await db.schema
    .createTable('locales')
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('name', 'varchar(16)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('texts', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('locales_pk', ['domain_id', 'name'])
    .execute();

  await db.schema
    .createTable('themes')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('domain_id', 'varchar(16)', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('themes_domain_idx').on('themes').columns(['domain_id', 'created_at']).execute();
  // The database itself guarantees at most one default theme per domain (both engines support partial indexes).
  await db.schema
    .createIndex('themes_one_default_uq')
    .on('themes')
    .column('domain_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  // Domains created before this migration get their default theme now.
  const domains = await db.selectFrom('domains').select(['id']).execute();
  const now = new Date().toISOString();
  for (const d of domains as { id: string }[]) {
    await db
      .insertInto('themes')
      .values({
        id: randomBytes(4).toString('hex').slice(0, 7),
        domain_id: d.id,
        name: 'Standard',
        is_default: 1,
        data: '{}',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['themes', 'locales', 'placeholders', 'assets', 'embeddings']) {
    await db.schema.dropTable(table).execute();
  }
}
