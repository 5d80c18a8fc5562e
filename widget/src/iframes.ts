/**
 * Blocking of iframes: a frame an embedding's iframeMarkers name (or, by the domain's iframe block mode, any
 * other third-party frame) loses its address (kept in `data-ccm-blocked`) and gets a placeholder in a shadow
 * root until its embedding is accepted (or, for a frame of no embedding, its own button is clicked).
 */
import { inSet, shareInto } from './handover.js';
import type { EmbeddingConfig } from './types.js';
import { c, em, S, type Stored, th } from './state.js';
import { allowed, decide, readAll, writeAll } from './storage.js';
import { t, texts } from './i18n.js';
import { ATTR, has } from './scripts.js';
import { CSS } from './style.js';
import { btn, h, toggle, trusted, vars } from './ui/dom.js';
import { openLayer } from './ui/layers.js';
import { T } from './text-fields.js';

export const blockedFrames: [HTMLIFrameElement, HTMLElement, EmbeddingConfig | undefined][] = [];

/** The address the widget gave each frame it unblocked. */
const given = new WeakMap<HTMLIFrameElement, string>();

export const remembered = () => readAll()[c.p]?.iframeConsentDomains || [];

/** Whether a frame at `src` that no embedding's iframeMarkers name is blocked (undefined: by the iframe block mode). */
const unclaimed = (src: string): undefined | false => {
  if (!/^https?:|^\/\//.test(src)) return false;
  const url = new URL(src, S._here);
  // The hosts of a configured sharing set are the site's own: their frames are not third-party content
  // (this exemption is for the "everything else" of the whitelist mode, never for an embedding's markers).
  if (url.origin == location.origin || (c.sd.length > 0 && inSet(url.hostname))) return false;
  if (remembered().includes(url.host)) return false;
  const listed = has(src, c.im);
  return (c.iw ? !listed : listed) && undefined;
};

/**
 * The attribute that holds a frame's address. An `<object data>` or `<embed src>` with a web page loads it as a frame
 * does (measured in Chromium 156: YouTube's embed address in either reached YouTube, and ran there, with the widget of
 * stop 48, which checked iframes only); both are held and released as iframes are, by the iframe markers.
 */
const AT: Record<string, string | undefined> = { iframe: 'src', object: 'data', embed: 'src' };

/** Also whether `f` is a frame at all (an iframe, `<object>` or `<embed>`; undefined otherwise). `f` may be null: the parent of a text node removed since its record was made. */
export const at = (f: Node | null) => AT[(f as Element | null)?.localName as string];

const SRCDOC = 'data-ccm-srcdoc';

/** Moves attribute `from` of `f` to `to` (nothing when it is absent); returns its value. */
const rename = (f: Element, from: string, to: string) => {
  const v = f.getAttribute(from);
  if (v != null) {
    f.setAttribute(to, v);
    f.removeAttribute(from);
  }
  return v;
};

/**
 * What blocks a frame at `src` whose embedding (by its iframeMarkers) is `e`: that embedding (its markers win over every
 * exemption of `unclaimed`, same origin included), undefined for a frame of no embedding, false when nothing does.
 */
const holder = (src: string, e: EmbeddingConfig | undefined) => c.bi && (e ? !allowed(e) && e : unclaimed(src));

/**
 * Markup a script inserts as a string (`innerHTML`, `insertAdjacentHTML`, `outerHTML`; scripts.ts, patch): a frame in
 * it starts its request as the markup is inserted, before the observer can hold it (Chromium starts the navigation
 * then; lite-youtube and lite-vimeo facades write their player so on a click, Mux's elements into their shadow root).
 * A frame that would be held gets its address as `data-ccm-src` instead, which loads nothing, and is then held as
 * any `data-ccm-src` frame; every other frame is left as written. Only where it would load: `src` or `data` after
 * whitespace in an `<iframe>`, `<object>` or `<embed>` start tag.
 */
export const inert = (m: string) =>
  m.replace(/(<(?:iframe|object|embed)\b[^>]*?\s)(?:src|data)=(["']?)([^"'\s>]*)/gi, (all, pre: string, q: string, u: string) =>
    holder(u, em.find((x) => has(u, x.fm))) === false ? all : `${pre}data-ccm-src=${q}${u}`);

/**
 * `changed`: its `src` was set in place (scripts.ts, `seen`). In the cross-domain variant a frame that may load is then
 * left as it is: the hand-over sets its `src` itself and would start again. The base widget treats it as inserted.
 */
export const checkFrame = (f: HTMLIFrameElement, changed?: unknown, v?: string) => {
  const a = at(f)!;
  // The address it has, or the one a script is setting (`v`, from the hook below; not set yet).
  const cur = v ?? f.getAttribute(a);
  const held = blockedFrames.find((x) => x[0] == f);
  // A frame the widget let load is left alone while it keeps that address (moved, or the widget's own `src` reported
  // back); another one a page script sets (a gallery's next video, perhaps of a service not accepted) is checked.
  if (given.get(f) === cur || (held && !cur)) return;
  // Held, and a page script set an address again (a video gallery's thumbnail, a play button): the old hold goes and
  // the new address is checked as any other, so it neither loads nor waits under another embedding's overlay.
  if (held) release(held);
  // `data-ccm-src` instead of `src` guarantees that not even a request leaves before consent.
  const src = cur || f.getAttribute('data-ccm-src') || '';
  // A frame's `srcdoc` is what it shows when it has one, whatever its `src`: the widespread lazy YouTube frame (a
  // thumbnail from img.youtube.com linking to the player, CSS-Tricks' pattern) or a player written into it. Its markup
  // is matched with the address (a `null` appended when there is none matches no marker).
  const d = f.getAttribute('srcdoc');
  const e = em.find((x) => has(src + d, x.fm));
  const owner = holder(src, e);
  if (owner === false) {
    if (__PLACET_SX__ && changed) return;
    // A frame that deferred its address to us (`data-ccm-src`) gets it now that nothing blocks it. Later, not
    // now: Chromium ignores a src set on a parser-inserted frame in the observer's callback (it stays blank).
    if (!cur && src) setTimeout(() => f.setAttribute(a, src));
    if (__PLACET_SX__) shareInto(f);
    if (__PLACET_OPT__ && e) consentSwitch(f, e);
    return;
  }
  f.setAttribute(ATTR, src);
  // A frame written with `src` in the HTML started its navigation when the parser inserted it, before any script
  // saw it. Taking its `src` away does not stop that navigation, and neither did `about:blank`: when the vendor's
  // answer was already on its way to the frame's own process (site isolation), the vendor's page committed after
  // the blank one and stayed, running and hidden (measured at 20× CPU: 9 of 10 pages). Moving the frame ends its
  // browsing context with whatever was loading; it comes back as a frame without an address (the initial empty
  // document, no navigation at all; test/real-snippets.browser.test.ts). A `data-ccm-src` frame never had one.
  // A held frame's `srcdoc` waits in `data-ccm-srcdoc`: left in place, the move below loaded it again (its thumbnail
  // was requested from Google before consent, measured in Chromium 156).
  if (rename(f, 'srcdoc', SRCDOC) || f.getAttribute(a)) {
    f.removeAttribute(a);
    if (f.parentNode) f.after(f);
  }
  const ph = placeholder(f, owner);
  // Held: the hook below keeps the address it was given from the frame.
  return blockedFrames.push([f, ph, owner]);
};

/**
 * A frame's request leaves the moment a script sets its address, before the observer can report the change (a video
 * gallery's `player.src = …` on the frame the widget holds: under load Chromium sent it in 1 of 4 runs of the test,
 * and once in CI): `setAttribute` and the iframe's `src` setter check the address first and set it only if nothing
 * holds the frame.
 */
export const hookFrames = () => {
  const p = Element.prototype;
  const set = p.setAttribute;
  p.setAttribute = function (this: Element, n: string, v: string) {
    if (!(n == at(this) && this.isConnected && checkFrame(this as HTMLIFrameElement, 1, v))) set.call(this, n, v);
  };
  const q = HTMLIFrameElement.prototype;
  Object.defineProperty(q, 'src', {
    ...Object.getOwnPropertyDescriptor(q, 'src'),
    set(this: Element, v: string) {
      this.setAttribute('src', v);
    },
  });
};

/** Frames of embeddings accepted now load. */
export const applyFrames = () => {
  for (const item of blockedFrames.slice()) if (item[2] && allowed(item[2])) unblockFrame(item);
};

/** The frame as it was before it was held, without an address. */
const release = (item: (typeof blockedFrames)[number]) => {
  const [f, ph] = item;
  blockedFrames.splice(blockedFrames.indexOf(item), 1);
  f.removeAttribute(ATTR);
  f.style.display = '';
  ph.remove();
  // Its `srcdoc`, or null when it had none.
  return rename(f, SRCDOC, 'srcdoc');
};

export const unblockFrame = (item: (typeof blockedFrames)[number]) => {
  const f = item[0];
  const src = f.getAttribute(ATTR)!;
  given.set(f, src);
  // A frame with a `srcdoc` (given back by `release`) shows that: given its `src` as well, Chromium now and then loaded
  // the `src` instead (the lazy YouTube frame's player, before the visitor clicked its thumbnail; 1 of 5 test runs).
  // The expression form: as an `if` it came out 5 B of brotli larger, past the budget (2026-11-29).
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions
  release(item) ?? f.setAttribute(at(f)!, src);
  if (__PLACET_SX__) shareInto(f);
  if (__PLACET_OPT__ && item[2]) consentSwitch(f, item[2]);
};

/** appendConsentSwitchToIframes: a switch under a loaded frame withdraws its embedding; the page reloads to block it again. */
export const consentSwitch = (f: HTMLIFrameElement, e: EmbeddingConfig) => {
  // Once per frame: a frame whose address is set again is checked again.
  if (!c.cs || f.nextElementSibling?.className == 'ccm-switch') return;
  const bar = h('div', { class: 'ccm-switch' });
  bar.attachShadow({ mode: 'open' }).append(
    h('style', {}, `:host{${vars}}${CSS}`),
    toggle(`${t(T.blockedContentConsentSwitchAllowEmbedding)}: ${texts(e)[0]}`, true, false, false, (v) => {
      if (v) return;
      decide([...S.acc].filter((id) => id != e.i), 'save');
      location.reload();
    }),
  );
  if (f.parentNode) f.after(bar);
  else queueMicrotask(() => f.isConnected && f.after(bar));
};

export function placeholder(f: HTMLIFrameElement, owner: EmbeddingConfig | undefined): HTMLElement {
  const ph = h('div', { class: 'ccm-blocked', style: `width:${f.width ? `${f.width}px` : '100%'};height:${f.height || 150}px;max-width:100%` });
  const sr = ph.attachShadow({ mode: 'open' });
  const x = owner && texts(owner);
  const blocked = new URL(f.getAttribute(ATTR)!, S._here);
  let always = c.ri;
  const accept = (ev: Event) => {
    if (!trusted(ev)) return;
    if (owner) decide([...S.acc, owner.i], 'acceptEmbedding');
    else {
      const host = blocked.host;
      if (always) {
        // rememberIframeConsentPerDomain: this host's iframes load from now on, on every page.
        const all = readAll();
        const entry = (all[c.p] = all[c.p] || ({} as Stored));
        entry.iframeConsentDomains = [...(entry.iframeConsentDomains || []), host];
        writeAll(all);
      }
      for (const item of blockedFrames.slice()) {
        if (item[0] == f || (always && !item[2] && new URL(item[0].getAttribute(ATTR)!, S._here).host == host)) unblockFrame(item);
      }
    }
  };
  sr.append(
    h('style', {}, `:host{${vars};display:block}${CSS}${th.iframeCss}`),
    // The blocked host as a class, as the reference model sets it for customCssForIframeBlocker
    // (`domain--www-google-com`); here on the overlay's root element.
    h('div', {
      class: `f domain--${blocked.hostname.replace(/\W/g, '-')}`, lang: S.lang.replace('_', '-'),
      // A YouTube or Vimeo frame shows its preview image, served by Placet from the frame's host and path
      // (docs/widget.md, "Video previews"): the browser never asks the video host before consent. Placet
      // answers 4xx for any other address, and then the overlay simply has no image.
      style: c.vp && /youtube|vimeo/.test(blocked.host) && `background:url("${c.vp}${blocked.host}${blocked.pathname}") center/cover`,
    },
      h('strong', {}, x?.[8] || t(T.blockedContentTitle)),
      h('p', {}, x?.[9] || t(T.blockedContentDisclaimer)),
      owner && h('p', {}, x![0]),
      btn('y', x?.[10] || t(T.blockedContentConsentButtonText), accept),
      // The reference model's iframe-blocker texts: for a frame of no embedding, the visitor's own "always show
      // external content" (remembers the host, as rememberIframeConsentPerDomain does for everyone); for an
      // embedding's frame, its provider and "more information" opening the details layer.
      owner
        ? h('details', {}, h('summary', {}, t(T.blockedContentConsentSwitchProviderDetails)), h('p', {}, x![1]), btn('k', t(T.moreInformationLabel), () => openLayer(3)))
        : toggle(t(T.blockedContentConsentSwitchShowExternalContent), always, false, false, (v) => (always = v)),
    ),
  );
  f.style.display = 'none';
  // hideIframesUntilConsent: no overlay either, the space stays empty until the embedding is accepted.
  if (__PLACET_OPT__ && owner?.hi) ph.style.visibility = 'hidden';
  // A frame caught on its way into the page has no parent yet: place the overlay once it is inserted.
  if (f.parentNode) f.before(ph);
  else queueMicrotask(() => f.isConnected && !ph.isConnected && f.before(ph));
  return ph;
}
