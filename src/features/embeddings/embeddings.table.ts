import type { Selectable } from 'kysely';

export interface EmbeddingTable {
  id: string;
  domain_id: string;
  name: string;
  active: number;
  purpose: string;
  /** JSON of every other Embedding field (validated by the API schema before it is stored). */
  data: string;
  created_at: string;
  updated_at: string;
}
export type EmbeddingRow = Selectable<EmbeddingTable>;
