import type { Selectable } from 'kysely';

/**
 * Which embedding of a domain onboarding created for a source: `preset:<id>` for a catalogue preset, or
 * `unrecognised` for the one embedding that collects unknown cookies. It makes a second import of the
 * same preset return the existing embedding; deleting the embedding deletes the link (cascade), so a
 * later import creates it afresh.
 */
export interface OnboardingEmbeddingTable {
  domain_id: string;
  source_key: string;
  embedding_id: string;
  created_at: string;
}
export type OnboardingEmbeddingRow = Selectable<OnboardingEmbeddingTable>;

/** Tables of the onboarding feature, merged into the Database interface. */
export interface OnboardingTables {
  onboarding_embeddings: OnboardingEmbeddingTable;
}
