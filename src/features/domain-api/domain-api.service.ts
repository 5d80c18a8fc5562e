import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { firstUcidInRange, pageNewestFirst, prefixRange, recordsOfUcid } from '../consent-log/consent-log.repository.js';
import { quarantineFilter } from '../consent-log/consent-log.quarantine.js';
import { PAGE_ROWS, yieldToEventLoop } from '../consent-log/consent-log.service.js';
import type { DomainApiAuth } from './domain-api.auth.js';
import { findOwnDomainBlock, listDomainsWithViews } from './domain-api.repository.js';
import { checkpointAt } from '../consent-log/consent-log.checkpoints.repository.js';
import { checkpointToDto, signCheckpoint, type CheckpointDto } from '../consent-log/consent-log.checkpoints.js';
import type { ConsentRecord } from '../consent-log/consent-log.record.js';
import { findOwnSnapshot, snapshotsByHash } from '../consent-log/consent-log.snapshots.repository.js';
import { findHead } from '../consent-log/consent-log.repository.js';
import { shownOf, type ShownDecision } from './domain-api.shown.js';

export async function listDomains(deps: Deps, clientId: string) {
  const rows = await listDomainsWithViews(deps.db, clientId);
  return rows.map((r) => ({ id: r.id, name: r.name, whiteLabel: r.whitelabel, viewCount: r.views }));
}

/** The current block's position; 404 for a domain that is not the client's. */
async function currentBlock(deps: Deps, clientId: string, domainId: string) {
  const own = await findOwnDomainBlock(deps.db, clientId, domainId);
  if (!own) throw new AppError('DOMAIN_NOT_FOUND');
  return own.block;
}

export const encodeCursor = (seq: number) => Buffer.from(String(seq)).toString('base64url');

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!/^\d{1,15}$/.test(text)) {
    throw new AppError('VALIDATION_FAILED', [{ field: 'query.cursor', message: 'is not a cursor from a Link header' }]);
  }
  return Number(text);
}

export type ConsentList =
  | { kind: 'page'; body: string; next: string | undefined }
  | { kind: 'stream'; chunks: AsyncIterable<string> };

/**
 * The current block, newest first (by chain position). Records are stored as their JSON text and joined
 * here, never parsed. With `limit`: one page plus the cursor of the next. Without: the whole block as a
 * stream, read in keyset pages so it never sits in memory.
 */
export async function listConsents(
  deps: Deps,
  clientId: string,
  domainId: string,
  options: { limit?: number | undefined; cursor?: string | undefined; quarantined?: 'exclude' | 'include' | undefined },
): Promise<ConsentList> {
  const block = await currentBlock(deps, clientId, domainId);
  const fromSeq = block?.firstSeq ?? 1;
  const top = (block?.lastSeq ?? 0) + 1;
  const below = options.cursor === undefined ? top : Math.min(decodeCursor(options.cursor), top);
  // Records of ranges the agency set aside are left out unless asked for (consent-log.quarantine.ts).
  const hidden = options.quarantined === 'include' ? undefined : await quarantineFilter(deps, domainId);
  const shown = (rows: { seq: number; record: string }[]) => (hidden ? rows.filter((r) => !hidden(r.seq)) : rows);
  if (options.limit !== undefined) {
    // A page can come out shorter than the limit where a range is left out; the cursor still moves on.
    const rows = await pageNewestFirst(deps.db, domainId, fromSeq, below, options.limit + 1);
    const page = rows.slice(0, options.limit);
    const next = rows.length > options.limit ? encodeCursor(page[page.length - 1]!.seq) : undefined;
    return { kind: 'page', body: `[${shown(page).map((r) => r.record).join(',')}]`, next };
  }
  return { kind: 'stream', chunks: streamArray(deps, domainId, fromSeq, below, shown) };
}

async function* streamArray(
  deps: Deps,
  domainId: string,
  fromSeq: number,
  below: number,
  shown: (rows: { seq: number; record: string }[]) => { seq: number; record: string }[],
): AsyncIterable<string> {
  let separator = '';
  yield '[';
  while (below > fromSeq) {
    const rows = await pageNewestFirst(deps.db, domainId, fromSeq, below, PAGE_ROWS);
    if (rows.length === 0) break;
    const kept = shown(rows);
    if (kept.length > 0) {
      yield separator + kept.map((r) => r.record).join(',');
      separator = ',';
    }
    below = rows[rows.length - 1]!.seq;
    await yieldToEventLoop();
  }
  yield ']';
}

