import type { ConsoleTables } from '../features/console/console.table.js';
import type { Kysely, Transaction as KyselyTransaction } from 'kysely';
import type { CallCountTable, ClientTable } from '../features/clients/clients.table.js';
import type { DomainTable } from '../features/domains/domains.table.js';
import type { SettingTable } from '../features/hosting-auth/hosting-auth.table.js';
import type { EmbeddingTable } from '../features/embeddings/embeddings.table.js';
import type { AssetTable } from '../features/assets/assets.table.js';
import type { PlaceholderTable } from '../features/placeholders/placeholders.table.js';
import type { LocaleTable } from '../features/locales/locales.table.js';
import type { ThemeTable } from '../features/themes/themes.table.js';
import type { ConsentLogTables } from '../features/consent-log/consent-log.table.js';
import type { IngestStatsTable } from '../features/consent-ingest/ingest-stats.table.js';
import type { OnboardingTables } from '../features/onboarding/onboarding.table.js';
import type { WebhookTables } from '../features/webhooks/webhooks.table.js';
import type { QuotaNoticeTable } from '../features/quotas/quotas.table.js';
import type { AccountTables } from '../features/account/account.table.js';
import type { ConsentStatisticsTable } from '../features/statistics/statistics.table.js';
import type { TcfTables } from '../features/tcf/tcf.table.js';
import type { HandoverTables } from '../features/consent-handover/consent-handover.table.js';
import type { VideoPreviewTable } from '../features/video-previews/video-previews.table.js';
import type { FoundItemTable, FoundScanTable } from '../features/found/found.table.js';

/** The whole schema, assembled from the features' table files. */
export interface Database extends ConsentLogTables, OnboardingTables, ConsoleTables, WebhookTables, AccountTables, TcfTables, HandoverTables {
  settings: SettingTable;
  clients: ClientTable;
  domains: DomainTable;
  call_counts: CallCountTable;
  embeddings: EmbeddingTable;
  assets: AssetTable;
  placeholders: PlaceholderTable;
  locales: LocaleTable;
  themes: ThemeTable;
  ingest_stats: IngestStatsTable;
  quota_notices: QuotaNoticeTable;
  consent_statistics: ConsentStatisticsTable;
  video_previews: VideoPreviewTable;
  found_items: FoundItemTable;
  found_scans: FoundScanTable;
}

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** Repository functions take either the database or an open transaction. */
export type Executor = Kysely<Database> | KyselyTransaction<Database>;
export type Transaction = KyselyTransaction<Database>;
