/** A quota threshold a client reached in a month (`YYYY-MM`, UTC). */
export interface QuotaNoticeTable {
  client_id: string;
  month: string;
  /** Percent of the quota; 100 = the quota itself. */
  threshold: number;
  /** Calls counted when the threshold was seen, and the quota then. */
  used: number;
  quota: number;
  /** `none` (no e-mail configured), `sent` or `failed`. */
  email_status: 'none' | 'sent' | 'failed';
  email_error: string | null;
  created_at: string;
}
