import type { Executor } from '../../db/database.js';
import type { OnboardingEmbeddingRow } from './onboarding.table.js';

export const presetSourceKey = (presetId: number) => `preset:${presetId}`;
export const UNRECOGNISED_SOURCE_KEY = 'unrecognised';

/** Source key → embedding id for the domain's onboarding-created embeddings that still exist. */
export async function onboardingLinks(db: Executor, domainId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('onboarding_embeddings')
    .select(['source_key', 'embedding_id'])
    .where('domain_id', '=', domainId)
    .execute();
  return new Map(rows.map((r) => [r.source_key, r.embedding_id]));
}

export async function insertOnboardingLink(db: Executor, row: OnboardingEmbeddingRow): Promise<void> {
  await db.insertInto('onboarding_embeddings').values(row).execute();
}
