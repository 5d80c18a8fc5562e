import type { DecisionFacts } from '../statistics/consent-statistics.js';
import type { Config } from '../../config.js';
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
import { BUILTIN_LANGUAGES } from '../locales/builtin-texts.js';
import { languageOf } from '../locales/locale-texts.js';
import { insertSnapshotRefs, snapshotRefsOf } from '../consent-log/consent-log.snapshots.repository.js';

/** A validated decision, ready to be chained: `text` is its canonical JSON. */
export interface PreparedRecord {
  domainId: string;
  ucid: string;
  ts: number;
  text: string;
  /** The snapshot the record names (consent-log.snapshot.ts); null for a record of format 1. */
  snapshot: string | null;
  /** What the anonymous statistics count of it, once stored (statistics feature). */
  facts?: DecisionFacts;
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
export function prepareRecord(
  snapshot: DomainSnapshot | undefined,
  req: ConsentRequest,
  served: (domainId: string, hash: string) => boolean,
): Prepared {
  const { body } = req;
  // Unknown domain and wrong key read the same: the answer does not tell which one was wrong.
  if (!snapshot || snapshot.clientApiKey !== body.apiKey) {
    return invalid([{ field: 'body.domain', message: 'apiKey and domain do not name a domain of a client' }]);
  }
  const origin = originOf(snapshot, req.origin, req.referer);
  if (typeof origin !== 'object') return invalid([{ field: 'headers.origin', message: origin }]);
  if (!served(snapshot.domainId, body.snapshot)) {
    return invalid([{ field: 'body.snapshot', message: 'is not a configuration Placet served for this domain' }], origin.allowOrigin);
  }

  const accepted = acceptedOf(snapshot, body.lang, body.embeddings);
  const unknown = [...(Array.isArray(accepted) ? accepted : []), ...impossibilities(snapshot, body)];
  if (unknown.length > 0 || Array.isArray(accepted)) return invalid(unknown, origin.allowOrigin);
  const { purposes, embeddings } = accepted;

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
    snapshot: body.snapshot,
    ...(body.tcString === undefined ? {} : { tcString: body.tcString }),
    ...(body.acString === undefined ? {} : { acString: body.acString }),
    v: RECORD_FORMAT,
  };
  return {
    ok: true,
    record: {
      domainId: snapshot.domainId, ucid: body.ucid, ts: req.ts, text: canonicalRecordJson(record), snapshot: body.snapshot,
      facts: { domainId: snapshot.domainId, button: body.button, consent: body.consent, purposes, embeddings },
    },
    allowOrigin: origin.allowOrigin,
  };
}

/** The purposes and embeddings a decision accepted, with their names in the visitor's language. */
interface Accepted {
  readonly purposes: Readonly<Record<string, string>>;
  readonly embeddings: Readonly<Record<string, string>>;
}

/**
 * Accepted maps per snapshot, by language and embedding list: a site's visitors send a handful of distinct
 * decisions, and building the maps (and their canonical text, consent-log.record.ts) anew for each was a
 * measurable part of ingest. Derived from the snapshot alone, so they are exactly as current as it is (a
 * change of the domain's configuration replaces the snapshot, and these with it). Frozen: the record, its
 * canonical text and the statistics share them.
 */
const acceptedBySnapshot = new WeakMap<DomainSnapshot, Map<string, Accepted>>();
const MAX_ACCEPTED_PER_SNAPSHOT = 256;
/** Longer lists (rare; up to MAX_CONSENT_EMBEDDINGS) are resolved every time and not kept. */
const MAX_CACHED_EMBEDDINGS = 64;

function acceptedOf(snapshot: DomainSnapshot, lang: string, ids: readonly string[]): Accepted | ErrorDetail[] {
  if (ids.length > MAX_CACHED_EMBEDDINGS) return resolveAccepted(snapshot, lang, ids);
  let cache = acceptedBySnapshot.get(snapshot);
  if (!cache) acceptedBySnapshot.set(snapshot, (cache = new Map()));
  // A locale name holds no `|` (LOCALE_NAME_PATTERN), and the ids' JSON is unambiguous.
  const key = `${lang}|${JSON.stringify(ids)}`;
  const known = cache.get(key);
  if (known) return known;
  const accepted = resolveAccepted(snapshot, lang, ids);
  // Only valid lists are kept, so made-up ids cannot fill the map.
  if (!Array.isArray(accepted) && cache.size < MAX_ACCEPTED_PER_SNAPSHOT) cache.set(key, accepted);
  return accepted;
}

