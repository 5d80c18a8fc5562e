import { WIDGET_BUDGET_BROTLI, WIDGET_STRICT_EXTRA_BROTLI, WIDGET_SX_BUDGET_BROTLI, buildWidget, sizes } from './build.js';

/**
 * `npm run build` fails here when the widget code (JS + CSS, without a domain's configuration) grows
 * past its brotli budget: the base widget (WIDGET_BUDGET_BROTLI) and the variant with the cross-domain
 * hand-over (WIDGET_SX_BUDGET_BROTLI), both in widget/build.ts. To raise one, change it there, and say why.
 */
let over = false;
for (const [name, crossDomain, strict, budget] of [
  ['widget', false, false, WIDGET_BUDGET_BROTLI],
  ['widget (cross-domain hand-over)', true, false, WIDGET_SX_BUDGET_BROTLI],
  ['widget (strict blocking)', false, true, WIDGET_BUDGET_BROTLI + WIDGET_STRICT_EXTRA_BROTLI],
  ['widget (cross-domain hand-over, strict blocking)', true, true, WIDGET_SX_BUDGET_BROTLI + WIDGET_STRICT_EXTRA_BROTLI],
] as const) {
  const s = sizes((await buildWidget(crossDomain, false, strict)).replace('__PLACET_CFG__', '{}'));
  process.stdout.write(`${name}: ${s.raw} B raw, ${s.gzip} B gzip, ${s.brotli} B brotli (budget ${budget} B brotli)\n`);
  if (s.brotli > budget) {
    const constant = `${crossDomain ? 'WIDGET_SX_BUDGET_BROTLI' : 'WIDGET_BUDGET_BROTLI'}${strict ? ' + WIDGET_STRICT_EXTRA_BROTLI' : ''}`;
    process.stderr.write(`${name} is ${s.brotli - budget} B over its brotli budget (${constant} in widget/build.ts)\n`);
    over = true;
  }
}
if (over) process.exit(1);
