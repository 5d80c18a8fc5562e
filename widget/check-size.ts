import { WIDGET_BUDGET_BROTLI, WIDGET_OPT_EXTRA_BROTLI, WIDGET_STRICT_EXTRA_BROTLI, WIDGET_SX_BUDGET_BROTLI, buildWidget, sizes } from './build.js';

/**
 * `npm run build` fails here when the widget code (JS + CSS, without a domain's configuration) grows
 * past its brotli budget: the base widget (WIDGET_BUDGET_BROTLI), the variant with the cross-domain
 * hand-over (WIDGET_SX_BUDGET_BROTLI), and what strict blocking and the rarely used options may add to either,
 * all in widget/build.ts. To raise one, change it there, and say why.
 */
let over = false;
// Every combination the service serves (widget.service.ts), the TCF one aside (its own chunk and budget).
for (const [crossDomain, strict, opt] of [0, 1, 2, 3, 4, 5, 6, 7].map((n) => [!!(n & 1), !!(n & 2), !!(n & 4)] as const)) {
  const parts = [crossDomain && 'cross-domain hand-over', strict && 'strict blocking', opt && 'options'].filter(Boolean);
  const name = `widget${parts.length ? ` (${parts.join(', ')})` : ''}`;
  const budget = (crossDomain ? WIDGET_SX_BUDGET_BROTLI : WIDGET_BUDGET_BROTLI) + (strict ? WIDGET_STRICT_EXTRA_BROTLI : 0) + (opt ? WIDGET_OPT_EXTRA_BROTLI : 0);
  const s = sizes((await buildWidget(crossDomain, false, strict, opt)).replace('__PLACET_CFG__', '{}'));
  process.stdout.write(`${name}: ${s.raw} B raw, ${s.gzip} B gzip, ${s.brotli} B brotli (budget ${budget} B brotli)\n`);
  if (s.brotli > budget) {
    const constant = `${crossDomain ? 'WIDGET_SX_BUDGET_BROTLI' : 'WIDGET_BUDGET_BROTLI'}${strict ? ' + WIDGET_STRICT_EXTRA_BROTLI' : ''}${opt ? ' + WIDGET_OPT_EXTRA_BROTLI' : ''}`;
    process.stderr.write(`${name} is ${s.brotli - budget} B over its brotli budget (${constant} in widget/build.ts)\n`);
    over = true;
  }
}
if (over) process.exit(1);
