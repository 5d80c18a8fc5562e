import type { Engine, Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';
import type { Insertable } from 'kysely';
import type { FoundItemRow, FoundItemTable, FoundKind, FoundState } from './found.table.js';

/** The domain a report names; with `lock`, PostgreSQL locks its row until the transaction ends. */
export async function lockReportDomain(db: Executor, engine: Engine, domainId: string, lock: boolean) {
  const query = db.selectFrom('domains').selectAll().where('id', '=', domainId);
  return (lock && engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export async function countDomainItems(db: Executor, domainId: string): Promise<number> {
  const row = await db.selectFrom('found_items').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', domainId).executeTakeFirst();
  return toInt(row?.n ?? 0);
}

/** The ids of the items among `keys` the domain already has. */
export async function findItemsByKeys(
  db: Executor,
  domainId: string,
  keys: readonly { kind: FoundKind; key: string }[],
): Promise<{ id: string; kind: FoundKind; key: string }[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('found_items')
    .select(['id', 'kind', 'key'])
    .where('domain_id', '=', domainId)
    .where('key', 'in', [...new Set(keys.map((k) => k.key))])
    .execute();
}

/** New items; one that a concurrent report inserted first is left alone (the unique key decides). */
export async function insertItems(db: Executor, rows: Insertable<FoundItemTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('found_items')
    .values(rows)
    .onConflict((oc) => oc.columns(['domain_id', 'kind', 'key']).doNothing())
    .execute();
}

/** Known items seen again: only the count and last-seen time move. */
export async function touchItems(db: Executor, domainId: string, ids: readonly string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('found_items')
    .set((eb) => ({ last_seen: now, seen_count: eb('seen_count', '+', 1) }))
    .where('domain_id', '=', domainId)
    .where('id', 'in', ids)
    .execute();
}

export interface ListFilter {
  kind?: FoundKind | undefined;
  state?: FoundState | undefined;
  limit: number;
  offset: number;
}

/** A page of the domain's items, newest first, scoped by client and domain in one query. */
export async function listScopedItems(db: Executor, clientId: string, domainId: string, filter: ListFilter) {
  let query = db
    .selectFrom('found_items')
    .innerJoin('domains', 'domains.id', 'found_items.domain_id')
    .where('domains.client_id', '=', clientId)
    .where('found_items.domain_id', '=', domainId);
  if (filter.kind) query = query.where('found_items.kind', '=', filter.kind);
  if (filter.state) query = query.where('found_items.state', '=', filter.state);
  const [rows, total] = await Promise.all([
    query
      .selectAll('found_items')
      .orderBy('found_items.first_seen', 'desc')
      .orderBy('found_items.id')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: toInt(total?.n ?? 0) };
}

export async function findScopedItem(db: Executor, clientId: string, domainId: string, itemId: string): Promise<FoundItemRow | undefined> {
  return db
    .selectFrom('found_items')
    .innerJoin('domains', 'domains.id', 'found_items.domain_id')
    .selectAll('found_items')
    .where('domains.client_id', '=', clientId)
    .where('found_items.domain_id', '=', domainId)
    .where('found_items.id', '=', itemId)
    .executeTakeFirst();
}

export async function updateItemState(db: Executor, domainId: string, itemId: string, state: FoundState): Promise<void> {
  await db.updateTable('found_items').set({ state }).where('domain_id', '=', domainId).where('id', '=', itemId).execute();
}

/** Script keys the agency ignored: under blockNewScripts they may run (docs/found-items.md). */
export async function ignoredScriptKeys(db: Executor, domainId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('found_items')
    .select('key')
    .where('domain_id', '=', domainId)
    .where('kind', '=', 'script')
    .where('state', '=', 'ignored')
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}

/**
 * Domains with permanentScanEnabled whose last re-scan is older than `cutoff` and whose lease is free, least
 * recently scanned first. The setting lives in the settings JSON; the LIKE narrows on both engines (settings are
 * written by JSON.stringify, without spaces) and the service checks the parsed value.
 */
export async function dueScanDomains(db: Executor, cutoff: number, now: number, limit: number) {
  return db
    .selectFrom('domains')
    .leftJoin('found_scans', 'found_scans.domain_id', 'domains.id')
    .selectAll('domains')
    .where('domains.settings', 'like', '%"permanentScanEnabled":true%')
    .where((eb) =>
      eb.or([
        eb('found_scans.domain_id', 'is', null),
        eb.and([eb('found_scans.last_scan_at', '<', cutoff), eb('found_scans.lease_until', '<', now)]),
      ]),
    )
    .orderBy('found_scans.last_scan_at')
    .orderBy('domains.id')
    .limit(limit)
    .execute();
}

/** Takes the domain's re-scan lease when it is due and free: true for exactly one of several processes. */
export async function claimScan(db: Executor, domainId: string, owner: string, now: number, leaseUntil: number, cutoff: number): Promise<boolean> {
  await db.insertInto('found_scans').values({ domain_id: domainId, last_scan_at: 0, lease_until: 0, lease_owner: null })
    .onConflict((oc) => oc.column('domain_id').doNothing()).execute();
  const result = await db
    .updateTable('found_scans')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('domain_id', '=', domainId)
    .where('lease_until', '<', now)
    .where('last_scan_at', '<', cutoff)
    .executeTakeFirst();
  return toInt(result.numUpdatedRows) === 1;
}

/** Ends a lease: the scan is done (or failed) now, so the domain is due again only after the interval. */
export async function finishScan(db: Executor, domainId: string, owner: string, now: number): Promise<void> {
  await db
    .updateTable('found_scans')
    .set({ last_scan_at: now, lease_until: 0, lease_owner: null })
    .where('domain_id', '=', domainId)
    .where('lease_owner', '=', owner)
    .execute();
}
