/**
 * What the server puts before the widget on a tcfEnabled domain, after the IAB's __tcfapi stub: it starts
 * the fetch of the domain's GVL (before the widget's hooks exist, so the widget never blocks it) and handles
 * the URL macros with the stored TC string until the chunk takes over (macros.ts).
 */
import { macros, type MacroConfig } from './macros.js';

declare const __PLACET_TCF__: MacroConfig & { g: string };

const P = __PLACET_TCF__;
// The TCF chunk comes inlined after the widget; the domain's full GVL (the vendor layer and the TC string
// need it, the first layer does not) is fetched now, while the widget and the chunk start. In the browser's
// first language; the chunk fetches again only when the widget picks another language.
const lang = (navigator.language || 'en').slice(0, 2).toLowerCase();
(window as unknown as Record<symbol, unknown>)[Symbol.for('placet.tcf.gvl')] = [lang, fetch(`${P.g}?lang=${lang}`).then((r) => r.json())];
const cookie = (name: string) => document.cookie.split('; ').find((x) => x.startsWith(`${name}=`))?.slice(name.length + 1) ?? '';
macros(P, cookie('euconsent-v2'), cookie('addtl_consent'));
(window as unknown as Record<symbol, unknown>)[Symbol.for('placet.tcf.macros')] = (tc: string, ac: string) => macros(P, tc, ac);
