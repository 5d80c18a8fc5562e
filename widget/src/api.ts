/**
 * The browser API and events: `window.CCM` (the reference product's API), `#CCM.<method>` links, the events
 * on `window`, the dataLayer pushes, and Google Consent Mode v2.
 */
import { c, doc, em, NECESSARY, S, w } from './state.js';
import { shareString, withConsent } from './handover.js';
import { allowed } from './storage.js';
import { texts } from './i18n.js';
import { closeLayer, openLayer, render } from './ui/layers.js';
import { declaration } from './ui/declaration.js';

export const GCM = ['ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization', 'functionality_storage', 'personalization_storage', 'security_storage'];

export const dispatch = (name: string, detail: unknown = null) => w.dispatchEvent(new CustomEvent(name, { detail }));

export const push = (o: unknown) => (w.dataLayer = w.dataLayer || []).push(o);

export const gcmState = (grant: Set<string>) => Object.fromEntries(GCM.map((t) => [t, grant.has(t) ? 'granted' : 'denied']));

/** The page's gtag, or one that feeds dataLayer, taken once at start (a later `function gtag` of the page does not replace it). */
export const consentDefault = () => {
  S.gtag = (w.gtag as ((...a: unknown[]) => void) | undefined) || (w.gtag = function () {
    // eslint-disable-next-line prefer-rest-params
    push(arguments);
  });
  S.gtag('consent', 'default', { ...gcmState(new Set()), wait_for_update: 500 });
};

export const announce = (initial: boolean) => {
  const grant = new Set<string>();
  const state: Record<string, unknown> = { event: 'CCM19.consentStateChanged', initialConsent: initial };
  for (const e of em) {
    const ok = allowed(e);
    state[`ccm19_${texts(e)[0]}`] = ok;
    if (!ok) continue;
    e.c.forEach((t) => grant.add(t));
    const detail = (name: string) => ({ name, code: e.h, purpose: e.p, mandatory: e.p === NECESSARY });
    push({ event: 'CCM19.embeddingAccepted', id: e.i, name: texts(e)[0] });
    dispatch('ccm19EmbeddingAccepted', detail(texts(e)[0]));
    // The deprecated per-cookie forms, for tag-manager setups that still listen to them.
    for (const [name] of e.a) {
      push({ event: `CCM19.cookieAccepted.${name}` });
      dispatch('ccm19CookieAccepted', detail(name));
    }
  }
  S.gtag('consent', 'update', gcmState(grant));
  push(state);
};

export const hashAction = (hash: string) => {
  const fn = (api as Record<string, unknown>)[hash.replace(/^#CCM\./, '')];
  if (/^#CCM\./.test(hash) && typeof fn === 'function') (fn as () => void)();
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
    return S.stored?.ucid || null;
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
  get crossDomainConsentString() {
    return shareString();
  },
  /** Navigates to `url`, carrying the consent when it is another host of the set (consentSharingCrossDomain). */
  navigate: (url: string, replace?: boolean, navigateTop?: boolean) => {
    const target = navigateTop ? (w.top || w).location : location;
    const next = withConsent(url) || url;
    // A cross-origin top frame's Location allows only replace() and setting href.
    if (replace) target.replace(next);
    else target.href = next;
  },
  version: '1',
};
