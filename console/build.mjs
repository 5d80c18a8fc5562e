// Builds the console (Preact + TypeScript) into dist/console/ with esbuild: index.html and assets/.
// Usage: npm run build:console (plain Node: no tsx needed, so it runs in production builds too).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function buildConsole(outDir = path.join(here, '..', 'dist', 'console')) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  await build({
    entryPoints: [path.join(here, 'src', 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outfile: path.join(outDir, 'assets', 'console.js'),
    logLevel: 'warning',
  });
  writeFileSync(path.join(outDir, 'assets', 'console.css'), readFileSync(path.join(here, 'src', 'console.css')));
  writeFileSync(path.join(outDir, 'index.html'), readFileSync(path.join(here, 'index.html')));
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildConsole();
  console.log(`console built into ${path.relative(process.cwd(), out)}`);
}
