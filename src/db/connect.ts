import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { BACKSTOP_PAGES, startCheckpointer } from './checkpointer.js';
import type { Database, Db, Engine } from './database.js';
import { PlacetPostgresDialect } from './postgres-introspector.js';

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

/** How often the checkpoint worker copies the WAL into the database file (checkpointer.ts). */
const CHECKPOINT_INTERVAL_MS = 100;

const rawSqlite = new WeakMap<Db, SQLite.Database>();
const rawPools = new WeakMap<Db, pg.Pool>();

/**
 * The driver handles behind a `Db`, for the one hot path that runs prepared statements directly (the
 * consent log's append, consent-ingest.repository.ts). Everything else goes through Kysely.
 */
export function sqliteHandleOf(db: Db): SQLite.Database | undefined {
  return rawSqlite.get(db);
}

export function pgPoolOf(db: Db): pg.Pool | undefined {
  return rawPools.get(db);
}

/** Distinct statements kept prepared per SQLite connection (Placet issues a few hundred). */
const STATEMENT_CACHE = 1000;

/**
 * The SQLite connection as Kysely sees it, with its statements kept prepared. Kysely's driver prepares each
 * statement anew on every execution, which cost a Domain API lookup (three statements with joins) more than
 * running them. A statement is kept per SQL text, so the text must not carry values (Kysely binds them as
 * parameters). One that is busy (an iterator still open) is never handed out twice: that call gets a fresh one.
 */
export function withPreparedStatements(sqlite: SQLite.Database, max = STATEMENT_CACHE): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (!cached) {
        // Oldest first out: a Map iterates in insertion order.
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Creates the database file readable by its owner only (0600; the folder 0700 when Placet creates it) before
 * SQLite opens it: SQLite gives its -wal and -shm files the database file's mode. An existing file that
 * others can read is narrowed to 0600 too.
 */
function createPrivateFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  for (const extra of [`${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(extra) && (fs.statSync(extra).mode & 0o077) !== 0) fs.chmodSync(extra, 0o600);
  }
}

export function connect(config: DatabaseConfig, options: ConnectOptions = {}): DatabaseHandle {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') createPrivateFile(config.file);
    const sqlite = new SQLite(config.file);
    // WAL lets readers run beside the writer; NORMAL is durable against process crashes (not power loss
    // before the next checkpoint), which is the trade-off STACK.md measured.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }) });
    rawSqlite.set(db, sqlite);
    if (config.file === ':memory:') return { db, engine: 'sqlite', close: () => db.destroy() };
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    const checkpointer = startCheckpointer(config.file, CHECKPOINT_INTERVAL_MS, (message) =>
      process.emitWarning(`SQLite checkpoint failed: ${message}`),
    );
    return {
      db,
      engine: 'sqlite',
      close: async () => {
        await checkpointer.stop();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: options.pgPoolSize ?? 10,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PlacetPostgresDialect({ pool }) });
  rawPools.set(db, pool);
  return { db, engine: 'postgres', schema: options.pgSchema, close: () => db.destroy() };
}
