import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Database, Db, Engine } from './database.js';

export interface DatabaseHandle {
  readonly db: Db;
  readonly engine: Engine;
  /** PostgreSQL schema the handle works in, when not the default. */
  readonly schema?: string | undefined;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL schema to use as search_path (tests isolate each suite in its own schema). */
  readonly pgSchema?: string;
  readonly pgPoolSize?: number;
}

export function connect(config: DatabaseConfig, options: ConnectOptions = {}): DatabaseHandle {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const sqlite = new SQLite(config.file);
    // WAL lets readers run beside the writer; NORMAL is durable against process crashes (not power loss
    // before the next checkpoint), which is the trade-off STACK.md measured.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: options.pgPoolSize ?? 10,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', schema: options.pgSchema, close: () => db.destroy() };
}
