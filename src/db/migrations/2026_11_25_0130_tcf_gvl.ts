import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // The fetched Global Vendor List and its translations, one row per file name (`vendor-list`,
  // `purposes-de` …): every process serves the same version, and a restart without network still has one.
  await db.schema
    .createTable('tcf_gvl_files')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // The GVL version in which each vendor id first appeared: which vendors are "new since" a domain's
  // baseline (tcfEnableNewVendorsAfterGvlUpdate), since the GVL itself does not say when a vendor joined.
  await db.schema
    .createTable('tcf_gvl_vendors')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('first_seen_version', 'integer', (c) => c.notNull())
    .execute();
  // Per TCF domain: the GVL version its vendor selection was fixed at (the version current when TCF was
  // first served for it). Vendors that join later are offered only with tcfEnableNewVendorsAfterGvlUpdate.
  await db.schema
    .createTable('tcf_domain_baselines')
    .addColumn('domain_id', 'varchar(16)', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('gvl_version', 'integer', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tcf_domain_baselines').execute();
  await db.schema.dropTable('tcf_gvl_vendors').execute();
  await db.schema.dropTable('tcf_gvl_files').execute();
}
