import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import * as foundation from './migrations/2026_11_21_0001_foundation.js';
import * as domainContent from './migrations/2026_11_21_0002_domain_content.js';
import * as consentLog from './migrations/2026_11_21_0003_consent_log.js';
import * as onboarding from './migrations/2026_11_21_0004_onboarding.js';

/** The one ordered migration list for both engines; add new files here, never edit a landed one. */
const MIGRATIONS: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_domain_content': domainContent,
  '2026_11_21_0003_consent_log': consentLog,
  '2026_11_21_0004_onboarding': onboarding,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Brings the schema up to date. Safe to run from several processes: Kysely takes a migration lock. With a
 * non-default PostgreSQL schema the migration tables live in it too; otherwise Kysely would find another
 * schema's lock table and fail.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
