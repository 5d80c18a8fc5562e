import type { ColumnType, Selectable } from 'kysely';

type Int8 = ColumnType<number | string, number, number>;

/**
 * One issued hand-over token. `decision` is the JSON of the logged decision it carries
 * (`HandoverDecision` in consent-handover.service.ts); `redeemed_at` makes it single-use.
 */
export interface HandoverTokenTable {
  /** SHA-256 hex of the token: the token itself is never stored. */
  token_hash: string;
  domain_id: string;
  ucid: string;
  /**
   * The origin of the page the token may be redeemed on (scheme://host[:port]), or `*` for a token asked
   * for without a target (`CCM.crossDomainConsentString`): any page of the set.
   */
  target_origin: string;
  /** SHA-256 hex of the address that asked for it; rows live minutes, then are deleted. */
  address_hash: string;
  decision: string;
  /** Unix seconds. */
  issued_at: Int8;
  expires_at: Int8;
  redeemed_at: Int8 | null;
}

export interface HandoverTables {
  handover_tokens: HandoverTokenTable;
}

export type HandoverTokenRow = Selectable<HandoverTokenTable>;
