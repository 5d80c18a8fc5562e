import type { Selectable } from 'kysely';

export interface PlaceholderTable {
  domain_id: string;
  name: string;
  value: string;
  position: number;
}
export type PlaceholderRow = Selectable<PlaceholderTable>;
