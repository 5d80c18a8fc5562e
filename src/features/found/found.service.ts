import { isoNow, type Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { pageMatchesDomain } from '../domains/domain-name.js';
import { mutateDomain, requireDomain } from '../domains/domain-scope.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import type { Domain } from '../domains/domains.schemas.js';
import type { DomainRow } from '../domains/domains.table.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';
import { getEmbedding, listEmbeddings, updateEmbedding } from '../embeddings/embeddings.service.js';
import { createAsset } from '../assets/assets.service.js';
import { checkOrigin } from '../consent-ingest/consent-ingest.service.js';
import { isDeclared, normaliseItem, pageWithoutQuery, type Declared } from './found.normalise.js';
import {
  countDomainItems,
  ignoredScriptKeys,
  findItemsByKeys,
  findScopedItem,
  insertItems,
  listScopedItems,
  lockReportDomain,
  touchItems,
  updateItemState,
  type ListFilter,
} from './found.repository.js';
import { FOUND_LIMITS, type FoundItem, type FoundReport } from './found.schemas.js';
import type { FoundItemRow, FoundKind } from './found.table.js';
import type { FoundSettings } from '../../../widget/src/found/types.js';

export function foundRowToItem(row: FoundItemRow): FoundItem {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    firstUrl: row.first_url,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    count: Number(row.seen_count),
    state: row.state,
  };
}

/** The kinds a domain collects: scripts and iframes with recordScriptsOnWebsite, names with permanentScanEnabled. */
export function collectedKinds(domain: Pick<Domain, 'recordScriptsOnWebsite' | 'permanentScanEnabled'>): Set<FoundKind> {
  const kinds = new Set<FoundKind>();
  if (domain.recordScriptsOnWebsite) kinds.add('script').add('iframe');
  if (domain.permanentScanEnabled) kinds.add('cookie').add('localStorage').add('sessionStorage');
  return kinds;
}

/** What the domain already declares, in the form both the server check and the reporter chunk use. */
export function declaredBy(domain: Domain, embeddings: readonly Embedding[]): Declared {
  const active = embeddings.filter((e) => e.active);
  const lower = (list: readonly string[]) => list.map((m) => m.toLowerCase()).filter((m) => m !== '');
  return {
    scriptMarkers: lower([...active.flatMap((e) => e.scriptMarkers), ...domain.allowedScriptMarkers, ...domain.blockedScriptMarkers]),
    iframeMarkers: lower([...active.flatMap((e) => e.iframeMarkers), ...domain.iframeMarkers]),
    assets: active.flatMap((e) => e.assets.map((a) => ({ name: a.name, storageType: a.storageType }))),
  };
}

export interface ReportOutcome {
  inserted: number;
  touched: number;
  dropped: number;
}

/** Records one widget report (the route checked its token and limits): origin and page, then recordItems. */
export async function recordReport(
  deps: Deps,
  report: FoundReport,
  headers: { origin?: string | undefined; referer?: string | undefined },
): Promise<ReportOutcome> {
  let page: URL;
  try {
    page = new URL(report.page);
  } catch {
    throw new AppError('VALIDATION_FAILED', [{ field: 'body.page', message: 'must be a URL' }]);
  }
  const row = await lockReportDomain(deps.db, deps.engine, report.domain, false);
  if (!row) throw new AppError('DOMAIN_NOT_FOUND');
  const domain = domainRowToDomain(row);
  // The same origin check as a consent (consent-ingest.service.ts), and the reported page must be the domain's.
  const origin = checkOrigin(row.name, domain.consentSharingDomains, headers.origin, headers.referer, row.scheme);
  if (typeof origin !== 'object') throw new AppError('FORBIDDEN_ORIGIN', [{ field: 'headers.origin', message: origin }]);
  if (!pageMatchesDomain(page, row.name, domain.consentSharingDomains)) {
    throw new AppError('VALIDATION_FAILED', [{ field: 'body.page', message: 'must be a page of the domain' }]);
  }
  const kinds = collectedKinds(domain);
  // A widget cached from before the setting was switched off may still report: nothing is stored.
  if (kinds.size === 0) return { inserted: 0, touched: 0, dropped: report.items.length };
  return recordItems(deps, row, kinds, report.items.map((i) => ({ kind: i.k, value: i.v })), page);
}

