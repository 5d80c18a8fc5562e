import type { Selectable } from 'kysely';

export interface AssetTable {
  id: string;
  embedding_id: string;
  /** Order within the embedding, as written. */
  position: number;
  name: string;
  /** JSON of dynamic, storageType, lifetime, description, translations. */
  data: string;
  created_at: string;
}
export type AssetRow = Selectable<AssetTable>;
