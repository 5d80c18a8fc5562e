/** Hourly ingest counters of a domain (migration 2026_11_25_0020). */
export interface IngestStatsTable {
  domain_id: string;
  /** Unix seconds of the hour's start (UTC). */
  hour: number;
  loads: number;
  consents: number;
  refused: number;
}
