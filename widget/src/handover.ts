/**
 * Cross-domain consent hand-over (consentSharingCrossDomain; docs/widget.md, "Consent sharing between
 * hosts"). Built only into the widget variant for such domains (`__PLACET_SX__`, widget/build.ts): callers
 * guard every use, so the base widget carries none of it except `inSet`.
 *
 * A decision never travels as data in an address. The page asks Placet for a single-use token for the
 * decision Placet has logged for its ucid (POST /public/handover), valid for a couple of minutes and only
 * from this visitor's address; the address of the other page carries `#ccm_handover=<token>`. That page
 * removes it from its address and redeems it (POST /public/handover/redeem): Placet logs a `handover`
 * record and answers the decision, with the time it was made, which the page then adopts. A planted link
 * has no token Placet would redeem, so it does nothing.
 */
import { announce } from './api.js';
import { dropUnknown, wipe } from './cookies.js';
import { apply } from './scripts.js';
import { c, dnt, doc, em, gpc, implicit, S, th } from './state.js';
import { byId, necessary, readAll, under, writeAll } from './storage.js';
import { strict } from './strict.js';
import { openLayer, render } from './ui/layers.js';

/** `hostname` is a host of the set: the domain's own, or one at or below a consentSharingDomains entry. */
export const inSet = (hostname: string) => [c.dh, ...c.sd].some((d) => under(hostname, d));

const FRAG = 'ccm_handover=';
/** sessionStorage key of the spare token (one per origin and tab). */
const SPARE = 'ccm_ho';

interface Token {
  token: string;
  expiresAt: string;
}
/** What POST /public/handover/redeem answers. */
interface HandedOver {
  ucid: string;
  consent: boolean;
  embeddings: string[];
  created: string;
  updated: string;
  legalRevision: number;
}

const post = <T>(path: string, body: object): Promise<T> =>
  fetch(c.u.replace(/consent$/, 'handover') + path, { method: 'POST', body: JSON.stringify(body) }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => setTimeout(r, ms))]);

/**
 * `href` as a URL when it leads to another origin of the set that does not already share this page's
 * decision (the consent cookie set on a common consentSharingDomains entry does), with any hand-over in its
 * fragment removed.
 */
const crossing = (href: string): URL | undefined => {
  let u: URL;
  try {
    u = new URL(href, location.href);
  } catch {
    return;
  }
  const shared = S._store === null && c.sd.some((d) => under(location.hostname, d) && under(u.hostname, d));
  if (!/^https?:$/.test(u.protocol) || u.origin == location.origin || !inSet(u.hostname) || shared) return;
  u.hash = u.hash.slice(1).split('&').filter((x) => x && !x.startsWith(FRAG)).join('&');
  return u;
};

const withToken = (u: URL, token: string | undefined) => {
  if (token) u.hash = [u.hash.slice(1), FRAG + token].filter(Boolean).join('&');
  return u.href;
};

/**
 * A fresh token for the decision held here: for the origin of `u`, or without `u` for any page of the set.
 * Undefined when there is no decision, Placet refuses, or 1.5 s passed. A decision made a moment ago may
 * still be on its way into the log (409): asked once more.
 */
const ask = (u?: URL): Promise<Token | undefined> => {
  const st = S._stored;
  if (!S.decided || !st) return Promise.resolve(undefined);
  const go = () => post<Token>('', { apiKey: c.k, domain: c.d, ucid: st.ucid, consent: st.consent, embeddings: st.embeddings, target: u?.href });
  return within(go().catch((status) => (status == 409 ? new Promise((r) => setTimeout(r, 500)).then(go) : undefined)), 1500);
};

/**
 * The spare token: one untargeted token, asked for at start, kept for the tab in sessionStorage and used
 * where nothing can wait for Placet (CCM.crossDomainConsentString, a link to a new tab, a form). `u` names
 * the decision it was issued for; a decision made since makes it useless (Placet would refuse it).
 */
let spare: { t: string; x: number; u: string } | undefined;
let asking = false;
const tag = () => S._stored!.ucid + S._stored!.updated;
const keep = () => {
  try {
    sessionStorage.setItem(SPARE, JSON.stringify(spare || 0));
  } catch {
    // no storage: the spare lives for this page only
  }
};
export const refill = () => {
  if (asking || !S.decided) return;
  asking = true;
  const u = tag();
  ask().then((x) => {
    asking = false;
    if (x) {
      spare = { t: x.token, x: Date.parse(x.expiresAt), u };
      keep();
    }
  });
};

const good = () => spare && S.decided && spare.u == tag() && spare.x > Date.now() + 1e4;

/** Takes the spare token when it is still good for the decision held here (and asks for the next one). */
const take = (): string | undefined => {
  const s = good() ? spare!.t : undefined;
  if (s) {
    spare = undefined;
    keep();
  }
  refill();
  return s;
};

