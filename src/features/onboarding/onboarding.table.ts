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

/**
 * The legal pages of a domain's website: `found_*` as the last scan found them, the others as onboarding's
 * import applied them to the banner (only ever into empty fields; a locale's own URL wins in the widget).
 */
export interface OnboardingLegalLinksTable {
  domain_id: string;
  found_imprint_url: string | null;
  found_privacy_policy_url: string | null;
  found_at: string | null;
  imprint_url: string | null;
  privacy_policy_url: string | null;
  applied_at: string | null;
}

/** Tables of the onboarding feature, merged into the Database interface. */
export interface OnboardingTables {
  onboarding_embeddings: OnboardingEmbeddingTable;
  onboarding_legal_links: OnboardingLegalLinksTable;
}