/**
 * Stores what a report or a server re-scan found on `page`: normalised, minus what the domain declares and the
 * kinds not collected. The writes run in one transaction on the domain's row (locked on PostgreSQL), so the
 * per-domain cap holds with several processes: known items only move their count and last-seen time, new ones
 * are added while the domain has room, the rest are dropped.
 */
export async function recordItems(
  deps: Deps,
  row: DomainRow,
  kinds: ReadonlySet<FoundKind>,
  items: readonly { kind: FoundKind; value: string }[],
  page: URL,
): Promise<ReportOutcome> {
  const placetOrigin = new URL(deps.config.publicUrl).origin;
  // The declared set first, outside the transaction: SQLite has one connection, and a read through another
  // feature's service inside the transaction would wait for the transaction itself.
  const declared = declaredBy(domainRowToDomain(row), await listEmbeddings(deps, row.client_id, row.id));
  return deps.db.transaction().execute(async (trx) => {
    // The domain's row lock (PostgreSQL) serialises writes of one domain, so the cap holds across processes.
    if (!(await lockReportDomain(trx, deps.engine, row.id, true))) throw new AppError('DOMAIN_NOT_FOUND');
    const wanted = new Map<string, { kind: FoundKind; key: string }>();
    for (const item of items) {
      if (!kinds.has(item.kind)) continue;
      const key = normaliseItem(item.kind, item.value, page, placetOrigin);
      if (key === undefined || isDeclared(item.kind, item.kind === 'script' || item.kind === 'iframe' ? item.value : key, declared)) continue;
      wanted.set(`${item.kind} ${key}`, { kind: item.kind, key });
    }
    const known = (await findItemsByKeys(trx, row.id, [...wanted.values()])).filter((k) => wanted.has(`${k.kind} ${k.key}`));
    const knownKeys = new Set(known.map((k) => `${k.kind} ${k.key}`));
    const fresh = [...wanted.entries()].filter(([k]) => !knownKeys.has(k)).map(([, v]) => v);
    const room = Math.max(0, FOUND_LIMITS.itemsPerDomain - (await countDomainItems(trx, row.id)));
    const now = isoNow(deps.clock);
    const firstUrl = pageWithoutQuery(page);
    const added = fresh.slice(0, room);
    await insertItems(
      trx,
      added.map((f) => ({ id: deps.ids.hex(8), domain_id: row.id, kind: f.kind, key: f.key, first_url: firstUrl, first_seen: now, last_seen: now })),
    );
    await touchItems(trx, row.id, known.map((k) => k.id), now);
    if (fresh.length > added.length) {
      deps.log.warn({ domainId: row.id, dropped: fresh.length - added.length }, 'found items: the domain holds its maximum; new items dropped');
    }
    return { inserted: added.length, touched: known.length, dropped: items.length - added.length - known.length };
  });
}

export async function listFound(deps: Deps, clientId: string, domainId: string, filter: ListFilter) {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  const { rows, total } = await listScopedItems(deps.db, clientId, domainId, filter);
  return { items: rows.map(foundRowToItem), total, limit: filter.limit, offset: filter.offset };
}

async function requireItem(deps: Deps, clientId: string, domainId: string, itemId: string): Promise<FoundItemRow> {
  const row = await findScopedItem(deps.db, clientId, domainId, itemId);
  if (!row) {
    await requireDomain(deps.db, deps.engine, clientId, domainId);
    throw new AppError('FOUND_ITEM_NOT_FOUND');
  }
  return row;
}

