import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { randomIds } from '../deps.js';
import { rotateHostingKey } from '../features/hosting-auth/hosting-auth.service.js';

/**
 * `npm run hosting-key:rotate`: replaces the generated Hosting API key; the old one stops working at once
 * in every running process. With HOSTING_API_KEY set, the environment decides and nothing is rotated.
 */
const config = loadConfig();
if (config.hostingApiKey !== undefined) {
  process.stderr.write('HOSTING_API_KEY is set, so it is the key: change the variable and restart instead.\n');
  process.exit(1);
}
const database = connect(config.database);
try {
  await migrateToLatest(database.db);
  const key = await rotateHostingKey(database.db, randomIds);
  process.stdout.write(`New Hosting API key (the old one no longer works):\n${key}\n`);
} finally {
  await database.close();
}
