/**
 * Placet consent widget: zero dependencies, one file, configuration inlined by the service.
 * Order matters: blocking hooks are installed synchronously before anything else, because the snippet
 * runs first in <head> and every later script or iframe must pass through them.
 */
import type { EmbeddingConfig, LocaleBundle, WidgetConfig } from './types.js';
import { CSS, ICON } from './style.js';

declare const __PLACET_CONFIG__: WidgetConfig;

/** What POST /public/handover/redeem answers. */
interface HandedOver {
  ucid: string;
  consent: boolean;
  embeddings: string[];
  created: string;
  updated: string;
  legalRevision: number;
}

interface Stored {
  gen: 2;
  ucid: string;
  consent: boolean;
  embeddings: string[];
  created: string;
  updated: string;
  clickedButton: string;
  lang: string;
  rev: number;
  lrev: number;
  iframeConsentDomains?: string[];
}

type Win = Window & Record<string, unknown> & { dataLayer?: unknown[] };
const w = window as unknown as Win;
const doc = document;
const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
const NECESSARY = '41ba25c';
const KEY = 'ccm_consent';
const GCM = ['ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization', 'functionality_storage', 'personalization_storage', 'security_storage'];
const BLOCKED = 'text/plain';
const ATTR = 'data-ccm-blocked';
const FOCUSABLE = 'button,input:not([disabled]),a[href],summary';

if (!w.__placet) {
  w.__placet = 1;
  run(__PLACET_CONFIG__);
}