/**
 * Accepted purposes are the purposes of the accepted embeddings plus "technically necessary"; or the
 * unknown and inactive ids.
 */
function resolveAccepted(snapshot: DomainSnapshot, lang: string, ids: readonly string[]): Accepted | ErrorDetail[] {
  const unknown: ErrorDetail[] = [];
  const purposes: Record<string, string> = {};
  const embeddings: Record<string, string> = {};
  const purposeNames = snapshot.purposeNames(lang) as Record<string, string>;
  purposes[NECESSARY_PURPOSE] = purposeNames[NECESSARY_PURPOSE] ?? NECESSARY_PURPOSE;
  ids.forEach((id, i) => {
    const embedding = snapshot.embeddings.get(id);
    if (!embedding || !embedding.active) {
      unknown.push({ field: `body.embeddings.${i}`, message: `${embedding ? 'inactive' : 'unknown'} embedding "${id}"` });
      return;
    }
    embeddings[id] = embedding.translatedNames[lang] ?? embedding.name;
    purposes[embedding.purpose] = purposeNames[embedding.purpose] ?? embedding.purpose;
  });
  if (unknown.length > 0) return unknown;
  return { purposes: Object.freeze(purposes), embeddings: Object.freeze(embeddings) };
}

/**
 * What a widget Placet served could not have sent (docs/consent-log.md, "Records that can be true"): a
 * revision or legal revision the domain has not reached (earlier ones are fine: the page was loaded
 * before a change), a theme the domain does not have, a language that is neither an active locale of the
 * domain nor a built-in language, and `consent: false` beside an accepted embedding of a purpose other
 * than "technically necessary" (the widget sets `consent` exactly when it accepted such an embedding).
 */
function impossibilities(snapshot: DomainSnapshot, body: ConsentRequest['body']): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (body.revision > snapshot.revision) {
    problems.push({ field: 'body.revision', message: `the domain never had revision ${body.revision} (current: ${snapshot.revision})` });
  }
  if (body.legalRevision > snapshot.legalRevision) {
    problems.push({
      field: 'body.legalRevision',
      message: `the domain never had legal revision ${body.legalRevision} (current: ${snapshot.legalRevision})`,
    });
  }
  if (body.themeId !== undefined && !snapshot.themeIds.has(body.themeId)) {
    problems.push({ field: 'body.themeId', message: `unknown theme "${body.themeId}"` });
  }
  if (!snapshot.activeLocales.has(body.lang) && !(BUILTIN_LANGUAGES as readonly string[]).includes(languageOf(body.lang))) {
    problems.push({ field: 'body.lang', message: `"${body.lang}" is neither an active locale of the domain nor a built-in language` });
  }
  if (!body.consent && body.embeddings.some((id) => snapshot.embeddings.get(id)?.purpose !== NECESSARY_PURPOSE)) {
    problems.push({ field: 'body.consent', message: 'consent is false, but an embedding that needs consent is accepted' });
  }
  return problems;
}

/** Verdicts per Origin header kept with each domain snapshot (a site's beacons come from one or two origins). */
const originVerdicts = new WeakMap<DomainSnapshot, Map<string, ReturnType<typeof checkOrigin>>>();
const MAX_ORIGINS_PER_DOMAIN = 32;

/**
 * checkOrigin, remembered per snapshot for requests with an Origin header: parsing the header as a URL on
 * every beacon was a measurable part of ingest. A snapshot is replaced when the domain's configuration
 * (name, sharing domains) changes, and its verdicts with it. Referer-only requests (each page a different
 * value) are checked every time.
 */
function originOf(snapshot: DomainSnapshot, origin: string | undefined, referer: string | undefined): ReturnType<typeof checkOrigin> {
  if (origin === undefined) return checkOrigin(snapshot.name, snapshot.sharingDomains, origin, referer, snapshot.scheme);
  let verdicts = originVerdicts.get(snapshot);
  if (!verdicts) originVerdicts.set(snapshot, (verdicts = new Map()));
  let verdict = verdicts.get(origin);
  if (verdict === undefined) {
    verdict = checkOrigin(snapshot.name, snapshot.sharingDomains, origin, referer, snapshot.scheme);
    if (verdicts.size < MAX_ORIGINS_PER_DOMAIN) verdicts.set(origin, verdict);
  }
  return verdict;
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
  scheme?: string,
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
  if (scheme !== undefined && url.protocol !== `${scheme}:`) return `must be the domain's origin (the domain is configured for ${scheme})`;
  return { allowOrigin: origin === undefined ? undefined : url.origin };
}

