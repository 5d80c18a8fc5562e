import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, version as esbuildVersion } from 'esbuild';
import { minify } from 'terser';
import { projectRoot } from '../src/paths.js';

/** The token the service replaces with the domain's configuration (JSON). */
export const CONFIG_TOKEN = '__PLACET_CFG__';

/** Size budget of the widget code (JS + CSS, without configuration), brotli bytes (issue #15: 8 KB). */
export const WIDGET_BUDGET_BROTLI = 8 * 1024;

/**
 * Size budget of the cross-domain variant (the same code plus the hand-over of widget/src/handover.ts),
 * served only to domains with consentSharingCrossDomain on, brotli bytes. Its own, larger budget: a
 * hand-over needs its two calls, the link and frame handling and the adoption of a handed-over decision,
 * and every other domain pays nothing for them (docs/widget.md, "Consent sharing between hosts"). The base
 * budget plus 1 KB for the hand-over: a fixed figure (8,960 until 2026-11-26) left the hand-over less room
 * each time the base widget grew within its own budget.
 */
export const WIDGET_SX_BUDGET_BROTLI = WIDGET_BUDGET_BROTLI + 1024;

/**
 * What strict blocking (`strictBlocking`, docs/widget.md "Strict mode") may add to either: its cookie and the
 * reload on consent, about 80 B brotli. Served only to domains with the setting since 2026-11-28, when the base
 * widget needed the room for stopping scripts printed before the snippet.
 */
export const WIDGET_STRICT_EXTRA_BROTLI = 128;

/**
 * What the settings most domains leave off may add to any variant (usesOptions in src/features/widget/widget-code.ts
 * lists them): evalInlineScripts (inline copies run through a global eval), deleteUnknownCookies (undeclared cookies
 * deleted, and the reload), appendConsentSwitchToIframes (the switch under a frame the visitor let load), since stop
 * 52 also a legal text shown inside the widget, the theme's check-all buttons, own logo and icon image, enableOnlyInEu's
 * implicit consent, excludeFromUrls and hideIframesUntilConsent: about 480 B brotli (brotli codes the same source a few
 * bytes apart in each variant). Served only to domains that use one since 2026-11-29, when the base widget needed the
 * room for `document.write` in the copies it runs after consent (scripts.ts, hook); 288 B since shadow roots are
 * observed (stop 51), 480 B since the settings above moved here to make room in the base widget for checking a frame's
 * address before a script sets it and before markup is inserted (stop 52, iframes.ts `hookFrames` and `inert`).
 */
export const WIDGET_OPT_EXTRA_BROTLI = 480;

// The TypeScript source ships with Placet; esbuild bundles it at start (about 20 ms), so the served code
// always matches the source.
const entry = path.join(projectRoot, 'widget', 'src', 'index.ts');

/**
 * Bundles the widget: IIFE, minified, zero runtime dependencies, debug code dropped. `crossDomain` builds
 * the variant for domains with consentSharingCrossDomain: `__PLACET_SX__` is a constant of the build, so
 * in the base widget every hand-over branch is dead code that esbuild drops, with the modules only it uses.
 * `tcf` (`__PLACET_WITH_TCF__`) likewise builds the variant served to tcfEnabled domains, with the bridge the TCF code draws its layers
 * through and the TC and AC strings in the record; every other domain carries none of it. `strict`
 * (`__PLACET_STRICT__`) builds the variant for strictBlocking domains, with strict.ts's cookie and reload, and `opt`
 * (`__PLACET_OPT__`) the one for domains with evalInlineScripts, deleteUnknownCookies or appendConsentSwitchToIframes on.
 */
export function buildWidget(crossDomain = false, tcf = false, strict = false, opt = false): Promise<string> {
  return cached(`widget-${+crossDomain}${+tcf}${+strict}${+opt}`, () => bundleWidget(crossDomain, tcf, strict, opt));
}

