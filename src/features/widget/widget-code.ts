import { buildWidget, CONFIG_TOKEN } from '../../../widget/build.js';
import type { WidgetConfig } from '../../../widget/src/types.js';

const code = new Map<string, Promise<string>>();

/**
 * The widget bundles, each built once per process: the base, and the variant with the cross-domain hand-over
 * (`crossDomain`, docs/widget.md), each also with the TCF bridge (`tcf`, docs/tcf.md) and with strict blocking
 * (`strict`, docs/widget.md "Strict mode"), and with the options most domains leave off (`opt`, usesOptions below).
 * The served widget and the console's theme preview share them.
 */
export const widgetCode = (crossDomain = false, tcf = false, strict = false, opt = false): Promise<string> => {
  const key = `${crossDomain}${tcf}${strict}${opt}`;
  let built = code.get(key);
  if (!built) code.set(key, (built = buildWidget(crossDomain, tcf, strict, opt)));
  return built;
};

/** A bundle with its configuration in place: V8 parses `JSON.parse` of a string literal much faster than an equally large object literal. */
export const withConfig = (bundle: string, config: unknown): string =>
  bundle.replace(CONFIG_TOKEN, () => `JSON.parse(${JSON.stringify(JSON.stringify(config))})`);

/**
 * Whether a configuration needs the options variant (`opt`): one of the settings most domains leave off is on, whose
 * code is in that variant only (docs/widget.md, "Size and speed"): evalInlineScripts, deleteUnknownCookies,
 * appendConsentSwitchToIframes, a legal text shown inside the widget (display mode `direct`), the theme's check-all
 * buttons, own logo and settings icon image, enableOnlyInEu for a visitor from outside the area (per request), and an
 * embedding's excludeFromUrls (or its include mode) or hideIframesUntilConsent.
 */
export const usesOptions = (c: Pick<WidgetConfig, 'ev' | 'du' | 'cs' | 'lg' | 'oe' | 'em'> & { th: Pick<WidgetConfig['th'], 'checkAll' | 'logo' | 'iconImage'> }): boolean =>
  !!(c.ev || c.du || c.cs || c.oe || c.th.checkAll || c.th.logo || c.th.iconImage || c.lg.some((l) => l[1]) || c.em.some((e) => e.x.length > 0 || e.xm || e.hi));
