import type { ColumnType, Generated, Selectable } from 'kysely';

export const FOUND_KINDS = ['script', 'iframe', 'cookie', 'localStorage', 'sessionStorage'] as const;
export type FoundKind = (typeof FOUND_KINDS)[number];

export const FOUND_STATES = ['new', 'ignored', 'adopted'] as const;
export type FoundState = (typeof FOUND_STATES)[number];

/** An item the widget saw on a visitor's page that no embedding declared (docs/found-items.md). */
export interface FoundItemTable {
  id: string;
  domain_id: string;
  kind: FoundKind;
  /** script/iframe: host + path, no query or fragment; cookie and storage kinds: the name */
  key: string;
  /** the page where it was first seen: origin + path, no query or fragment */
  first_url: string;
  state: Generated<FoundState>;
  seen_count: Generated<number>;
  first_seen: string;
  last_seen: string;
}

export type FoundItemRow = Selectable<FoundItemTable>;

/** A `bigint` column: pg returns int8 as a string, SQLite as a number; the repository normalises with `toInt`. */
type Int8 = ColumnType<number | string, number | undefined, number>;

/** The server-side re-scan of a domain: when it last ran, and who holds the lease (docs/found-items.md). */
export interface FoundScanTable {
  domain_id: string;
  last_scan_at: Int8;
  lease_until: Int8;
  lease_owner: string | null;
}