function run(c: WidgetConfig): void {
  const em = c.em;
  const th = c.th;
  const byId = (id: string) => em.find((e) => e.i === id);
  const has = (s: string, markers: string[]) => markers.some((m) => m && s.includes(m));
  const now = () => new Date().toISOString();
  const dispatch = (name: string, detail: unknown = null) => w.dispatchEvent(new CustomEvent(name, { detail }));
  const push = (o: unknown) => (w.dataLayer = w.dataLayer || []).push(o);
  const gpc = nav.globalPrivacyControl === true;
  const dnt = nav.doNotTrack === '1';

  /* ---------- storage ---------- */
  /** `hostname` is `d` or below it. */
  const under = (hostname: string, d: string) => hostname === d || hostname.endsWith(`.${d}`);
  // Storage can be refused (a third-party frame with blocked storage, a sandbox, a full quota): the decision
  // then lives in memory for the page, and the widget keeps working.
  let mem = '';
  const store = ((): Storage | null | undefined => {
    try {
      const st = c.s === 1 ? null : c.s === 2 || c.lt === 0 ? sessionStorage : localStorage;
      st?.getItem(KEY);
      return st;
    } catch {
      return undefined;
    }
  })();
  const readAll = (): Record<string, Stored> => {
    try {
      const raw = store ? store.getItem(KEY) : store === null ? decodeURIComponent((doc.cookie.match(/(?:^|; )ccm_consent=([^;]*)/) || [])[1] || '') : mem;
      return JSON.parse(raw || mem || '{}');
    } catch {
      return {};
    }
  };
  const writeAll = (v: Record<string, Stored>) => {
    mem = JSON.stringify(v);
    try {
      if (store) store.setItem(KEY, mem);
      else if (store === null) {
        // consentSharingDomains: the cookie is set on the shared registrable domain, so its subdomains see it.
        const shared = c.sd.find((d) => under(location.hostname, d));
        doc.cookie = `${KEY}=${encodeURIComponent(mem)};path=/;SameSite=Lax${shared ? `;domain=${shared}` : ''}${c.lt ? `;max-age=${c.lt * 86400}` : ''}${c.sc && location.protocol === 'https:' ? ';Secure' : ''}`;
      }
    } catch {
      // kept in memory only
    }
  };
  let stored: Stored | undefined = readAll()[c.p];

  /* ---------- consent sharing across hosts (consentSharingCrossDomain) ---------- */
  // The set: the domain's own host and every host at or below a consentSharingDomains entry. The service
  // serves this one configuration to all of them, so embedding ids mean the same everywhere.
  const inSet = (hostname: string) => [c.dh, ...c.sd].some((d) => under(hostname, d));
  // A decision travels as a single-use token that Placet issues, moments before, for the decision it has
  // logged for this ucid (docs/widget.md): nothing in an address alone is ever adopted.
  const FRAG = 'ccm_handover=';
  const HO = c.u.replace(/consent$/, 'handover');
  const planted = /^ccm_(handover|consent)=/;
  const post = (url: string, body: object) =>
    fetch(url, { method: 'POST', body: JSON.stringify(body) }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => setTimeout(r, ms))]);
  /** `href` as a URL when it leads to another origin of the set, with any hand-over in its fragment removed. */
  const crossing = (href: string): URL | undefined => {
    let u: URL;
    try {
      u = new URL(href, location.href);
    } catch {
      return;
    }
    if (!c.sx || !/^https?:$/.test(u.protocol) || u.origin === location.origin || !inSet(u.hostname)) return;
    u.hash = u.hash.slice(1).split('&').filter((x) => x && !planted.test(x)).join('&');
    return u;
  };
  const withToken = (u: URL, token: string | undefined) => {
    if (token) u.hash = [u.hash.slice(1), FRAG + token].filter(Boolean).join('&');
    return u.href;
  };
  /** A fresh token for `u` (a URL from `crossing`), or undefined: no decision, a refusal, or 1.5 s passed. */
  const tokenFor = (u: URL): Promise<string | undefined> => {
    if (!decided) return Promise.resolve(undefined);
    const ask = () =>
      post(HO, { apiKey: c.k, domain: c.d, ucid: stored!.ucid, consent: stored!.consent, embeddings: stored!.embeddings, target: u.href }).then((x) => x.token as string);
    // A decision made a moment ago may still be on its way into the log: asked once more.
    return within(ask().catch((status) => (status === 409 ? new Promise((r) => setTimeout(r, 300)).then(ask) : undefined)), 1500);
  };
  /** `href` with a hand-over for its origin when it is another origin of the set; otherwise unchanged. */
  const handover = async (href: string) => {
    const u = crossing(href);
    return u ? withToken(u, await tokenFor(u)) : href;
  };
  const validDecision = (s: Stored | undefined): s is Stored => {
    if (!s || !s.ucid || !s.updated) return false;
    const t = Date.parse(s.updated);
    return !(c.rb && t < c.rb) && !(c.lt && t + c.lt * 864e5 < Date.now()) && !(c.rl && s.lrev !== c.lr);
  };
  let decided = validDecision(stored);
  // A hand-over in this page's address is removed at once, and redeemed at the start below: only Placet
  // can say what it carries.
  const parts = location.hash.slice(1).split('&');
  const received = c.sx ? /^ccm_handover=([0-9a-f]{64})$/.exec(parts.find((x) => x.startsWith(FRAG)) || '')?.[1] : undefined;
  if (parts.some((x) => planted.test(x))) {
    const rest = parts.filter((x) => !planted.test(x)).join('&');
    history.replaceState(history.state, '', rest ? `#${rest}` : location.pathname + location.search);
  }

  /* ---------- what is accepted ---------- */
  // requireConsentForMandatoryEmbeddings: "technically necessary" embeddings wait for consent like any other.
  const fixed = (p: string) => p === NECESSARY && !c.rm;
  const necessary = em.filter((e) => fixed(e.p)).map((e) => e.i);
  // enableOnlyInEu, visitor from outside the area (told by the service): everything is enabled without a
  // banner and without a record, unless GPC or honoured DNT asks otherwise; a choice they make counts as usual.
  const implicit = !decided && c.oe && !gpc && !(dnt && th.dnt);
  // A page that receives a hand-over holds back its own stored decision until Placet has answered: what
  // the hand-over withdraws must not run in the meantime.
  let held = decided && !!received;
  const storedSet = () => new Set([...stored!.embeddings, ...necessary]);
  let acc = new Set<string>(decided && !held ? storedSet() : implicit ? em.map((e) => e.i) : necessary);
  const here = location.href;
  const activeHere = (e: EmbeddingConfig) => {
    const listed = e.x.some((u) => (u.endsWith('*') ? here.startsWith(u.slice(0, -1)) : here === u));
    return e.xm ? listed : !listed;
  };
  const allowed = (e: EmbeddingConfig) => acc.has(e.i) && activeHere(e);

  /* ---------- blocking ---------- */
  const own = doc.currentScript;
  const approved = new WeakSet<Node>();
  const blockedScripts: HTMLScriptElement[] = [];
  const blockedFrames: [HTMLIFrameElement, HTMLElement, EmbeddingConfig | undefined][] = [];
  const mustBlock = (s: string) =>
    !has(s, c.am) && (has(s, c.bm) || em.some((e) => !allowed(e) && has(s, e.sm)));
  const scriptKey = (el: HTMLScriptElement) => `${el.getAttribute('src') || ''} ${el.src || ''} ${el.text}`;
  /** blockNewScripts: a script no embedding claims is blocked for good (third-party; first-party and inline by option). */
  const unclaimed = (el: HTMLScriptElement) => {
    const key = scriptKey(el);
    if (!c.ns[0] || has(key, c.am) || em.some((e) => has(key, e.sm))) return false;
    const src = el.getAttribute('src');
    return src ? new URL(src, here).origin !== location.origin || c.ns[1] : c.ns[2];
  };

  const checkScript = (el: HTMLScriptElement) => {
    if (el === own || approved.has(el) || el.hasAttribute(ATTR)) return;
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (type === 'text/x-ccm-loader') {
      if (!el.hasAttribute(ATTR)) {
        el.setAttribute(ATTR, 'l');
        blockedScripts.push(el);
      }
      return;
    }
    if (type && !/^(text|application)\/(java|ecma)script$|^module$/.test(type)) return;
    if (!mustBlock(scriptKey(el)) && !unclaimed(el)) return;
    el.setAttribute('data-ccm-type', type);
    el.setAttribute(ATTR, '1');
    el.type = BLOCKED;
    blockedScripts.push(el);
  };
  const remembered = () => readAll()[c.p]?.iframeConsentDomains || [];
  const frameOwner = (src: string): EmbeddingConfig | undefined | false => {
    if (!c.bi || !/^https?:|^\/\//.test(src)) return false;
    const url = new URL(src, here);
    // The hosts of a configured sharing set are the site's own: their frames are not third-party content.
    if (url.origin === location.origin || (c.sd.length > 0 && inSet(url.hostname))) return false;
    const e = em.find((x) => has(src, x.fm));
    if (e) return allowed(e) ? false : e;
    if (remembered().includes(url.host)) return false;
    const listed = has(src, c.im);
    return (c.iw ? !listed : listed) && undefined;
  };
  const checkFrame = (f: HTMLIFrameElement) => {
    if (approved.has(f) || f.hasAttribute(ATTR)) return;
    // `data-ccm-src` instead of `src` guarantees that not even a request leaves before consent.
    const src = f.getAttribute('src') || f.getAttribute('data-ccm-src') || '';
    const owner = frameOwner(src);
    if (owner === false) {
      shareInto(f);
      const e = em.find((x) => has(src, x.fm));
      if (e) consentSwitch(f, e);
      return;
    }
    f.setAttribute(ATTR, src);
    f.setAttribute('src', 'about:blank');
    const ph = placeholder(f, owner);
    blockedFrames.push([f, ph, owner]);
  };
  /** A frame of another origin of the set inherits the decision: it loads once the hand-over is ready. */
  const shareInto = (f: HTMLIFrameElement) => {
    const u = crossing(f.getAttribute('src') || '');
    if (!u) return;
    f.setAttribute('src', decided ? 'about:blank' : u.href);
    if (decided) tokenFor(u).then((token) => f.setAttribute('src', withToken(u, token)));
  };
  const check = (n: Node) => {
    if (n instanceof HTMLScriptElement) checkScript(n);
    else if (n instanceof HTMLIFrameElement) checkFrame(n);
    else if (n instanceof Element || n instanceof DocumentFragment) n.querySelectorAll('script,iframe').forEach(check);
  };
  // Scripts and iframes added by other scripts pass through the DOM insertion methods. Only insertions
  // into the document count: nothing in a detached tree runs or loads, and the tree is checked as a whole
  // when it is inserted. That also keeps building the widget's own UI (many small appends) cheap.
  const patch = (proto: Record<string, unknown>, names: string[]) =>
    names.forEach((m) => {
      const orig = proto[m] as (...a: unknown[]) => unknown;
      proto[m] = function (this: Node, ...args: unknown[]) {
        if (this.isConnected) args.forEach((a) => a instanceof Node && check(a));
        return orig.apply(this, args);
      };
    });
  // The widget's own UI is built in detached elements: it appends with the unpatched method.
  const nativeAppend = Element.prototype.append;
  patch(Node.prototype as unknown as Record<string, unknown>, ['appendChild', 'insertBefore', 'replaceChild']);
  patch(Element.prototype as unknown as Record<string, unknown>, ['append', 'prepend', 'before', 'after', 'replaceWith']);
  // Scripts and iframes the parser inserts are caught before they run or load.
  new MutationObserver((records) => {
    show();
    records.forEach((r) => r.addedNodes.forEach(check));
  }).observe(doc.documentElement, {
    childList: true,
    subtree: true,
  });

  const runScript = (old: HTMLScriptElement, loader: boolean) => {
    const type = loader ? '' : old.getAttribute('data-ccm-type');
    const src = loader ? old.getAttribute('data-ccm-loader-src') || old.getAttribute('src') : old.getAttribute('src');
    // evalInlineScripts: inline code runs through a global eval instead of a new <script> element (no
    // document.currentScript; under a Content Security Policy it needs 'unsafe-eval' rather than a nonce).
    if (c.ev && !src && type !== 'module') {
      old.removeAttribute(ATTR);
      try {
        (0, eval)(old.text);
      } catch (err) {
        setTimeout(() => {
          throw err; // reported like an error in the page's own script, without stopping the widget
        });
      }
      return;
    }
    const s = doc.createElement('script');
    for (const a of Array.from(old.attributes)) {
      if (!/^(type|src|data-ccm-)/.test(a.name)) s.setAttribute(a.name, a.value);
    }
    // A parsed nonce is hidden from getAttribute(); without it a CSP with nonces refuses the copy.
    s.nonce = old.nonce;
    if (type) s.type = type;
    if (src) {
      s.src = src;
      s.async = old.async;
    } else s.text = old.text;
    approved.add(s);
    old.replaceWith(s);
  };
  const loaderAllowed = (el: HTMLScriptElement) => {
    const group = el.getAttribute('data-ccm-loader-group');
    const src = el.getAttribute('data-ccm-loader-src') || '';
    const owner = em.find((e) => (group ? e.g === group : has(src, e.sm)));
    return !!owner && allowed(owner) && !has(src, c.bm);
  };
  const injected = new Set<string>();
  const apply = () => {
    for (const el of blockedScripts.slice()) {
      const loader = el.getAttribute(ATTR) === 'l';
      if (el.isConnected && (loader ? loaderAllowed(el) : !mustBlock(scriptKey(el)) && !unclaimed(el))) {
        blockedScripts.splice(blockedScripts.indexOf(el), 1);
        runScript(el, loader);
      }
    }
    for (const item of blockedFrames.slice()) if (item[2] && allowed(item[2])) unblockFrame(item);
    for (const e of em) {
      if (e.h && allowed(e) && !injected.has(e.i)) {
        injected.add(e.i);
        (doc.body || doc.head).appendChild(doc.createRange().createContextualFragment(e.h));
      }
    }
  };
  const unblockFrame = (item: (typeof blockedFrames)[number]) => {
    const [f, ph] = item;
    blockedFrames.splice(blockedFrames.indexOf(item), 1);
    approved.add(f);
    f.setAttribute('src', f.getAttribute(ATTR) || '');
    f.removeAttribute(ATTR);
    shareInto(f);
    f.style.display = '';
    ph.remove();
    if (item[2]) consentSwitch(f, item[2]);
  };
  /** appendConsentSwitchToIframes: a switch under a loaded frame withdraws its embedding; the page reloads to block it again. */
  const consentSwitch = (f: HTMLIFrameElement, e: EmbeddingConfig) => {
    if (!c.cs) return;
    const bar = h('div', { class: 'ccm-switch' });
    bar.attachShadow({ mode: 'open' }).append(
      h('style', {}, `:host{${vars}}${CSS}`),
      toggle(`${t('blockedContentConsentSwitchAllowEmbedding')}: ${texts(e)[0]}`, true, false, false, (v) => {
        if (v) return;
        decide([...acc].filter((id) => id !== e.i), 'save');
        location.reload();
      }),
    );
    if (f.parentNode) f.after(bar);
    else queueMicrotask(() => f.isConnected && f.after(bar));
  };

  /* ---------- withdrawal: delete what a withdrawn embedding stored ---------- */
  const pattern = (name: string) => new RegExp(`^${name.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  const cookieNames = () => {
    try {
      return doc.cookie.split('; ').map((ck) => ck.split('=')[0]!).filter(Boolean);
    } catch {
      return []; // a sandboxed document has no cookies
    }
  };
  const dropCookie = (n: string) => {
    const parts = location.hostname.split('.');
    for (let i = 0; i < parts.length; i++) doc.cookie = `${n}=;path=/;max-age=0;domain=${parts.slice(i).join('.')}`;
    doc.cookie = `${n}=;path=/;max-age=0`;
  };
  const wipe = (e: EmbeddingConfig) => {
    for (const [name, type] of e.a) {
      const re = pattern(name);
      if (type === 'cookie') {
        cookieNames().forEach((n) => re.test(n) && dropCookie(n));
      } else if (type === 'localStorage' || type === 'sessionStorage') {
        try {
          const st = w[type] as Storage;
          Object.keys(st).forEach((k) => re.test(k) && st.removeItem(k));
        } catch {
          // storage refused: nothing there to delete
        }
      }
    }
  };

  /* ---------- Google Consent Mode v2, events ---------- */
  const gtag = (w.gtag as ((...a: unknown[]) => void) | undefined) || (w.gtag = function () {
    // eslint-disable-next-line prefer-rest-params
    push(arguments);
  });
  const gcmState = (grant: Set<string>) => Object.fromEntries(GCM.map((t) => [t, grant.has(t) ? 'granted' : 'denied']));
  (gtag as (...a: unknown[]) => void)('consent', 'default', { ...gcmState(new Set()), wait_for_update: 500 });
  const announce = (initial: boolean) => {
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
    (gtag as (...a: unknown[]) => void)('consent', 'update', gcmState(grant));
    push(state);
  };

  /* ---------- language ---------- */
  /** The domain's locale for a language tag (`de-DE`, `de_DE`, `de`): the same name, else the same language. */
  const localeFor = (tag: string) => {
    const names = Object.keys(c.loc);
    const n = tag.replace('-', '_').toLowerCase();
    return names.find((x) => x.toLowerCase() === n) || names.find((x) => x.split('_')[0] === n.split('_')[0]);
  };
  const pickLang = () => {
    if (c.fl && c.loc[c.fl]) return c.fl;
    for (const l of nav.languages || [nav.language]) {
      const hit = localeFor(l);
      if (hit) return hit;
    }
    return c.dl;
  };
  let lang = pickLang();
  const bundle = (): LocaleBundle => c.loc[lang] || c.loc[c.dl]!;
  const t = (k: string) => bundle().t[k] || '';
  const texts = (e: EmbeddingConfig) => bundle().e[e.i]!;

  /* ---------- recording ---------- */
  const record = (button: string) => {
    const body = JSON.stringify({
      apiKey: c.k, domain: c.d, ucid: stored!.ucid, consent: stored!.consent, embeddings: stored!.embeddings,
      manipulationPrevention: th.mp, button, lang, revision: c.r, legalRevision: c.lr, themeId: th.id, gpc, dnt,
    });
    if (!(nav.sendBeacon && nav.sendBeacon(c.u, body))) {
      fetch(c.u, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(() => 0);
    }
  };
  let decidedHere = false;
  /** A decision made here (recorded), or one handed over from another origin of the set (`from`, logged by Placet). */
  const decide = (ids: Iterable<string>, button: string, from?: HandedOver) => {
    decidedHere ||= !from;
    held = false;
    const before = acc;
    acc = new Set([...ids, ...necessary]);
    const first = !stored?.ucid;
    const ucid = from?.ucid || stored?.ucid || Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
    const all = readAll();
    const embeddings = [...acc];
    stored = all[c.p] = {
      gen: 2, ucid, consent: embeddings.some((id) => byId(id)?.p !== NECESSARY), embeddings,
      created: from?.created || stored?.created || now(), updated: from?.updated || now(), clickedButton: button, lang, rev: c.r, lrev: from ? from.legalRevision : c.lr,
      iframeConsentDomains: all[c.p]?.iframeConsentDomains || [],
    };
    writeAll(all);
    decided = true;
    if (layer) close();
    else render(0);
    em.forEach((e) => before.has(e.i) && !acc.has(e.i) && wipe(e));
    if (!from) record(button);
    // The click's task ends here (decision stored and sent, banner closed, withdrawn storage deleted);
    // unblocking and the events follow in a task of their own, so neither becomes a long task on a slow
    // device.
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      apply();
      dropUnknown();
      announce(first);
    };
    ch.port2.postMessage(0);
  };

  /* ---------- UI ---------- */
  const h = (tag: string, attrs: Record<string, unknown> = {}, ...kids: (Node | string | false | undefined)[]) => {
    const el = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v as EventListener);
      else if (v !== false && v != null) el.setAttribute(k, v === true ? '' : String(v));
    }
    nativeAppend.apply(el, kids.filter(Boolean) as (Node | string)[]);
    return el;
  };
  const host = h('div', { id: 'ccm-widget' });
  const root = host.attachShadow({ mode: 'open' });
  const vars = Object.entries(th.colors).map(([k, v]) => `--${k}:${v}`).join(';');
  root.append(h('style', {}, `:host{${vars}}${CSS}${th.css}`));
  // The root class of the reference model, so that custom CSS written for it applies unchanged.
  const panel = h('div', { class: 'ccm-root' });
  root.append(panel);
  // The widget lives in <body> so that it inherits the site's font: a face the page loads anyway, where a
  // font of its own costs a lookup in the browser process per weight in the first layout. With the snippet
  // first in <head> there is no body yet: the widget is built now, detached, and inserted by the observer
  // above as soon as the parser adds <body>, which is still before the first frame.
  function show() {
    if (host.isConnected || !doc.body) return;
    doc.body.prepend(host);
    if (layer > 1 || (layer && th.blocking)) focusFirst();
  }

  let layer = 0;
  let returnTo: Element | null = null;
  let sel = new Set<string>();
  const trusted = (ev: Event) => !th.mp || ev.isTrusted;
  const btn = (cls: string, label: string | Node, on: (ev: Event) => void, ariaLabel?: string) =>
    h('button', { type: 'button', class: cls, 'aria-label': ariaLabel, onclick: on }, label);
  const acceptAll = (ev: Event) => trusted(ev) && decide(em.map((e) => e.i), 'acceptAll');
  const declineAll = () => decide([], 'declineAll');
  const save = (ev: Event) => trusted(ev) && decide(sel, 'save');
  const link = (label: string, url: string, blank: boolean) =>
    url && h('a', { href: url, target: blank && '_blank', rel: blank && 'noopener' }, label);
  // Legal pages open in a layer of their own (display mode `direct`, the locale's HTML) or as links.
  let legal = '';
  let legalFrom = 1;
  const legalLinks = () =>
    h('p', { class: 'l' }, ...c.lg.map(([f, direct, blank]) =>
      direct && t(`${f}HtmlCode`)
        ? h('button', { type: 'button', class: 'k', onclick: () => ((legal = f), (legalFrom = layer), render(4)) }, t(f))
        : link(t(f), t(`${f}Url`), blank),
    ));
  const purposes = () => c.pu.filter((p) => p === NECESSARY || em.some((e) => e.p === p));
  const toggle = (label: string, on: boolean, disabled: boolean, mixed: boolean, change: (v: boolean) => void) => {
    const input = h('input', {
      type: 'checkbox', role: th.switchType === 'switch' && 'switch', checked: on, disabled,
      onchange: (ev: Event) => change((ev.target as HTMLInputElement).checked),
    }) as HTMLInputElement;
    input.indeterminate = mixed;
    return h('label', { class: `g ${th.switchType}` }, input, h('span', {}, label));
  };
  const purposeToggle = (p: string) => {
    const ids = em.filter((e) => e.p === p).map((e) => e.i);
    const n = ids.filter((id) => sel.has(id)).length;
    return toggle(bundle().pu[p]![0], fixed(p) || (n > 0 && n === ids.length), fixed(p), n > 0 && n < ids.length, (v) => {
      ids.forEach((id) => (v ? sel.add(id) : sel.delete(id)));
      render(layer);
    });
  };
  const buttonsFor = (list: string[]) => {
    const order = [...list];
    if (c.de && order.includes('accept') && !order.includes('decline')) order.splice(order.indexOf('accept') + 1, 0, 'decline');
    return order.map((b) =>
      b === 'accept'
        ? btn('a', t('widgetFullConsentButtonText'), acceptAll)
        : b === 'decline'
          ? btn('d', t('widgetDeclineButtonText'), declineAll)
          : th.purposesInMain
            ? h('button', { type: 'button', class: 'k', onclick: () => render(2) }, t('widgetSettingsButtonText'))
            : btn('s', t('widgetSettingsButtonText'), () => render(2)),
    );
  };
  const dialog = (title: string, modal: boolean, ...body: (Node | string | false | undefined)[]) =>
    h(
      'div',
      { class: `r ${th.position}`, lang: lang.replace('_', '-') },
      modal && th.blocking && h('div', { class: 'o' }),
      h(
        'div',
        { class: 'b', role: 'dialog', 'aria-modal': modal && 'true', 'aria-labelledby': 'ccm-t' },
        th.logo && h('img', { class: 'i', src: `data:image;base64,${th.logo}`, alt: '' }),
        th.close && layer === 1 && btn('x', '×', close, t('detailsCloseButtonText')),
        h('h2', { id: 'ccm-t' }, title),
        ...body,
        !c.wl && h('p', { class: 'w' }, 'Placet'),
      ),
    );
  const views: Record<number, () => HTMLElement> = {
    4: () => {
      const body = h('div');
      body.innerHTML = t(`${legal}HtmlCode`); // documented as HTML: the only text not escaped
      return dialog(t(legal), true, body, h('div', { class: 'n' }, btn('s', t('detailsCloseButtonText'), () => render(legalFrom))));
    },
    1: () =>
      dialog(
        t('widgetTitle'),
        th.blocking,
        h('p', {}, t('widgetIntroText')),
        th.purposesInMain && h('div', {}, ...purposes().map(purposeToggle), btn('a', t('categoriesSaveButtonText'), save)),
        h('div', { class: 'n' }, ...buttonsFor(th.buttons)),
        legalLinks(),
      ),
    2: () =>
      dialog(
        t('categoriesTitle'),
        true,
        ...purposes().map((p) => h('div', { class: 'p' }, purposeToggle(p), h('p', {}, bundle().pu[p]![1]))),
        th.checkAll && h('p', {}, btn('s', t('checkAllButtonText'), () => ((sel = new Set(em.map((e) => e.i))), render(2))), btn('s', t('uncheckAllButtonText'), () => ((sel = new Set()), render(2)))),
        h('div', { class: 'n' },
          btn('a', t('categoriesSaveButtonText'), save),
          th.settingsAcceptAll && btn('a', t('categoriesFullConsentButtonText'), acceptAll),
          btn('s', t('categoriesCancelButtonText'), back),
          btn('s', t('questionMarkButtonText'), () => render(3)),
        ),
        th.footer && legalLinks(),
      ),
    3: () =>
      dialog(
        t('detailsTitle'),
        true,
        ...purposes().map((p) =>
          h('section', {}, h('h3', {}, bundle().pu[p]![0]),
            ...em.filter((e) => e.p === p).map((e) => {
              const x = texts(e);
              const row = (k: string, v: string | Node) => v && h('div', {}, h('dt', {}, t(k)), h('dd', {}, v));
              return h('details', {},
                h('summary', {}, x[0]),
                toggle(x[0], fixed(p) || sel.has(e.i), fixed(p), false, (v) => (v ? sel.add(e.i) : sel.delete(e.i))),
                h('dl', {},
                  row('embeddingVendorLabel', x[1]),
                  row('embeddingDescriptionLabel', x[2]),
                  row('embeddingPrivacyPolicyUrlLabel', x[3] && h('a', { href: x[3], target: '_blank', rel: 'noopener' }, x[3])),
                  row('embeddingWhichDataIsCollectedLabel', x[4]),
                  row('embeddingPurposeOfDataCollectionLabel', x[5]),
                  row('embeddingLegalBasisLabel', x[6]),
                  row('embeddingPlaceOfProcessingLabel', x[7]),
                ),
                x[11].length > 0 && assetTable(x[11]),
              );
            }),
          ),
        ),
        h('p', { class: 'u' }, 'ucid: ', h('code', {}, stored?.ucid || '–')),
        h('div', { class: 'n' }, btn('a', t('categoriesSaveButtonText'), save), btn('s', t('detailsCloseButtonText'), () => render(2))),
      ),
  };
  const assetTable = (rows: [string, string, string][]) =>
    h('table', {},
      h('tr', {}, ...['embeddingAssetNameLabel', 'embeddingAssetLifetimeLabel', 'embeddingAssetDescriptionLabel'].map((k) => h('th', {}, t(k)))),
      ...rows.map((r) => h('tr', {}, ...r.map((v) => h('td', {}, v)))),
    );
  // Drawn, not a glyph: a symbol such as ⚙ is in no text font, and the system-wide font fallback search it
  // triggers cost more than the rest of closing the banner (a long task at 4× CPU throttling).
  const icon = () => {
    if (!th.icon) return;
    const image = th.iconImage ? h('img', { src: `data:image;base64,${th.iconImage}`, alt: '' }) : '';
    const b = btn('c', image, () => open(th.iconTarget === 'main' ? 1 : 2), t('changeConsentText'));
    if (!th.iconImage) b.innerHTML = ICON;
    return b;
  };
  function render(n: number) {
    const wasOpen = layer > 0;
    layer = n;
    panel.replaceChildren(...(n ? [views[n]!()] : decided || implicit || gpc || dnt ? [icon() || ''] : []));
    if (n && (n > 1 || th.blocking || wasOpen)) focusFirst();
  }
  function focusFirst() {
    panel.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }
  function open(n: number) {
    if (!layer) returnTo = doc.activeElement;
    sel = new Set(acc);
    render(n);
  }
  function close() {
    if (!layer) return;
    render(0);
    // Focus goes back where it was; the body needs no focus() call (and the forced layout it costs).
    if (returnTo !== doc.body) (returnTo as HTMLElement | null)?.focus?.();
    dispatch('ccm19WidgetClosed');
  }
  function back() {
    if (decided) close();
    else render(1);
  }
  root.addEventListener('keydown', (ev) => {
    const e = ev as KeyboardEvent;
    if (!layer) return;
    if (e.key === 'Escape') {
      if (layer === 4) render(legalFrom);
      else if (layer === 3) render(2);
      else if (layer === 2) back();
      else if (decided || th.close) close();
    } else if (e.key === 'Tab' && (layer > 1 || th.blocking)) {
      const f = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
      const i = f.indexOf(root.activeElement as HTMLElement);
      const next = e.shiftKey ? (i <= 0 ? f.length - 1 : i - 1) : i === f.length - 1 ? 0 : i + 1;
      f[next]?.focus();
      e.preventDefault();
    }
  });

  /* ---------- iframe placeholder ---------- */
  function placeholder(f: HTMLIFrameElement, owner: EmbeddingConfig | undefined): HTMLElement {
    const ph = h('div', { class: 'ccm-blocked', style: `width:${f.width ? `${f.width}px` : '100%'};height:${f.height || 150}px;max-width:100%` });
    const sr = ph.attachShadow({ mode: 'open' });
    const x = owner ? texts(owner) : undefined;
    const blocked = new URL(f.getAttribute(ATTR) || '', here);
    const accept = (ev: Event) => {
      if (!trusted(ev)) return;
      if (owner) decide([...acc, owner.i], 'acceptEmbedding');
      else {
        const host = blocked.host;
        if (c.ri) {
          // rememberIframeConsentPerDomain: this host's iframes load from now on, on every page.
          const all = readAll();
          const entry = (all[c.p] = all[c.p] || ({} as Stored));
          entry.iframeConsentDomains = [...(entry.iframeConsentDomains || []), host];
          writeAll(all);
        }
        for (const item of blockedFrames.slice()) {
          if (item[0] === f || (c.ri && !item[2] && new URL(item[0].getAttribute(ATTR) || '', here).host === host)) unblockFrame(item);
        }
      }
    };
    sr.append(
      h('style', {}, `:host{${vars};display:block}${CSS}${th.iframeCss}`),
      // The blocked host as a class, as the reference model sets it for customCssForIframeBlocker
      // (`domain--www-google-com`); here on the overlay's root element.
      h('div', { class: `f domain--${blocked.hostname.replace(/\W/g, '-')}`, lang: lang.replace('_', '-') },
        h('strong', {}, x?.[8] || t('blockedContentTitle')),
        h('p', {}, x?.[9] || t('blockedContentDisclaimer')),
        owner && h('p', {}, x![0]),
        btn('y', x?.[10] || t('blockedContentConsentButtonText'), accept),
      ),
    );
    f.style.display = 'none';
    // hideIframesUntilConsent: no overlay either, the space stays empty until the embedding is accepted.
    if (owner?.hi) ph.style.visibility = 'hidden';
    // A frame caught on its way into the page has no parent yet: place the overlay once it is inserted.
    if (f.parentNode) f.before(ph);
    else queueMicrotask(() => f.isConnected && !ph.isConnected && f.before(ph));
    return ph;
  }

  /* ---------- cookie declaration, hash links, API ---------- */
  const declaration = () =>
    doc.querySelectorAll('.ccm-cookie-declaration').forEach((el) => {
      // data-lang: this declaration in that locale of the domain, whatever language the banner shows.
      const visitors = lang;
      lang = localeFor(el.getAttribute('data-lang') || lang) || lang;
      el.replaceChildren(
        c.cd[2] ? h('p', {}, t('widgetIntroText')) : '',
        c.cd[1] ? h('p', {}, h('a', { href: '#CCM.openControlPanel' }, t('changeConsentText'))) : '',
        ...purposes().map((p) =>
          h('div', {}, h(`h${c.cd[0]}`, {}, bundle().pu[p]![0]),
            ...em.filter((e) => e.p === p).map((e) => h('div', {}, h(`h${c.cd[0] + 1}`, {}, texts(e)[0]), h('p', {}, texts(e)[2]), assetTable(texts(e)[11])))),
        ),
      );
      lang = visitors;
    });
  const hashAction = (hash: string) => {
    const fn = (api as Record<string, unknown>)[hash.replace(/^#CCM\./, '')];
    if (/^#CCM\./.test(hash) && typeof fn === 'function') (fn as () => void)();
  };
  doc.addEventListener('click', (ev) => {
    const a = (ev.target as Element | null)?.closest?.('a[href^="#CCM."]');
    if (a) {
      ev.preventDefault();
      hashAction(a.getAttribute('href')!);
    }
  });
  const api = {
    get acceptedEmbeddings() {
      return em.filter(allowed).map((e) => ({ id: e.i, name: texts(e)[0] }));
    },
    get acceptedCookies() {
      return em.filter(allowed).flatMap((e) => e.a.map((a) => a[0]));
    },
    get consent() {
      return decided;
    },
    /** Whether this visitor must be asked at all: false only outside the area of enableOnlyInEu. */
    get consentRequired() {
      return !c.oe;
    },
    get fullConsentGiven() {
      return decided && em.every((e) => acc.has(e.i));
    },
    get ucid() {
      return stored?.ucid || null;
    },
    openWidget: () => open(1),
    closeWidget: close,
    openControlPanel: () => open(2),
    closeControlPanel: close,
    availableLocales: () => Object.keys(c.loc),
    switchLocale: (n: string) => {
      if (c.loc[n]) {
        lang = n;
        render(layer);
        declaration();
      }
    },
    /** Deprecated: a decision no longer travels as a string built in the page; always empty. */
    crossDomainConsentString: '',
    /** `url` with a fresh hand-over when it is another origin of the set (consentSharingCrossDomain). */
    handoverUrl: handover,
    /** Navigates to `url`, carrying the decision when it is another origin of the set (consentSharingCrossDomain). */
    navigate: (url: string, replace?: boolean, navigateTop?: boolean) =>
      handover(url).then((next) => {
        const target = navigateTop ? (w.top || w).location : location;
        // A cross-origin top frame's Location allows only replace() and setting href.
        if (replace) target.replace(next);
        else target.href = next;
      }),
    version: '1',
  };
  w.CCM = api;

  /** deleteUnknownCookies: first-party cookies that no embedding declares are removed (and, optionally, the page reloaded once). */
  const dropUnknown = () => {
    if (!c.du) return;
    const declared = em.flatMap((e) => e.a.filter((a) => a[1] === 'cookie').map((a) => pattern(a[0])));
    const unknown = cookieNames().filter((n) => n !== KEY && !declared.some((re) => re.test(n)));
    unknown.forEach(dropCookie);
    try {
      if (unknown.length && c.du === 2 && !sessionStorage.getItem('ccm_reloaded')) {
        sessionStorage.setItem('ccm_reloaded', '1');
        location.reload();
      }
    } catch {
      // no session storage: no reload either, which could otherwise repeat forever
    }
  };

  if (c.sx) {
    // Links are handled as they are used (mouse, touch, keyboard, middle click), so links added later and
    // decisions changed later are covered; forms when submitted (not form.submit(), which fires no event).
    // A token asked for on mousedown is usually there by the click; a click in this window waits for it
    // (1.5 s at most), a new tab or window gets it only if it is there.
    let soon: { href: string; p: Promise<string | undefined>; token?: string | undefined } | undefined;
    const linkOf = (ev: Event) => (ev.composedPath()[0] as Element | null)?.closest?.('a[href],area[href]') as HTMLAnchorElement | null;
    const early = (ev: Event) => {
      const u = linkOf(ev) && crossing(linkOf(ev)!.href);
      if (u && soon?.href !== u.href) {
        const entry: NonNullable<typeof soon> = (soon = { href: u.href, p: tokenFor(u) });
        entry.p.then((token) => (entry.token = token));
      }
    };
    ['mousedown', 'touchstart', 'keydown'].forEach((type) => doc.addEventListener(type, early, true));
    const follow = (ev: Event) => {
      const a = linkOf(ev);
      const u = a && crossing(a.href);
      if (!u) return;
      const mine = soon?.href === u.href ? soon : undefined;
      soon = undefined;
      a!.href = withToken(u, mine?.token);
      const m = ev as MouseEvent;
      if (mine?.token || !decided || ev.type !== 'click' || m.button || m.ctrlKey || m.metaKey || m.shiftKey || m.altKey || !/^(_self)?$/.test(a!.target) || a!.hasAttribute('download')) return;
      ev.preventDefault();
      (mine?.p || tokenFor(u)).then((token) => (location.href = withToken(u, token)));
    };
    ['click', 'auxclick'].forEach((type) => doc.addEventListener(type, follow, true));
    doc.addEventListener('submit', (ev) => {
      const f = ev.target as HTMLFormElement;
      const u = crossing(f.action);
      if (!u) return;
      f.action = u.href;
      // Submitted later, a form for another window would lose the click that allows it to open one.
      if (!decided || !/^(_self)?$/.test(f.target)) return;
      ev.preventDefault();
      const sub = (ev as SubmitEvent).submitter as HTMLButtonElement | null;
      tokenFor(u).then((token) => {
        f.action = withToken(u, token);
        // submit() sends no submitter: its name and value go along as a hidden field.
        if (sub?.name) f.append(h('input', { type: 'hidden', name: sub.name, value: sub.value }));
        HTMLFormElement.prototype.submit.call(f);
      });
    }, true);
  }

  /* ---------- start ---------- */
  const onLegalPage = ['imprintUrl', 'privacyPolicyUrl'].some((k, i) => t(k) && !c.sw[i] && here.split('#')[0] === t(k));
  apply();
  if ((decided && !held) || implicit) announce(false);
  // GPC (and DNT where the theme honours it) count as "declined until the visitor opts in": no banner.
  const quiet = () => decided || implicit || gpc || (dnt && th.dnt) || onLegalPage;
  if (quiet()) render(0);
  else if (!received) open(1);
  if (received) {
    // Placet logs the hand-over, then answers the decision. Until then (2 s at most) there is no banner,
    // and nothing optional runs either.
    const asked = post(`${HO}/redeem`, {
      apiKey: c.k, domain: c.d, token: received, lang, revision: c.r, legalRevision: c.lr, themeId: th.id, gpc, dnt,
      held: decided ? { ucid: stored!.ucid, updated: Date.parse(stored!.updated) || 0 } : undefined,
    });
    asked.then((x: HandedOver) => {
      if (decidedHere) return;
      if (held) acc = storedSet();
      decide(x.embeddings.filter(byId), 'handover', x);
    }, () => 0);
    within(asked, 2000).then(() => {
      if (held) {
        held = false;
        acc = storedSet();
        apply();
        announce(false);
      }
      if (!quiet() && !layer) open(1);
    });
  }
  if (location.hash) hashAction(location.hash);
  show();
  const ready = () => {
    // A document without <body> (an SVG or XML page) gets the widget on its root element.
    if (!doc.body && !host.isConnected) doc.documentElement.append(host);
    apply();
    dropUnknown();
    declaration();
    dispatch('ccm19WidgetLoaded');
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', ready);
  else ready();
}
