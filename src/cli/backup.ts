import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../config.js';

/**
 * `npm run backup -- <file>`: a consistent copy of the SQLite database through SQLite's online backup API,
 * taken while Placet keeps running (readers and the writer are not stopped). The copy is one self-contained
 * file (no -wal) readable by its owner only. PostgreSQL is backed up with pg_dump (README "Backup and restore").
 */
const target = process.argv[2];
if (target === undefined) {
  process.stderr.write('Usage: npm run backup -- <backup file>\n');
  process.exit(2);
}
const config = loadConfig();
if (config.database.kind !== 'sqlite' || config.database.file === ':memory:') {
  process.stderr.write('DATABASE_URL is PostgreSQL: back it up with pg_dump (README "Backup and restore").\n');
  process.exit(1);
}
if (!fs.existsSync(config.database.file)) {
  process.stderr.write(`No database at ${config.database.file}.\n`);
  process.exit(1);
}
const out = path.resolve(target);
if (fs.existsSync(out)) {
  process.stderr.write(`${out} exists; choose a new file name.\n`);
  process.exit(1);
}
const source = new SQLite(config.database.file, { readonly: true, fileMustExist: true });
try {
  const umask = process.umask(0o077);
  try {
    await source.backup(out);
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(out, 0o600);
  // The copy is in WAL mode like its source; make it a single file that can be moved as it is.
  const copy = new SQLite(out);
  copy.pragma('journal_mode = DELETE');
  copy.close();
  process.stdout.write(`Backed up ${config.database.file} to ${out}\n`);
} finally {
  source.close();
}
