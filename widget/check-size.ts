import { WIDGET_BUDGET_BROTLI, buildWidget, sizes } from './build.js';

/**
 * `npm run build` fails here when the widget code (JS + CSS, without a domain's configuration) grows
 * past its brotli budget. To raise it, change WIDGET_BUDGET_BROTLI in widget/build.ts, and say why.
 */
const code = await buildWidget();
const s = sizes(code.replace('__PLACET_CFG__', '{}'));
process.stdout.write(`widget: ${s.raw} B raw, ${s.gzip} B gzip, ${s.brotli} B brotli (budget ${WIDGET_BUDGET_BROTLI} B brotli)\n`);
if (s.brotli > WIDGET_BUDGET_BROTLI) {
  process.stderr.write(`widget is ${s.brotli - WIDGET_BUDGET_BROTLI} B over its brotli budget (WIDGET_BUDGET_BROTLI in widget/build.ts)\n`);
  process.exit(1);
}
