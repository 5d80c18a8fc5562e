/**
 * Cross-domain consent hand-over (consentSharingCrossDomain): the set is the domain's own host and every host
 * at or below a consentSharingDomains entry; the service serves this one configuration to all of them, so
 * embedding ids mean the same everywhere. A decision travels in the URL fragment of links, forms and frames
 * to another host of the set, and is taken from the address on arrival.
 */
import { byId, readAll, under, writeAll } from './storage.js';
import { c, doc, NECESSARY, S } from './state.js';

/** `hostname` is a host of the set. */
export const inSet = (hostname: string) => [c.dh, ...c.sd].some((d) => under(hostname, d));

export const FRAG = 'ccm_consent=';

export const shareString = () =>
  S.decided && S.stored
    ? FRAG + encodeURIComponent(JSON.stringify({ d: c.d, u: S.stored.ucid, e: S.stored.embeddings, c: S.stored.created, t: S.stored.updated, b: S.stored.clickedButton, l: S.stored.lang, r: S.stored.rev, lr: S.stored.lrev }))
    : '';

/**
 * `href` with this visitor's consent in its fragment (or a planted one removed), when it leads to another
 * host of the set and that changes it; otherwise undefined.
 */
export const withConsent = (href: string): string | undefined => {
  let u: URL;
  try {
    u = new URL(href, location.href);
  } catch {
    return;
  }
  if (!c.sx || !/^https?:$/.test(u.protocol) || u.origin === location.origin || !inSet(u.hostname)) return;
  const before = u.href;
  const parts = u.hash.slice(1).split('&').filter((x) => x && !x.startsWith(FRAG));
  const own = shareString();
  u.hash = [...parts, ...(own ? [own] : [])].join('&');
  return u.href === before ? undefined : u.href;
};

/** A consent handed over in the address by another host of the set is taken, and removed from the address. */
export const receive = () => {
  const shared = /(?:^#|&)ccm_consent=([^&]*)/.exec(location.hash);
  if (shared) {
    const rest = location.hash.slice(1).split('&').filter((x) => !x.startsWith(FRAG)).join('&');
    history.replaceState(history.state, '', rest ? `#${rest}` : location.pathname + location.search);
    let x: Record<string, unknown> = {};
    let from = '';
    try {
      x = JSON.parse(decodeURIComponent(shared[1]!));
      from = new URL(doc.referrer).hostname;
    } catch {
      // not a consent, or no referrer: ignored
    }
    // Only a page of the set can hand a consent over (a link planted elsewhere carries none), only for this
    // domain, and only a newer one than the decision stored here.
    const ids = x.e;
    if (c.sx && from && inSet(from) && x.d === c.d && /^[0-9a-f]{64}$/.test(String(x.u)) && Array.isArray(ids) && typeof x.t === 'string' && !(S.stored && S.stored.updated >= x.t)) {
      const all = readAll();
      const embeddings = ids.filter((id): id is string => typeof id === 'string' && !!byId(id));
      S.handedOver = S.stored?.embeddings.filter((id) => !embeddings.includes(id)) || [];
      S.stored = all[c.p] = {
        gen: 2, ucid: String(x.u), consent: embeddings.some((id) => byId(id)!.p !== NECESSARY), embeddings,
        created: String(x.c), updated: x.t, clickedButton: String(x.b), lang: String(x.l), rev: Number(x.r), lrev: Number(x.lr),
        iframeConsentDomains: S.stored?.iframeConsentDomains || [],
      };
      writeAll(all);
    }
  }
};

/** A frame of another host of the set inherits the consent through its address. */
export const shareInto = (f: HTMLIFrameElement) => {
  const src = f.getAttribute('src');
  const next = src && withConsent(src);
  if (next) f.setAttribute('src', next);
};

export const decorateLinks = () => {
  // Links are rewritten as they are used (mouse, touch, keyboard, middle click), so links added later
  // and decisions changed later are covered; forms when submitted (not form.submit(), which fires no event).
  const decorate = (ev: Event) => {
    const a = (ev.composedPath()[0] as Element | null)?.closest?.('a[href],area[href]') as HTMLAnchorElement | null;
    const next = a && withConsent(a.href);
    if (next) a!.href = next;
  };
  ['mousedown', 'touchstart', 'keydown', 'click', 'auxclick'].forEach((type) => doc.addEventListener(type, decorate, true));
  doc.addEventListener('submit', (ev) => {
    const f = ev.target as HTMLFormElement;
    const next = withConsent(f.action);
    if (next) f.action = next;
  }, true);
};
