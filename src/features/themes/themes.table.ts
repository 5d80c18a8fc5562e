import type { Selectable } from 'kysely';

export interface ThemeTable {
  id: string;
  domain_id: string;
  name: string;
  /** 1 for the domain's default theme; a partial unique index allows one per domain. */
  is_default: number;
  /** JSON of every other Theme field. */
  data: string;
  created_at: string;
  updated_at: string;
}
export type ThemeRow = Selectable<ThemeTable>;
