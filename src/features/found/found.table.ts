import type { Generated, Selectable } from 'kysely';

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
