// Imports the Open Cookie Database CSV (https://github.com/jkwakman/Open-Cookie-Database, Apache-2.0)
// into Placet's preset catalogue. Our entries keep their ids and texts; imported platforms are added.
// Usage: npm run presets:import -- <open-cookie-database.csv> [--out <file>] [--catalogue <file>]
// Without --out, data/presets.json is rewritten. Nothing is written when the result breaks a catalogue rule.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkCatalogue } from '../src/features/onboarding/catalogue-rules.js';
import { readOcdRows } from '../src/features/onboarding/ocd-csv.js';
import { mergeCatalogues, ocdToPresets } from '../src/features/onboarding/ocd-import.js';
import { catalogueFile, type Preset } from '../src/features/onboarding/preset-catalogue.js';

function main(argv: string[]): number {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--out' || arg === '--catalogue') options[arg.slice(2)] = argv[++i] ?? '';
    else if (arg.startsWith('--')) return usage(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) return usage('give exactly one CSV file');
  const csvFile = path.resolve(positional[0]!);
  const sourceFile = path.resolve(options.catalogue || catalogueFile());
  const outFile = path.resolve(options.out || sourceFile);

  const { rows, skipped: skippedRows } = readOcdRows(readFileSync(csvFile, 'utf8'));
  const { presets, skipped: skippedAssets } = ocdToPresets(rows);
  const ours = JSON.parse(readFileSync(sourceFile, 'utf8')) as Preset[];
  const merged = mergeCatalogues(ours, presets);
  const report = checkCatalogue(merged.catalogue);
  console.log(`read ${rows.length} rows (${skippedRows.length} skipped) from ${csvFile}`);
  const reasons = new Map<string, number>();
  for (const note of [...skippedRows, ...skippedAssets, ...merged.skipped]) reasons.set(note.reason.replace(/".*"/, '"…"'), (reasons.get(note.reason.replace(/".*"/, '"…"')) ?? 0) + 1);
  for (const [reason, count] of reasons) console.log(`  skipped ${count}× ${reason}`);
  console.log(`${presets.length} imported presets, ${merged.added.length} added, ${merged.catalogue.length} in the catalogue`);
  if (report.problems.length > 0) {
    console.error(`not written: ${report.problems.length} problem(s)`);
    for (const p of report.problems.slice(0, 50)) console.error(`  - ${p}`);
    return 1;
  }
  writeFileSync(outFile, `${JSON.stringify(merged.catalogue, null, 2)}\n`);
  console.log(`wrote ${outFile}`);
  return 0;
}

function usage(problem: string): number {
  console.error(`${problem}\nusage: npm run presets:import -- <open-cookie-database.csv> [--out <file>] [--catalogue <file>]`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