/** History rows read in the first query; a longer history is read in full by a second one. */
const PREFIX_READ = 50;

/**
 * Every record of the current block whose ucid starts with `consentId`, newest first; `[]` when none does
 * or when more than one distinct ucid does. One range scan on the ucid index reads the matches in ucid
 * order plus one row: a second ucid in the result means a collision.
 */
export async function findConsents(
  deps: Deps,
  auth: Promise<DomainApiAuth>,
  keyHash: string,
  domainId: string,
  consentId: string,
  quarantined: 'exclude' | 'include' = 'exclude',
): Promise<string> {
  const low = consentId.toLowerCase();
  // 'g' sorts after every hex digit, so [low, low + 'g') holds exactly the ucids that start with low.
  const high = `${low}g`;
  // The first read is scoped by the key itself, so it need not wait for the key check (deferAuth). The
  // quarantined ranges are read beside it; they are only used once the key has been checked.
  const [{ client }, rows, hidden] = await Promise.all([
    auth,
    prefixRange(deps.db, { keyHash }, domainId, low, high, PREFIX_READ + 1),
    quarantined === 'include' ? undefined : quarantineFilter(deps, domainId),
  ]);
  const clientId = client.id;
  if (rows.length === 0) {
    await currentBlock(deps, clientId, domainId); // 404 unless it is the client's domain
    return '[]';
  }
  if (rows.some((r) => r.ucid !== rows[0]!.ucid)) return '[]';
  const ucid = rows[0]!.ucid;
  const shown = (list: { seq: number; record: string }[]) => (hidden ? list.filter((r) => !hidden(r.seq)) : list);
  if (rows.length <= PREFIX_READ) return `[${shown(rows).map((r) => r.record).reverse().join(',')}]`;
  // A history longer than one read: is there another ucid after it, and what is the whole history?
  const block = (await currentBlock(deps, clientId, domainId))!;
  if ((await firstUcidInRange(deps.db, domainId, block.blockNo, low, high, ucid)) !== undefined) return '[]';
  return `[${shown(await recordsOfUcid(deps.db, domainId, block.blockNo, ucid)).map((r) => r.record).join(',')}]`;
}

/** A snapshot of one of the client's domains, as its canonical JSON text inside `config`. */
export async function getSnapshot(deps: Deps, clientId: string, domainId: string, hash: string): Promise<string> {
  const snapshot = await findOwnSnapshot(deps.db, { clientId }, domainId, hash);
  if (!snapshot) {
    await currentBlock(deps, clientId, domainId); // 404 DOMAIN_NOT_FOUND for a domain that is not the client's
    throw new AppError('SNAPSHOT_NOT_FOUND');
  }
  return `{"hash":"${snapshot.hash}","domainId":${JSON.stringify(domainId)},"createdAt":${snapshot.createdAt},"config":${snapshot.config}}`;
}

/**
 * What one visitor saw: each decision of the ucid (as the prefix lookup finds it, newest first) with the
 * texts, purposes and embeddings of the snapshot it names, in the record's language.
 */
export async function shownToVisitor(deps: Deps, auth: DomainApiAuth, keyHash: string, domainId: string, consentId: string): Promise<ShownDecision[]> {
  const records = JSON.parse(await findConsents(deps, Promise.resolve(auth), keyHash, domainId, consentId)) as ConsentRecord[];
  const hashes = [...new Set(records.flatMap((r) => (r.snapshot ? [r.snapshot] : [])))];
  const snapshots = new Map((await snapshotsByHash(deps.db, domainId, hashes)).map((s) => [s.hash, s]));
  return records.map((r) => shownOf(r, r.snapshot ? snapshots.get(r.snapshot) : undefined));
}

/** A signed checkpoint of the domain's chain head now: the stored one, or signed on this request. */
export async function currentCheckpoint(deps: Deps, clientId: string, domainId: string): Promise<CheckpointDto> {
  await currentBlock(deps, clientId, domainId);
  const head = await findHead(deps.db, domainId);
  if (!head || head.lastSeq === 0) throw new AppError('CONSENT_LOG_NO_RECORDS');
  const stored =
    (await checkpointAt(deps.db, domainId, head.lastSeq)) ??
    (await signCheckpoint(deps, deps.db, { domainId, seq: head.lastSeq, headHash: head.headHash }));
  return checkpointToDto(deps, stored);
}
