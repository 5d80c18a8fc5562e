#!/usr/bin/env node
// Builds the server into dist/: every TypeScript file of src/ (tests excluded), the widget's build helpers and
// the one widget module the service imports (text-fields.ts), transpiled file by file with esbuild, the same
// layout as the sources (dist/src/server.js …).
//
// esbuild rather than tsc: esbuild is a runtime dependency anyway (it bundles the widget at start), so
// `npm ci --omit=dev` can build too, and it takes about a second instead of 15–80 s. Type-checking is
// `npm run typecheck` (tsc), which `npm test` and CI run.
//
//   node scripts/build.mjs             build
//   node scripts/build.mjs --if-stale  build only when a source is newer than the last build (npm start)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');
const stamp = path.join(outdir, '.build-stamp');

function sources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  if (fs.existsSync(path.join(root, 'src'))) walk(path.join(root, 'src'));
  // text-fields.ts: the order of a locale's texts, which the service serves and reads back (widget-config.ts,
  // domain-api.shown.ts) as the widget does.
  for (const file of ['widget/build.ts', 'widget/check-size.ts', 'widget/src/text-fields.ts']) {
    if (fs.existsSync(path.join(root, file))) files.push(path.join(root, file));
  }
  return files;
}

function isStale(files) {
  if (!fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  return files.some((file) => fs.statSync(file).mtimeMs > built) || fs.statSync(path.join(root, 'package.json')).mtimeMs > built;
}

const files = sources();
if (process.argv.includes('--if-stale') && !isStale(files)) process.exit(0);
if (files.length === 0) {
  console.error('build: no sources found under src/');
  process.exit(1);
}

const { build } = await import('esbuild');
const started = Date.now();
// Only what this script writes: dist/console is the console's build (npm run build:console).
for (const part of ['src', 'widget']) fs.rmSync(path.join(outdir, part), { recursive: true, force: true });
await build({
  entryPoints: files,
  outdir,
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
console.error(`build: ${files.length} files into dist/ in ${Date.now() - started} ms`);
