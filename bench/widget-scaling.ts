/**
 * `npm run bench:widget:scaling`: how the widget's cost grows with the page (issue #22). Runs the shared
 * widget harness's scaling measurement (`with-placet.sh --scaling`: builds and starts this checkout, three
 * pages of about 1,100, 10,700 and 63,600 elements, each loaded with and without the snippet, interleaved, in
 * Chromium at 4× CPU throttling) and checks its table against the targets of docs/widget.md ("Cost model"):
 * added script time on the medium and large page at most 1.2× and 1.5× the small page's, at most 3 added
 * layouts, load event delayed at most 50 ms more than on the small page. Exits 1 when a target is missed.
 *
 * The harness is not copied into the project: set BENCH_WIDGET_HARNESS to its folder, or keep it at
 * ../shared/bench-widget or ../../shared/bench-widget (from a worktree). BENCH_REPS (default 7) loads per page.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const harness = [process.env.BENCH_WIDGET_HARNESS, '../shared/bench-widget', '../../shared/bench-widget']
  .filter((p): p is string => !!p)
  .map((p) => path.resolve(root, p))
  .find((p) => fs.existsSync(path.join(p, 'with-placet.sh')));
if (!harness) {
  console.error('bench:widget:scaling: the widget harness (with-placet.sh) was not found; set BENCH_WIDGET_HARNESS');
  process.exit(2);
}
const reps = process.env.BENCH_REPS || '7';
const run = spawnSync(path.join(harness, 'with-placet.sh'), [root, '--scaling', '--reps', reps, '--throttle', '4'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(run.stdout);
if (run.status !== 0) process.exit(run.status ?? 1);

// | page | DOM nodes | scripts | iframes | task without | task with | Δ task | Δ script | Δ layout | Δ style | layouts without → with | style recalcs … | load without | load with |
const rows = new Map<string, { script: number; layouts: number; load: number }>();
for (const line of run.stdout.split('\n')) {
  const cells = line.split('|').map((c) => c.trim().replace(/\*/g, ''));
  if (!['small', 'medium', 'large'].includes(cells[1] ?? '')) continue;
  const [without, withWidget] = cells[11]!.split('→').map(Number);
  rows.set(cells[1]!, { script: Number(cells[8]), layouts: withWidget! - without!, load: Number(cells[14]) - Number(cells[13]) });
}
const small = rows.get('small');
const medium = rows.get('medium');
const large = rows.get('large');
if (!small || !medium || !large) {
  console.error('bench:widget:scaling: could not read the table');
  process.exit(1);
}
const checks: [string, number, number][] = [
  ['Δ script medium / small (≤ 1.2)', medium.script / small.script, 1.2],
  ['Δ script large / small (≤ 1.5)', large.script / small.script, 1.5],
  ...[...rows].map(([name, r]): [string, number, number] => [`layouts added, ${name} (≤ 3)`, r.layouts, 3]),
  ...[...rows].map(([name, r]): [string, number, number] => [`load delay, ${name} − small (≤ 50 ms)`, r.load - small.load, 50]),
];
console.log('\n| target | measured | limit | |\n|---|---:|---:|---|');
for (const [name, value, limit] of checks) console.log(`| ${name} | ${value.toFixed(2)} | ${limit} | ${value <= limit ? 'ok' : 'MISSED'} |`);
process.exit(checks.every(([, value, limit]) => value <= limit) ? 0 : 1);