/**
 * Marks an item new or ignored. Through the domain's mutation (row lock, revision): an ignored script is
 * delivered to the widget (blockNewScripts lets it run), so changing a script's state changes the served
 * configuration and must raise the revision, or cached widgets would keep the old list.
 */
export async function setFoundState(deps: Deps, clientId: string, domainId: string, itemId: string, state: 'new' | 'ignored'): Promise<FoundItem> {
  return mutateDomain(deps, clientId, domainId, async (m) => {
    const row = await findScopedItem(m.trx, clientId, domainId, itemId);
    if (!row) throw new AppError('FOUND_ITEM_NOT_FOUND');
    if (row.state === state) return foundRowToItem(row);
    await updateItemState(m.trx, domainId, itemId, state);
    if (row.kind === 'script') m.changed('config');
    return foundRowToItem({ ...row, state });
  });
}

/** Markers an embedding holds at most (embeddings.schemas.ts, StringList(100, …)). */
const MAX_MARKERS = 100;

/**
 * Adopts an item into an embedding of the same domain, through the embeddings and assets services: a script
 * or iframe adds its host as a script or iframe marker, a cookie or storage key becomes an asset of that
 * storage type. Adopting twice adds nothing twice. The item is then `adopted`.
 */
export async function adoptFound(deps: Deps, clientId: string, domainId: string, itemId: string, embeddingId: string): Promise<FoundItem> {
  const row = await requireItem(deps, clientId, domainId, itemId);
  const embedding = await getEmbedding(deps, clientId, domainId, embeddingId);
  if (row.kind === 'script' || row.kind === 'iframe') {
    const host = row.key.split('/')[0]!.toLowerCase();
    const field = row.kind === 'script' ? 'scriptMarkers' : 'iframeMarkers';
    const markers = embedding[field];
    if (!markers.some((m) => m.toLowerCase() === host)) {
      if (markers.length >= MAX_MARKERS) {
        throw new AppError('RESOURCE_LIMIT_REACHED', [{ field, message: `an embedding has at most ${MAX_MARKERS} markers` }]);
      }
      await updateEmbedding(deps, clientId, domainId, embeddingId, { [field]: [...markers, host] });
    }
  } else if (!embedding.assets.some((a) => a.name === row.key && a.storageType === row.kind)) {
    await createAsset(deps, clientId, domainId, embeddingId, { name: row.key, storageType: row.kind });
  }
  await updateItemState(deps.db, domainId, itemId, 'adopted');
  return foundRowToItem({ ...row, state: 'adopted' });
}

/** Ignored third-party scripts of the domain, lower case, for the widget's blockNewScripts (docs/found-items.md). */
export async function ignoredScripts(deps: Deps, domainId: string): Promise<string[]> {
  return (await ignoredScriptKeys(deps.db, domainId)).map((k) => k.toLowerCase());
}

/**
 * The reporter's settings for one delivery, or undefined when the domain collects nothing. `served` is the
 * delivery's domain id, revision and widget token: a report carries the token as a consent does.
 */
export function foundSettings(
  deps: Deps,
  domain: Domain,
  embeddings: readonly Embedding[],
  served: { d: string; r: number; tk: string },
): FoundSettings | undefined {
  const kinds = collectedKinds(domain);
  if (kinds.size === 0) return undefined;
  const declared = declaredBy(domain, embeddings);
  const base = deps.config.publicUrl;
  return {
    js: `${base}/public/found.js`,
    u: `${base}/public/found`,
    ...served,
    w: FOUND_LIMITS.sampleHours * 3_600_000,
    n: FOUND_LIMITS.itemsPerReport,
    s: domain.recordScriptsOnWebsite,
    c: domain.permanentScanEnabled,
    sm: declared.scriptMarkers,
    fm: declared.iframeMarkers,
    a: declared.assets.map((a) => [a.name, a.storageType]),
    o: new URL(base).origin,
    t: deps.config.foundReportDelayMs,
  };
}
