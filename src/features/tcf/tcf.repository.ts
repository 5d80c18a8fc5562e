import type { Db, Executor } from '../../db/database.js';

export async function listGvlFiles(db: Executor): Promise<{ name: string; version: number; body: string; fetched_at: string }[]> {
  return db.selectFrom('tcf_gvl_files').selectAll().execute();
}

/** Stores a fetched file unless a newer version of it is already stored (another process was quicker). */
export async function saveGvlFile(db: Executor, name: string, version: number, body: string, fetchedAt: string): Promise<void> {
  await db
    .insertInto('tcf_gvl_files')
    .values({ name, version, body, fetched_at: fetchedAt })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ version, body, fetched_at: fetchedAt }).where('tcf_gvl_files.version', '<=', version),
    )
    .execute();
}

/** Records the vendor ids of a GVL version; ids already known keep the version they first appeared in. */
export async function recordVendorsSeen(db: Executor, ids: readonly number[], version: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500).map((id) => ({ id, first_seen_version: version }));
    await db.insertInto('tcf_gvl_vendors').values(chunk).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
}

export async function vendorsFirstSeenAfter(db: Db, version: number): Promise<number[]> {
  const rows = await db.selectFrom('tcf_gvl_vendors').select('id').where('first_seen_version', '>', version).execute();
  return rows.map((r) => Number(r.id));
}

/** The domain's baseline GVL version, set to `current` the first time it is asked for. */
export async function domainBaseline(db: Db, domainId: string, current: number): Promise<number> {
  await db
    .insertInto('tcf_domain_baselines')
    .values({ domain_id: domainId, gvl_version: current })
    .onConflict((oc) => oc.column('domain_id').doNothing())
    .execute();
  const row = await db.selectFrom('tcf_domain_baselines').select('gvl_version').where('domain_id', '=', domainId).executeTakeFirstOrThrow();
  return Number(row.gvl_version);
}

/** A domain by id, for the public GVL route (domain ids are public: they are in the embed snippet). */
export async function findDomainRowById(db: Db, domainId: string) {
  return db.selectFrom('domains').selectAll().where('id', '=', domainId).executeTakeFirst();
}

/** The stored list's version: a cheap look whether another process fetched a newer one. */
export async function storedGvlVersion(db: Db): Promise<number | undefined> {
  const row = await db.selectFrom('tcf_gvl_files').select('version').where('name', '=', 'vendor-list').executeTakeFirst();
  return row ? Number(row.version) : undefined;
}