async function bundleWidget(crossDomain: boolean, tcf: boolean, strict: boolean, opt: boolean): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
    define: { __PLACET_CONFIG__: CONFIG_TOKEN, __PLACET_SX__: String(crossDomain), __PLACET_WITH_TCF__: String(tcf), __PLACET_STRICT__: String(strict), __PLACET_OPT__: String(opt) },
    drop: ['debugger'],
    mangleProps: /^_/,
    // V8's explicit compile hint: compile every function eagerly, off the main thread while the script
    // streams in, instead of lazily on first call inside the page's parser task. Nearly every function
    // runs on a first visit, and at 4× CPU throttling this took the script's own task from a median of
    // 25 ms to 17 ms (max 47 → 25 ms) in the widget benchmark.
    banner: { js: '//# allFunctionsCalledOnLoad' },
  });
  // A second pass with terser (safe options only: no `unsafe_*`, no `pure_getters`): esbuild bundles and drops the
  // variants' dead code, terser compresses further and names variables by how often they are used, which brotli
  // then codes shorter. Measured on 2026-11-28: base widget 8,252 → 8,078 B brotli, the room that let listeners for
  // events that have passed be called (scripts.ts, `late`) within the unchanged budget.
  const minified = await minify(result.outputFiles[0]!.text, {
    ecma: 2020,
    // hoist_funs: function declarations moved to the top of their scope, where the language puts them anyway (a safe
    // option, off by default because it often costs bytes): here 49 B of brotli less (2026-11-28), the room for the
    // observer of addresses set in place (scripts.ts, `seen`).
    compress: { ecma: 2020, passes: 2, hoist_funs: true, keep_fargs: false },
    mangle: true,
    format: { comments: /allFunctionsCalledOnLoad/ },
  });
  const code = minified.code!.trim();
  if (code.split(CONFIG_TOKEN).length !== 2) throw new Error('widget build must hold the configuration token once');
  return code;
}

export const cacheDir = path.join(projectRoot, 'node_modules', '.cache', 'placet-widget');
let hash: string | undefined;

/**
 * What the bundles are made of: every file of widget/src, this file, and the versions of esbuild and terser. Read
 * once per process (a few ms).
 */
export function sourceHash(): string {
  if (hash) return hash;
  const h = createHash('sha256').update(`${esbuildVersion} ${createRequire(import.meta.url)('terser/package.json').version}`);
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? files(p) : [p];
    });
  for (const f of [...files(path.join(projectRoot, 'widget', 'src')), fileURLToPath(import.meta.url)]) {
    h.update(`${path.relative(projectRoot, f)}\0`).update(fs.readFileSync(f)).update('\0');
  }
  return (hash = h.digest('hex').slice(0, 16));
}

/**
 * A bundle from the disk cache (node_modules/.cache/placet-widget), else built and kept there. Terser's pass takes
 * 0.2–1 s of the main thread per bundle; every start of Placet (and every test file's app) would pay it for each
 * bundle it serves. Keyed by the sources' hash, so an edited widget is never served stale (old files stay, about
 * 25 KB each, until the folder is deleted); a cache that cannot be written (a read-only install) only costs the build.
 */
export async function cached(name: string, make: () => Promise<string>): Promise<string> {
  const file = path.join(cacheDir, `${name}-${sourceHash()}.js`);
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch {
    // Not built yet.
  }
  const code = await make();
  try {
    await fs.promises.mkdir(cacheDir, { recursive: true });
    // Written aside and renamed: processes that start together never read half a file.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await fs.promises.writeFile(tmp, code);
    await fs.promises.rename(tmp, file);
  } catch {
    // Read-only: built each start.
  }
  return code;
}

export function sizes(code: string | Buffer): { raw: number; gzip: number; brotli: number } {
  const buf = Buffer.isBuffer(code) ? code : Buffer.from(code);
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const tcfEntry = path.join(projectRoot, 'widget', 'src', 'tcf', 'index.ts');

/**
 * The TCF chunk (docs/tcf.md): the first layer, the vendor layer and the `__tcfapi` CMP API, bundled with
 * the IAB's @iabtechlabtcf/core and /cmpapi. Loaded by the widget only on tcfEnabled domains.
 */
export function buildTcfChunk(entry: 'index' | 'prefix' | 'first' = 'index'): Promise<string> {
  return buildChunk(entry === 'index' ? tcfEntry : path.join(projectRoot, 'widget', 'src', 'tcf', `${entry}.ts`), { __PLACET_TCF__: TCF_TOKEN });
}

/** A script chunk beside the widget (TCF, found-items reporter): IIFE, minified, zero runtime dependencies. */
async function buildChunk(entry: string, define?: Record<string, string>): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
    drop: ['debugger'],
    ...(define ? { define } : {}),
  });
  return result.outputFiles[0]!.text.trim();
}

/** The token the service replaces with the prefix's settings (prefix.ts). */
export const TCF_TOKEN = '__PLACET_TCF__';

const foundEntry = path.join(projectRoot, 'widget', 'src', 'found', 'index.ts');

/**
 * The found-items reporter (docs/found-items.md): loaded, at most once per browser and day, only on domains
 * with recordScriptsOnWebsite or permanentScanEnabled, by a few lines the service puts before the widget.
 * The base widget carries none of it.
 */
export function buildFoundChunk(): Promise<string> {
  return buildChunk(foundEntry);
}
