import type { Selectable } from 'kysely';

export interface ConsoleSessionTable {
  token_hash: string;
  role: 'agency' | 'client';
  client_id: string | null;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}
export type ConsoleSessionRow = Selectable<ConsoleSessionTable>;

export interface ConsoleLoginFailureTable {
  key: string;
  failures: number;
  window_start: string;
}

export interface ConsoleTables {
  console_sessions: ConsoleSessionTable;
  console_login_failures: ConsoleLoginFailureTable;
}
