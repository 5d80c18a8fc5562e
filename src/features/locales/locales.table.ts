import type { Selectable } from 'kysely';

export interface LocaleTable {
  domain_id: string;
  name: string;
  active: number;
  /** JSON of the stored text fields, purposeNames and purposeDescriptions. */
  texts: string;
  created_at: string;
  updated_at: string;
}
export type LocaleRow = Selectable<LocaleTable>;
