import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { randomIds, systemClock, type Deps } from '../deps.js';
import { importCcm19, type ImportReport, type ReportItem } from '../features/migration/ccm19-import.js';

/**
 * `npm run import:ccm19 -- <export.json> [--json]`: recreates the clients, domains, embeddings (with assets),
 * locales, themes and placeholders of an export in the established product's Hosting API shapes, keeping
 * client apiKeys and domain ids so sites keep their snippets. Safe to run again: what exists is skipped.
 * Exit code 0 when everything was created or skipped, 1 when something could not be mapped, 2 on bad usage.
 */
const args = process.argv.slice(2);
const json = args.includes('--json');
const files = args.filter((a) => a !== '--json');
if (files.length !== 1 || files[0]!.startsWith('--')) {
  process.stderr.write('usage: npm run import:ccm19 -- <export.json> [--json]\n');
  process.exit(2);
}
let data: unknown;
try {
  data = JSON.parse(readFileSync(files[0]!, 'utf8'));
} catch (err) {
  process.stderr.write(`cannot read ${files[0]}: ${(err as Error).message}\n`);
  process.exit(2);
}

const config = loadConfig();
const database = connect(config.database);
try {
  await migrateToLatest(database.db, database.schema);
  const log = Fastify({ logger: { level: 'warn' } }).log;
  const deps: Deps = { config, db: database.db, engine: database.engine, clock: systemClock, ids: randomIds, log };
  const report = await importCcm19(deps, data);
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : summary(report));
  process.exitCode = report.couldNotMap.length > 0 ? 1 : 0;
} catch (err) {
  process.stderr.write(`import stopped: ${(err as Error).message}\n(run it again once fixed: what was imported is skipped)\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}

function summary(report: ImportReport): string {
  const line = (item: ReportItem) => {
    const details = (item.details ?? []).map((d) => `${d.field ? `${d.field} ` : ''}${d.message}`).join('; ');
    return `  ${item.ref}${item.reason ? `: ${item.reason}` : ''}${details ? ` (${details})` : ''}\n`;
  };
  const count = (items: ReportItem[]) => {
    const byType = new Map<string, number>();
    for (const i of items) byType.set(i.type, (byType.get(i.type) ?? 0) + 1);
    return [...byType].map(([t, n]) => `${n} ${t}${n === 1 ? '' : 's'}`).join(', ') || 'nothing';
  };
  return [
    `Created: ${count(report.created)}\n`,
    `Skipped (already there): ${count(report.skipped)}\n`,
    `Could not map: ${count(report.couldNotMap)}\n`,
    ...report.couldNotMap.map(line),
  ].join('');
}
