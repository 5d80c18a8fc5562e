/**
 * The browser API and events: `window.CCM` (the reference product's API), `#CCM.<method>` links, the events
 * on `window`, the dataLayer pushes, and Google Consent Mode v2.
 */
import { c, doc, em, NECESSARY, S, w } from './state.js';
import { shareString, via } from './handover.js';
import { allowed } from './storage.js';
import { texts } from './i18n.js';
import { closeLayer, openLayer, render } from './ui/layers.js';
import { declaration } from './ui/declaration.js';

export const GCM = ['ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization', 'functionality_storage', 'personalization_storage', 'security_storage'];

export const dispatch = (name: string, detail?: unknown) => w.dispatchEvent(new CustomEvent(name, { detail }));

export const push = (o: unknown) => (w.dataLayer = w.dataLayer || []).push(o);

export const gcmState = (grant: Set<string>) => Object.fromEntries(GCM.map((t) => [t, grant.has(t) ? 'granted' : 'denied']));

/** The page's gtag, or one that feeds dataLayer, taken once at start (a later `function gtag` of the page does not replace it). */
export const consentDefault = () => {
  S._gtag = (w.gtag as ((...a: unknown[]) => void) | undefined) || (w.gtag = function () {
    // eslint-disable-next-line prefer-rest-params
    push(arguments);
  });
  S._gtag('consent', 'default', { ...gcmState(new Set()), wait_for_update: 500 });
};

export const announce = (initial: boolean) => {
  const grant = new Set<string>();
  const state: Record<string, unknown> = { event: 'CCM19.consentStateChanged', initialConsent: initial };
  for (const e of em) {
    const ok = allowed(e);
    // The embedding's own name, not the visitor's translation: tag-manager triggers are written for one key.
    state[`ccm19_${e.n}`] = ok;
    if (ok) e.c.forEach((t) => grant.add(t));
  }
  // Consent Mode first: a tag-manager trigger on any of the events below already sees "granted".
  S._gtag('consent', 'update', gcmState(grant));
  for (const e of em) {
    if (!allowed(e)) continue;
    push({ event: 'CCM19.embeddingAccepted', id: e.i, name: texts(e)[0] });
    // The deprecated per-cookie form, for tag-manager setups that still listen to it.
    for (const [name] of e.a) push({ event: `CCM19.cookieAccepted.${name}` });
  }
  acceptedEvents();
  push(state);
};

/**
 * The window events of the accepted embeddings: on each decision, on every page load, and once more when the
 * document is parsed, for listeners that scripts in <body> added after the snippet ran in <head>.
 */
export const acceptedEvents = () => {
  for (const e of em) {
    if (!allowed(e)) continue;
    const detail = (name: string) => ({ name, code: e.h, purpose: e.p, mandatory: e.p == NECESSARY });
    dispatch('ccm19EmbeddingAccepted', detail(texts(e)[0]));
    for (const [name] of e.a) dispatch('ccm19CookieAccepted', detail(name));
  }
};

/** `#CCM.<method>`: only an own method of the API object is called (not `__defineGetter__` and the like). */
export const hashAction = (hash: string) => {
  // An own property's descriptor only (undefined for inherited ones); a getter's has no value.
  const fn = hash.startsWith('#CCM.') && Object.getOwnPropertyDescriptor(api, hash.slice(5))?.value;
  if (typeof fn == 'function') (fn as () => void)();
};

export const hashLinks = () =>
  doc.addEventListener('click', (ev) => {
    const a = (ev.target as Element | null)?.closest?.('a[href^="#CCM."]');
    if (a) {
      ev.preventDefault();
      hashAction(a.getAttribute('href')!);
    }
  });

export const api = {
  get acceptedEmbeddings() {
    return em.filter(allowed).map((e) => ({ id: e.i, name: texts(e)[0] }));
  },
  get acceptedCookies() {
    return em.filter(allowed).flatMap((e) => e.a.map((a) => a[0]));
  },
  get consent() {
    return S.decided;
  },
  /** Whether this visitor must be asked at all: false only outside the area of enableOnlyInEu. */
  get consentRequired() {
    return !c.oe;
  },
  get fullConsentGiven() {
    return S.decided && em.every((e) => S.acc.has(e.i));
  },
  get ucid() {
    return S._stored?.ucid || null;
  },
  openWidget: () => openLayer(1),
  closeWidget: closeLayer,
  openControlPanel: () => openLayer(2),
  closeControlPanel: closeLayer,
  availableLocales: () => Object.keys(c.loc),
  switchLocale: (n: string) => {
    if (c.loc[n]) {
      S.lang = n;
      render(S.layer);
      declaration();
    }
  },
  /**
   * `ccm_handover=<token>` for the fragment of an address of another host of the set (consentSharingCrossDomain):
   * a single-use token, so each read takes it; '' without a decision, in the base widget, or while the next
   * token is being issued (docs/widget.md).
   */
  get crossDomainConsentString() {
    return __PLACET_SX__ ? shareString() : '';
  },
  /** Navigates to `url`, with a hand-over when it is another origin of the set (consentSharingCrossDomain). */
  navigate: (url: string, replace?: boolean, navigateTop?: boolean) => {
    const target = navigateTop ? (w.top || w).location : location;
    // A cross-origin top frame's Location allows only replace() and setting href.
    const to = (next: string) => (replace ? target.replace(next) : (target.href = next));
    if (__PLACET_SX__) via(url, to);
    else to(url);
  },
  version: '1',
};
