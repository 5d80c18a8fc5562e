/**
 * What the server puts before the widget on a tcfEnabled domain, after the IAB's __tcfapi stub: it loads
 * the TCF chunk (inserted before the widget's hooks exist, so the widget never blocks it) and handles the
 * URL macros with the stored TC string until the chunk takes over (macros.ts).
 */
import { macros, type MacroConfig } from './macros.js';

declare const __PLACET_TCF__: MacroConfig & { js: string; g: string };

const P = __PLACET_TCF__;
const s = document.createElement('script');
s.src = P.js;
s.async = true;
(document.head || document.documentElement).append(s);
// The domain's GVL is fetched now, beside the chunk, not after it: the first layer needs both. In the
// browser's first language; the chunk fetches again only when the widget picks another language.
const lang = (navigator.language || 'en').slice(0, 2).toLowerCase();
(window as unknown as Record<symbol, unknown>)[Symbol.for('placet.tcf.gvl')] = [lang, fetch(`${P.g}?lang=${lang}`).then((r) => r.json())];
const cookie = (name: string) => document.cookie.split('; ').find((x) => x.startsWith(`${name}=`))?.slice(name.length + 1) ?? '';
macros(P, cookie('euconsent-v2'), cookie('addtl_consent'));
(window as unknown as Record<symbol, unknown>)[Symbol.for('placet.tcf.macros')] = (tc: string, ac: string) => macros(P, tc, ac);
