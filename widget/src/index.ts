/**
 * Placet consent widget: zero dependencies, configuration inlined by the service, esbuild merges the modules.
 * Order matters: blocking hooks are installed synchronously before anything else, because the snippet
 * runs first in <head> and every later script or iframe must pass through them.
 */
import { S, c, dnt, doc, em, gpc, implicit, nav, th, w } from './state.js';
import { afterPaint, decide, necessary, now, openStore, readAll, ucid, validDecision } from './storage.js';
import { pickLang, t } from './i18n.js';
import { decorateLinks, received, redeem } from './handover.js';
import { acceptedEvents, announce, api, consentDefault, dispatch, hashAction, hashLinks } from './api.js';
import { dropUnknown } from './cookies.js';
import { apply, hook, late } from './scripts.js';
import { build, dialog, DISMISSED, legalLinks, openLayer, render, show, views } from './ui/layers.js';
import { btn, h, toggle } from './ui/dom.js';
import { declaration } from './ui/declaration.js';
import { strict } from './strict.js';
import { T } from './text-fields.js';

/** Start-up, in this order: decision, hooks, Consent Mode default, UI, API; then the first apply and layer. */
function start(): void {
  S._store = openStore();
  S._stored = readAll()[c.p];
  // A hand-over token in the address (cross-domain variant only) is taken out of it before anything reads it.
  const token = __PLACET_SX__ && !c.bl && received();
  S.decided = validDecision(S._stored);
  // enableOnlyInEu for a visitor from outside the area (`oe`, per request): in the options variant only; never in
  // blocked mode (below).
  if (__PLACET_OPT__) S._implicit = !c.bl && !S.decided && c.oe && !gpc && !(dnt && th.dnt);
  S.acc = new Set<string>(S.decided ? [...S._stored!.embeddings, ...necessary] : implicit() ? em.map((e) => e.i) : necessary);
  if (c.bl) {
    // Fail closed: whatever was stored, everything that needs consent stays blocked and nobody is asked.
    S.decided = false;
    S.acc = new Set(necessary);
    console.warn(c.bl);
  }
  // While a received hand-over is redeemed, only what is necessary runs (handover.ts, redeem).
  // Read only in the cross-domain variant: a bare `S.acc` stayed in the base widget as a statement of its own.
  const held = __PLACET_SX__ && S.acc;
  if (__PLACET_SX__ && token) S.acc = new Set(necessary);
  strict();
  S._here = location.href;
  S._own = doc.currentScript;
  hook();
  consentDefault();
  S.lang = pickLang();
  build();
  hashLinks();
  w.CCM = api;
  if (__PLACET_SX__) decorateLinks();
  const onLegalPage = [T.imprintUrl, T.privacyPolicyUrl].some((k, i) => t(k) && !c.sw[i] && S._here.split('#')[0] == t(k));
  apply();
  if ((S.decided || implicit()) && !(__PLACET_SX__ && token)) announce(false);
  // GPC (and DNT where the theme honours it) count as "declined until the visitor opts in": no banner.
  let dismissed;
  try {
    // Only a theme with the close button can have set it: the default theme spares opening sessionStorage
    // (a synchronous call into the browser process) in the task that blocks the page's parser.
    dismissed = th.close && sessionStorage.getItem(DISMISSED + c.p);
  } catch {
    // No storage: the banner is shown.
  }
  const quiet = c.bl || S.decided || implicit() || gpc || (dnt && th.dnt) || onLegalPage || dismissed;
  if (quiet || (__PLACET_SX__ && token) || (__PLACET_WITH_TCF__ && c.tcf)) render(0);
  else {
    openLayer(1);
    // Statistics (docs/statistics.md): a banner shown, counted with this delivery's token; nothing else is sent.
    // After the banner's first frame: the beacon costs the parser-blocking task several ms at 4× CPU.
    // The visitor's id and a first date are made there too, so the click's task does not pay for their first calls.
    afterPaint(() => {
      nav.sendBeacon?.(c.u.replace(/consent$/, 'display'), JSON.stringify({ domain: c.d, revision: c.r, token: c.tk }));
      now();
      ucid();
    });
  }
  if (__PLACET_SX__ && token) redeem(token, held as Set<string>, !!quiet);
  // IAB TCF (tcfEnabled domains only): the TCF chunk, which the served script's prefix loads, draws its
  // layers into this widget and decides through it (docs/tcf.md).
  if (__PLACET_WITH_TCF__ && c.tcf) w[Symbol.for('placet.tcf') as unknown as string] = { c, S, h, btn, toggle, dialog, legalLinks, views, render, decide, ask: !(onLegalPage || dismissed) };
  if (location.hash) hashAction(location.hash);
  show();
  const ready = () => {
    // A document without <body> (an SVG or XML page) gets the widget on its root element.
    if (!doc.body && !S._host.isConnected) doc.documentElement.append(S._host);
    late();
    apply();
    dropUnknown();
    declaration();
    dispatch('ccm19WidgetLoaded');
  };
  if (doc.readyState == 'loading') {
    doc.addEventListener('DOMContentLoaded', () => {
      ready();
      if (S.decided || implicit()) acceptedEvents();
    });
  }
  else ready();
}

// The double-load guard: a symbol-keyed property, which the build's property mangling cannot rename (it
// renamed `__placet` to `n`, colliding with a page's `var n`) and which adds no global name to the page.
const LOADED = Symbol.for('placet');
if (!w[LOADED as unknown as string]) {
  w[LOADED as unknown as string] = 1;
  start();
}
