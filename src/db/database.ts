import type { Kysely, Transaction } from 'kysely';
import type { CallCountTable, ClientTable } from '../features/clients/clients.table.js';
import type { DomainTable } from '../features/domains/domains.table.js';
import type { SettingTable } from '../features/hosting-auth/hosting-auth.table.js';

/** The whole schema, assembled from the features' table files. */
export interface Database {
  settings: SettingTable;
  clients: ClientTable;
  domains: DomainTable;
  call_counts: CallCountTable;
}

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** Repository functions take either the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
