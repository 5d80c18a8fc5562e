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

/** The banner's legal links may only ever be http(s) URLs of a sane length (they become <a href>). */
const usableUrl = (url: string | null) => (url !== null && url.length <= 2000 && /^https?:\/\/\S+$/i.test(url) ? url : null);

/** Remembers the legal pages a scan found (the latest scan wins; applied links stay as they are). */
export async function recordFoundLegalLinks(
  db: Executor,
  domainId: string,
  found: { imprintUrl: string | null; privacyPolicyUrl: string | null },
  now: string,
): Promise<void> {
  const values = {
    found_imprint_url: usableUrl(found.imprintUrl),
    found_privacy_policy_url: usableUrl(found.privacyPolicyUrl),
    found_at: now,
  };
  await db
    .insertInto('onboarding_legal_links')
    .values({ domain_id: domainId, ...values, imprint_url: null, privacy_policy_url: null, applied_at: null })
    .onConflict((oc) => oc.column('domain_id').doUpdateSet(values))
    .execute();
}

/**
 * Applies the found legal pages to the fields that are still empty. Runs inside a domain mutation (the
 * domain row is locked, so concurrent imports do not race). True when something changed.
 */
export async function applyFoundLegalLinks(db: Executor, domainId: string, now: string): Promise<boolean> {
  const row = await db.selectFrom('onboarding_legal_links').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
  if (!row) return false;
  const imprint = row.imprint_url ?? row.found_imprint_url;
  const privacy = row.privacy_policy_url ?? row.found_privacy_policy_url;
  if (imprint === row.imprint_url && privacy === row.privacy_policy_url) return false;
  await db
    .updateTable('onboarding_legal_links')
    .set({ imprint_url: imprint, privacy_policy_url: privacy, applied_at: now })
    .where('domain_id', '=', domainId)
    .execute();
  return true;
}

/** The legal links onboarding applied to a domain's banner, for the widget configuration. */
export async function appliedLegalLinks(db: Executor, domainId: string): Promise<{ imprintUrl: string; privacyPolicyUrl: string }> {
  const row = await db
    .selectFrom('onboarding_legal_links')
    .select(['imprint_url', 'privacy_policy_url'])
    .where('domain_id', '=', domainId)
    .executeTakeFirst();
  return { imprintUrl: row?.imprint_url ?? '', privacyPolicyUrl: row?.privacy_policy_url ?? '' };
}