/** When a block closes by itself: `blockSize` records, and open for at least `minAgeSeconds` (config.ts). */
export interface BlockRule {
  blockSize: number;
  minAgeSeconds: number;
}

export const blockRuleOf = (config: Config): BlockRule => ({
  blockSize: config.consentLog.blockSize,
  minAgeSeconds: (config.consentLog.blockMinAgeHours ?? 0) * 3600,
});

/**
 * Chains records onto their domains' heads, in order: each record's hash covers the hash before it, and a
 * block that holds `blockSize` records and has been open `minAgeSeconds` is closed and followed by an empty
 * one (so volume alone never closes a block: docs/consent-log.md, "Floods"). Pure: the caller writes the plan.
 */
export function planAppend(heads: ReadonlyMap<string, Head>, records: readonly PreparedRecord[], rule: BlockRule | number, now: number): AppendPlan {
  const { blockSize, minAgeSeconds } = typeof rule === 'number' ? { blockSize: rule, minAgeSeconds: 0 } : rule;
  // Working copies, changed in place: the batch is the hot path and the caller's heads stay untouched.
  const next = new Map<string, Head>();
  for (const [id, head] of heads) next.set(id, { ...head });
  const rows: NewRecordRow[] = [];
  const closedBlocks: NewBlockRow[] = [];
  const refs: { domain_id: string; block_no: number; snapshot: string }[] = [];
  for (const r of records) {
    let head = next.get(r.domainId);
    if (!head) throw new Error(`no chain head for domain ${r.domainId}`);
    const seq = head.lastSeq + 1;
    const hash = chainHash(head.headHash, r.text);
    rows.push({ domain_id: r.domainId, seq, block_no: head.blockNo, ucid: r.ucid, ts: r.ts, record: r.text, hash });
    if (r.snapshot !== null) refs.push({ domain_id: r.domainId, block_no: head.blockNo, snapshot: r.snapshot });
    head.lastSeq = seq;
    head.headHash = hash;
    head.blockCount += 1;
    head.blockFirstTs = head.blockFirstTs === null ? r.ts : Math.min(head.blockFirstTs, r.ts);
    head.blockLastTs = head.blockLastTs === null ? r.ts : Math.max(head.blockLastTs, r.ts);
    if (head.blockCount >= blockSize && now - head.blockOpenedAt >= minAgeSeconds) {
      const closed = closeBlock(head, 'size', now);
      closedBlocks.push(closed.block);
      head = { ...closed.next };
      next.set(r.domainId, head);
    }
  }
  return { rows, closedBlocks, heads: next, snapshotRefs: snapshotRefsOf(refs) };
}

/**
 * Appends records in one transaction that locks their domains' heads first: correct with any number of
 * writers on one database. Returns the new heads; `committed` gets the rows as stored, after the commit.
 */
export async function appendRecords(
  db: Db,
  engine: Engine,
  rule: BlockRule | number,
  records: readonly PreparedRecord[],
  now: number,
  committed?: (rows: readonly NewRecordRow[]) => void,
): Promise<Map<string, Head>> {
  const domainIds = [...new Set(records.map((r) => r.domainId))].sort();
  const sqlite = sqliteHandleOf(db);
  let rows: readonly NewRecordRow[] = [];
  const heads = sqlite
    ? await appendWithStatements(db, sqlite, domainIds, now, (current) => {
        const plan = planAppend(current, records, rule, now);
        rows = plan.rows;
        return plan;
      })
    : await writeTransaction(db, engine, async (trx) => {
        const plan = planAppend(await lockHeads(trx, engine, domainIds, now), records, rule, now);
        await insertRecords(trx, plan.rows);
        await insertSnapshotRefs(trx, plan.snapshotRefs);
        await insertClosedBlocks(trx, plan.closedBlocks);
        for (const head of plan.heads.values()) await saveHead(trx, head);
        rows = plan.rows;
        return plan.heads;
      });
  committed?.(rows);
  return heads;
}
