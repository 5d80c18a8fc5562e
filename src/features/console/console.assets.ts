import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../onboarding/preset-catalogue.js';

export const CONSOLE_DIST = () => path.join(projectRoot(), 'dist', 'console');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface ConsoleAssets {
  index: string;
  files: Map<string, { type: string; body: Buffer }>;
}

/** Shown at /console/ when the bundle has not been built (a checkout without `npm run build:console`). */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Placet console</title></head>
<body><main><h1>The console is not built</h1>
<p>Run <code>npm run build:console</code> (part of <code>npm run build</code>) and restart Placet.
The <a href="../docs">API documentation</a> works without it.</p></main></body></html>
`;

/** The built console (index.html and assets/*), read once at start: it is small and never changes while running. */
export function consoleAssets(dir = CONSOLE_DIST()): ConsoleAssets {
  const files = new Map<string, { type: string; body: Buffer }>();
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return { index: NOT_BUILT, files };
  const assetDir = path.join(dir, 'assets');
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[path.extname(name)];
    if (type) files.set(name, { type, body: readFileSync(path.join(assetDir, name)) });
  }
  return { index: readFileSync(index, 'utf8'), files };
}
