import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Booleans are stored as 0/1 integers so one schema serves SQLite and PostgreSQL. */
export interface ClientTable {
  id: string;
  username: string;
  /** Lower-cased username; unique, so `Alice` and `alice` cannot both exist. */
  username_key: string;
  password_hash: string;
  active: number;
  first_name: string;
  last_name: string;
  company: string;
  email_address: string;
  domain_max_count: number;
  whitelabel_max_count: number;
  widget_display_max_count: number;
  auto_create_domains: number;
  /** JSON object of the 13 feature flags. */
  features: string;
  /** Public account key (48 hex); appears in every embed snippet, so it is not a secret. */
  api_key: string;
  /** SHA-256 (hex) of the secret Domain API key; null until one is created. */
  domain_api_key_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface CallCountTable {
  domain_id: string;
  /** `YYYY-MM` in UTC: counters reset monthly by starting a new row. */
  month: string;
  count: Generated<number>;
}

export type ClientRow = Selectable<ClientTable>;
export type NewClientRow = Insertable<ClientTable>;
export type ClientRowUpdate = Updateable<ClientTable>;
