import type { ColumnType, Generated, Selectable } from 'kysely';

/** A `bigint` column: pg returns int8 as a string, SQLite as a number; repositories normalise with `toInt`. */
type Int8 = ColumnType<number | string, number, number>;

/** An endpoint of a domain that receives its consent decisions. */
export interface WebhookTable {
  id: string;
  client_id: string;
  domain_id: string;
  url: string;
  /** `whsec_…` signing secret, stored as is because signing needs it (docs/webhooks.md, "The secret"). */
  secret: string;
  enabled: Generated<number>;
  /** Last consent_records.seq of the domain already copied into the outbox. */
  cursor_seq: ColumnType<number | string, number | undefined, number>;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The outbox: one row per (webhook, delivery); a consent delivery carries a run of records. Times are Unix milliseconds. */
export interface WebhookDeliveryTable {
  id: string;
  webhook_id: string;
  /** Idempotency key, sent as `webhook-id`: the same on every retry. */
  event_id: string;
  type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Int8;
  lease_until: Int8 | null;
  lease_owner: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Int8;
  delivered_at: Int8 | null;
  /** Consent records the delivery carries (0 for other event types). */
  event_count: Generated<number>;
  /** Chain positions of its first and last record (null for other event types). */
  first_seq: Int8 | null;
  last_seq: Int8 | null;
}

export interface WebhookTables {
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export type WebhookRow = Selectable<WebhookTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
