import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';

/** `npm run migrate`: brings the configured database (SQLite or PostgreSQL) up to date. */
const config = loadConfig();
const database = connect(config.database);
try {
  const applied = await migrateToLatest(database.db);
  process.stdout.write(applied.length > 0 ? `Applied: ${applied.join(', ')}\n` : 'Already up to date.\n');
} finally {
  await database.close();
}
