import { Migrator, PostgresAdapter, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import * as foundation from './migrations/2026_11_21_0001_foundation.js';
import * as domainContent from './migrations/2026_11_21_0002_domain_content.js';
import * as consentLog from './migrations/2026_11_21_0003_consent_log.js';
import * as onboarding from './migrations/2026_11_21_0004_onboarding.js';
import * as sanitiseLocaleHtml from './migrations/2026_11_25_0040_sanitise_locale_html.js';
import * as onboardingLegalLinks from './migrations/2026_11_25_0050_onboarding_legal_links.js';
import * as consoleTables from './migrations/2026_11_25_0060_console.js';
import * as ingestStats from './migrations/2026_11_25_0020_ingest_stats.js';
import * as consentSnapshots from './migrations/2026_11_25_0010_consent_snapshots_checkpoints.js';
import * as webhooks from './migrations/2026_11_25_0090_webhooks.js';
import * as quotaNotices from './migrations/2026_11_25_0091_quota_notices.js';
import * as consentQuarantine from './migrations/2026_11_25_0100_consent_quarantine.js';
import * as accountContent from './migrations/2026_11_25_0110_account_content.js';
import * as consentStatistics from './migrations/2026_11_25_0120_consent_statistics.js';
import * as tcfGvl from './migrations/2026_11_25_0130_tcf_gvl.js';
import * as consentHandover from './migrations/2026_11_25_0140_consent_handover.js';
import * as foundItems from './migrations/2026_11_26_0010_found_items.js';
import * as videoPreviews from './migrations/2026_11_26_0020_video_previews.js';
import * as webhookBatches from './migrations/2026_11_26_0030_webhook_batches.js';

/** The one ordered migration list for both engines; add new files here, never edit a landed one. */
const MIGRATIONS: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_domain_content': domainContent,
  '2026_11_21_0003_consent_log': consentLog,
  '2026_11_21_0004_onboarding': onboarding,
  '2026_11_25_0040_sanitise_locale_html': sanitiseLocaleHtml,
  '2026_11_25_0050_onboarding_legal_links': onboardingLegalLinks,
  '2026_11_25_0060_console': consoleTables,
  '2026_11_25_0020_ingest_stats': ingestStats,
  '2026_11_25_0010_consent_snapshots_checkpoints': consentSnapshots,
  '2026_11_25_0090_webhooks': webhooks,
  '2026_11_25_0091_quota_notices': quotaNotices,
  '2026_11_25_0100_consent_quarantine': consentQuarantine,
  '2026_11_25_0110_account_content': accountContent,
  '2026_11_25_0120_consent_statistics': consentStatistics,
  '2026_11_25_0130_tcf_gvl': tcfGvl,
  '2026_11_25_0140_consent_handover': consentHandover,
  '2026_11_26_0010_found_items': foundItems,
  '2026_11_26_0020_video_previews': videoPreviews,
  '2026_11_26_0030_webhook_batches': webhookBatches,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Brings the schema up to date. Safe to run from several processes: Kysely takes a migration lock. On
 * PostgreSQL the migration tables live in the schema Placet works in (the one given, else the connection's
 * current schema, which a `search_path` in DATABASE_URL sets): without a schema Kysely looks for its lock
 * table in every schema, finds another application's (or another Placet's) and fails to start.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<string[]> {
  const tableSchema = schema ?? (await currentPostgresSchema(db));
  const migrator = new Migrator({ db, provider, ...(tableSchema ? { migrationTableSchema: tableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function currentPostgresSchema(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}
