/** Anonymous consent statistics (migration 2026_11_25_0120): one count per domain, UTC day and metric. */
export interface ConsentStatisticsTable {
  domain_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** `calls`, `displays`, `acceptAll`, …, `purpose:<id>`, `embedding:<id>`, `browser:<family>`, `os:<family>`. */
  metric: string;
  count: number | bigint | string;
}
