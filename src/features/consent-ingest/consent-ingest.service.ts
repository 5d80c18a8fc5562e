import type { Db, Engine } from '../../db/database.js';
import { AppError, type ErrorDetail } from '../../errors.js';
import {
  closeBlock,
  insertClosedBlocks,
  lockHeads,
  saveHead,
  writeTransaction,
  type Head,
  type NewBlockRow,
} from '../consent-log/consent-log.blocks.repository.js';
import {
  canonicalRecordJson,
  chainHash,
  NECESSARY_PURPOSE,
  RECORD_FORMAT,
  type ConsentButton,
  type ConsentRecord,
} from '../consent-log/consent-log.record.js';
import type { DomainSnapshot } from './consent-ingest.lookups.js';
import { pageMatchesDomain } from '../domains/domain-name.js';
import { sqliteHandleOf } from '../../db/connect.js';
import { appendWithStatements, insertRecords, type AppendPlan, type NewRecordRow } from './consent-ingest.repository.js';
import type { ConsentInput } from './consent-ingest.schemas.js';

/** A validated decision, ready to be chained: `text` is its canonical JSON. */
export interface PreparedRecord {
  domainId: string;
  ucid: string;
  ts: number;
  text: string;
}

export interface ConsentRequest {
  /** As the widget sent it; the hand-over feature also submits `button: 'handover'` through this path. */
  body: Omit<ConsentInput, 'button'> & { button: ConsentButton };
  origin: string | undefined;
  referer: string | undefined;
  /** Unix seconds when the request arrived. */
  ts: number;
}

export type Prepared =
  | { ok: true; record: PreparedRecord; allowOrigin: string | undefined }
  | { ok: false; error: AppError; allowOrigin: string | undefined };

const invalid = (details: ErrorDetail[], allowOrigin?: string): Prepared => ({
  ok: false,
  error: new AppError('CONSENT_INVALID', details),
  allowOrigin,
});

/**
 * Checks a decision against its domain (key, origin, embeddings) and derives the record: accepted purposes
 * are the purposes of the accepted embeddings plus "technically necessary", with every name as the
 * visitor's language shows it now.
 */
export function prepareRecord(snapshot: DomainSnapshot | undefined, req: ConsentRequest): Prepared {
  const { body } = req;
  // Unknown domain and wrong key read the same: the answer does not tell which one was wrong.
  if (!snapshot || snapshot.clientApiKey !== body.apiKey) {
    return invalid([{ field: 'body.domain', message: 'apiKey and domain do not name a domain of a client' }]);
  }
  const origin = checkOrigin(snapshot.name, snapshot.sharingDomains, req.origin, req.referer);
  if (typeof origin !== 'object') return invalid([{ field: 'headers.origin', message: origin }]);

  const unknown: ErrorDetail[] = [];
  const purposes: Record<string, string> = {};
  const embeddings: Record<string, string> = {};
  const purposeNames = snapshot.purposeNames(body.lang) as Record<string, string>;
  purposes[NECESSARY_PURPOSE] = purposeNames[NECESSARY_PURPOSE] ?? NECESSARY_PURPOSE;
  body.embeddings.forEach((id, i) => {
    const embedding = snapshot.embeddings.get(id);
    if (!embedding) {
      unknown.push({ field: `body.embeddings.${i}`, message: `unknown embedding "${id}"` });
      return;
    }
    embeddings[id] = embedding.translatedNames[body.lang] ?? embedding.name;
    purposes[embedding.purpose] = purposeNames[embedding.purpose] ?? embedding.purpose;
  });
  if (unknown.length > 0) return invalid(unknown, origin.allowOrigin);

  const record: ConsentRecord = {
    consent: body.consent,
    ucid: body.ucid,
    timestamp: req.ts,
    purposes,
    embeddings,
    manipulationPrevention: body.manipulationPrevention,
    button: body.button,
    lang: body.lang,
    revision: body.revision,
    legalRevision: body.legalRevision,
    themeId: body.themeId ?? null,
    gpc: body.gpc ?? null,
    dnt: body.dnt ?? null,
    v: RECORD_FORMAT,
  };
  return {
    ok: true,
    record: { domainId: snapshot.domainId, ucid: body.ucid, ts: req.ts, text: canonicalRecordJson(record) },
    allowOrigin: origin.allowOrigin,
  };
}

/**
 * The page must be one the domain's configuration is served to (its name, or a host covered by its
 * consentSharingDomains). Origin is preferred; a same-origin request without it is judged by its Referer.
 * Returns what to reflect in Access-Control-Allow-Origin, or the problem.
 */
export function checkOrigin(
  domainName: string,
  sharingDomains: readonly string[],
  origin: string | undefined,
  referer: string | undefined,
): { allowOrigin: string | undefined } | string {
  const header = origin ?? referer;
  if (header === undefined || header === '') return 'an Origin or Referer header is required';
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    return "must be the domain's origin";
  }
  if (!pageMatchesDomain(url, domainName, sharingDomains)) return "must be the domain's origin";
  return { allowOrigin: origin === undefined ? undefined : url.origin };
}

/**
 * Chains records onto their domains' heads, in order: each record's hash covers the hash before it, and a
 * block that reaches `blockSize` is closed and followed by an empty one. Pure: the caller writes the plan.
 */
export function planAppend(heads: ReadonlyMap<string, Head>, records: readonly PreparedRecord[], blockSize: number, now: number): AppendPlan {
  // Working copies, changed in place: the batch is the hot path and the caller's heads stay untouched.
  const next = new Map<string, Head>();
  for (const [id, head] of heads) next.set(id, { ...head });
  const rows: NewRecordRow[] = [];
  const closedBlocks: NewBlockRow[] = [];
  for (const r of records) {
    let head = next.get(r.domainId);
    if (!head) throw new Error(`no chain head for domain ${r.domainId}`);
    const seq = head.lastSeq + 1;
    const hash = chainHash(head.headHash, r.text);
    rows.push({ domain_id: r.domainId, seq, block_no: head.blockNo, ucid: r.ucid, ts: r.ts, record: r.text, hash });
    head.lastSeq = seq;
    head.headHash = hash;
    head.blockCount += 1;
    head.blockFirstTs = head.blockFirstTs === null ? r.ts : Math.min(head.blockFirstTs, r.ts);
    head.blockLastTs = head.blockLastTs === null ? r.ts : Math.max(head.blockLastTs, r.ts);
    if (head.blockCount >= blockSize) {
      const closed = closeBlock(head, 'size', now);
      closedBlocks.push(closed.block);
      head = { ...closed.next };
      next.set(r.domainId, head);
    }
  }
  return { rows, closedBlocks, heads: next };
}

/**
 * Appends records in one transaction that locks their domains' heads first: correct with any number of
 * writers on one database. Returns the new heads.
 */
export async function appendRecords(
  db: Db,
  engine: Engine,
  blockSize: number,
  records: readonly PreparedRecord[],
  now: number,
): Promise<Map<string, Head>> {
  const domainIds = [...new Set(records.map((r) => r.domainId))].sort();
  const sqlite = sqliteHandleOf(db);
  if (sqlite) return appendWithStatements(db, sqlite, domainIds, now, (heads) => planAppend(heads, records, blockSize, now));
  return writeTransaction(db, engine, async (trx) => {
    const plan = planAppend(await lockHeads(trx, engine, domainIds, now), records, blockSize, now);
    await insertRecords(trx, plan.rows);
    await insertClosedBlocks(trx, plan.closedBlocks);
    for (const head of plan.heads.values()) await saveHead(trx, head);
    return plan.heads;
  });
}
