import { sha256Hex } from '../../deps.js';

/** The button (or API call) a widget reports for a decision: a closed list, so a record names what happened. */
export const CONSENT_BUTTONS = ['acceptAll', 'declineAll', 'save', 'acceptEmbedding', 'close', 'api'] as const;
/**
 * Every button a record can name: also `handover`, which only Placet writes, when a page of a sharing set
 * redeems a hand-over token (src/features/consent-handover); POST /public/consent refuses it.
 */
export const RECORD_BUTTONS = [...CONSENT_BUTTONS, 'handover'] as const;
export type ConsentButton = (typeof RECORD_BUTTONS)[number];

/** "Technically necessary": part of every record's purposes, whatever was accepted. */
export const NECESSARY_PURPOSE = '41ba25c';

/**
 * Version of the record format below; bump it (and keep verifying old versions) if a field is added.
 * 1: the original fields. 2: adds `snapshot`, the hash of what the visitor saw (consent-log.snapshot.ts).
 */
export const RECORD_FORMAT = 2;
export type RecordFormat = 1 | 2;

/**
 * One logged decision. The first six fields are the Domain API's ConsentRecord (reference-model §3.2); the
 * rest are proof fields. No IP address and no user agent: the log holds no personal data beyond the ucid.
 */
export interface ConsentRecord {
  consent: boolean;
  ucid: string;
  /** Unix seconds, from the server clock when the request arrived. */
  timestamp: number;
  /** Purpose id → name in the visitor's language at decision time. */
  purposes: Record<string, string>;
  /** Embedding id → name in the visitor's language at decision time. */
  embeddings: Record<string, string>;
  manipulationPrevention: boolean;
  button: ConsentButton;
  lang: string;
  /** Configuration and legal revision of the domain the visitor's widget showed. */
  revision: number;
  legalRevision: number;
  themeId: string | null;
  gpc: boolean | null;
  dnt: boolean | null;
  /** Format 2: SHA-256 of the snapshot of the configuration the visitor's widget showed. Absent in format 1. */
  snapshot?: string;
  /**
   * IAB TCF (docs/tcf.md): the TC string and Google AC string the decision produced, exactly as the widget
   * stored them. Present only in records of tcfEnabled domains, so every other record (and its hash) is
   * the same as before these fields existed.
   */
  tcString?: string;
  acString?: string;
  v: RecordFormat;
}

const str = JSON.stringify;

/**
 * Canonical texts of frozen maps, by identity: the ingest path hands the same frozen purpose and embedding
 * maps to every decision that accepted the same embeddings (consent-ingest.service.ts), and a frozen map's
 * text cannot change. Maps that are not frozen are rendered every time.
 */
const frozenMapTexts = new WeakMap<object, string>();

function canonicalMap(map: Readonly<Record<string, string>>): string {
  const known = frozenMapTexts.get(map);
  if (known !== undefined) return known;
  const keys = Object.keys(map).sort();
  const text = `{${keys.map((k) => `${str(k)}:${str(map[k])}`).join(',')}}`;
  if (Object.isFrozen(map)) frozenMapTexts.set(map, text);
  return text;
}

/**
 * The canonical form that is hashed and stored: keys in the fixed order of `ConsentRecord`, map keys sorted
 * by UTF-16 code unit, no whitespace, JSON.stringify escaping. Built by hand because JavaScript objects
 * put integer-like keys (an id such as "1234567") first whatever the insertion order.
 */
export function canonicalRecordJson(r: ConsentRecord): string {
  return (
    `{"consent":${r.consent},"ucid":${str(r.ucid)},"timestamp":${r.timestamp},` +
    `"purposes":${canonicalMap(r.purposes)},"embeddings":${canonicalMap(r.embeddings)},` +
    `"manipulationPrevention":${r.manipulationPrevention},"button":${str(r.button)},"lang":${str(r.lang)},` +
    `"revision":${r.revision},"legalRevision":${r.legalRevision},"themeId":${str(r.themeId)},` +
    `"gpc":${str(r.gpc)},"dnt":${str(r.dnt)},${r.v === 1 ? '' : `"snapshot":${str(r.snapshot)},`}` +
    `${r.tcString === undefined ? '' : `"tcString":${str(r.tcString)},`}${r.acString === undefined ? '' : `"acString":${str(r.acString)},`}` +
    `"v":${r.v}}`
  );
}

/** Each record's hash covers the previous hash, so changing, removing or reordering one breaks the chain. */
export function chainHash(prevHash: string, recordJson: string): string {
  return sha256Hex(prevHash + recordJson);
}

/** The "previous hash" of a domain's first record: binds the chain to its domain. */
export function genesisHash(domainId: string): string {
  return sha256Hex(`placet-consent-log:${domainId}`);
}

/** A snapshot key: SHA-256, 64 lowercase hex characters. */
export const SNAPSHOT_HASH = /^[0-9a-f]{64}$/;

const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
const isBoolOrNull = (v: unknown) => v === null || typeof v === 'boolean';

/** Parses a stored record; undefined unless it is a well-formed record in canonical form. */
export function parseCanonicalRecord(text: string): ConsentRecord | undefined {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const ok =
    typeof r.consent === 'boolean' &&
    typeof r.ucid === 'string' &&
    Number.isSafeInteger(r.timestamp) &&
    isStringMap(r.purposes) &&
    isStringMap(r.embeddings) &&
    typeof r.manipulationPrevention === 'boolean' &&
    RECORD_BUTTONS.includes(r.button as ConsentButton) &&
    typeof r.lang === 'string' &&
    Number.isSafeInteger(r.revision) &&
    Number.isSafeInteger(r.legalRevision) &&
    (r.themeId === null || typeof r.themeId === 'string') &&
    isBoolOrNull(r.gpc) &&
    isBoolOrNull(r.dnt) &&
    (r.v === 1 || (r.v === 2 && typeof r.snapshot === 'string' && SNAPSHOT_HASH.test(r.snapshot))) &&
    (r.tcString === undefined || typeof r.tcString === 'string') &&
    (r.acString === undefined || typeof r.acString === 'string');
  if (!ok) return undefined;
  const record = r as unknown as ConsentRecord;
  return canonicalRecordJson(record) === text ? record : undefined;
}