/** `CCM.crossDomainConsentString`: `ccm_handover=<token>` for the URL fragment, or '' (no decision, no token yet). */
export const shareString = () => {
  const t = take();
  return t ? FRAG + t : '';
};

/**
 * Goes to `url` (through `to`) with a hand-over when it is another origin of the set: at once with the
 * spare token, else once Placet has issued one for that origin (1.5 s at most).
 */
export const via = (url: string, to: (href: string) => void) => {
  const u = crossing(url);
  const t = u && take();
  if (!u || t || !S.decided) return to(u ? withToken(u, t) : url);
  ask(u).then((x) => to(withToken(u, x?.token)));
};

/** A frame of another origin of the set gets the decision: it loads once its hand-over is ready. */
export const shareInto = (f: HTMLIFrameElement) => {
  const src = f.getAttribute('src');
  if (!S.decided || !src || !crossing(src)) return;
  f.setAttribute('src', 'about:blank');
  via(src, (h) => f.setAttribute('src', h));
};

export const decorateLinks = () => {
  try {
    spare = JSON.parse(sessionStorage.getItem(SPARE)!) || undefined;
  } catch {
    // none kept
  }
  if (!good()) refill();
  // Links as they are used: a plain click in this window waits for a token issued for the target; a click
  // that opens another tab or window cannot wait and takes the spare token. Forms (when submitted; not
  // form.submit(), which fires no event) take the spare token too.
  const follow = (ev: Event) => {
    const a = (ev.composedPath()[0] as Element | null)?.closest?.('a[href],area[href]') as HTMLAnchorElement | null;
    const u = a && crossing(a.href);
    if (!u) return;
    const m = ev as MouseEvent;
    if (ev.type == 'click' && !m.button && !m.ctrlKey && !m.metaKey && !m.shiftKey && !m.altKey && /^(_self)?$/.test(a!.target) && !a!.hasAttribute('download')) {
      ev.preventDefault();
      via(a!.href, (h) => (location.href = h));
    } else a!.href = withToken(u, take());
  };
  ['click', 'auxclick'].map((type) => doc.addEventListener(type, follow, true));
  doc.addEventListener('submit', (ev) => {
    const f = ev.target as HTMLFormElement;
    const u = crossing(f.action);
    if (u) f.action = withToken(u, take());
  }, true);
};

/** The hand-over token in this page's address, if any; every `ccm_handover=` is removed from the address at once. */
export const received = (): string | undefined => {
  const parts = location.hash.slice(1).split('&');
  const hit = parts.find((x) => x.startsWith(FRAG));
  if (!hit) return;
  const rest = parts.filter((x) => !x.startsWith(FRAG)).join('&');
  history.replaceState(history.state, '', rest ? `#${rest}` : location.href.split('#')[0]);
  const token = hit.slice(FRAG.length);
  return /^[0-9a-f]{64}$/.test(token) ? token : undefined;
};

/**
 * Redeems a received token. Until Placet answers (2 s at most) the page runs only what is necessary and
 * shows no banner: what the hand-over withdraws must not run meanwhile. `held` is what the page's own
 * decision accepts; it applies again when nothing is handed over, and the banner opens then unless the page
 * had no reason to show it (`quiet`: a decision, GPC, a legal page, …). A decision the visitor makes here in
 * the meantime wins over a late answer.
 */
export const redeem = (token: string, held: Set<string>, quiet: boolean) => {
  const mine = S._stored;
  let open = true;
  const p = post<HandedOver>('/redeem', {
    apiKey: c.k, domain: c.d, handover: token, token: c.tk, snapshot: c.sh, lang: S.lang, revision: c.r, legalRevision: c.lr,
    themeId: th.id, gpc, dnt, held: S.decided ? { ucid: mine!.ucid, updated: Date.parse(mine!.updated) || 0 } : undefined,
  });
  p.then((x) => {
    if (S._stored !== mine) return;
    open = false;
    const before = S.acc;
    const all = readAll();
    S.acc = new Set([...x.embeddings.filter(byId), ...necessary]);
    // The decision keeps the time it was made (Placet's clock): a hand-over never renews it.
    S._stored = all[c.p] = {
      gen: 2, ucid: x.ucid, consent: x.consent, embeddings: [...S.acc], created: x.created, updated: x.updated,
      clickedButton: 'handover', lang: S.lang, rev: c.r, lrev: x.legalRevision, iframeConsentDomains: all[c.p]?.iframeConsentDomains || [],
    };
    writeAll(all);
    S.decided = true;
    render(0);
    em.forEach((e) => before.has(e.i) && !S.acc.has(e.i) && wipe(e));
    if (strict()) location.reload();
    apply();
    dropUnknown();
    announce(!mine);
    refill();
  }, () => 0);
  within(p, 2000).then(() => {
    if (!open || S._stored !== mine) return;
    open = false;
    S.acc = held;
    apply();
    if (S.decided || implicit()) announce(false);
    if (!quiet) openLayer(1);
  });
};
