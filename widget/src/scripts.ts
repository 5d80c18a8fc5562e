/**
 * Blocking of scripts, and the hooks through which every script and iframe passes: the patched DOM
 * insertion methods (scripts that other scripts add) and a MutationObserver (what the parser adds). A blocked
 * script gets `type="text/plain"` and runs, as a copy, once its embedding is accepted.
 */
import { c, doc, em, S, w } from './state.js';
import { applyFrames, at, checkFrame, hookFrames, inert } from './iframes.js';
import { allowed } from './storage.js';
import { show } from './ui/layers.js';

export const BLOCKED = 'text/plain';

export const ATTR = 'data-ccm-blocked';

/**
 * Markers arrive lower-cased from the server (widget-config.ts), so matching ignores case: `any` takes a string
 * already lower-cased (a script's key, once per check), `has` lower-cases its own.
 */
const any = (l: string, markers: string[]) => markers.some((m) => l.includes(m));

export const has = (s: string, markers: string[]) => any(s.toLowerCase(), markers);

export const blockedScripts: HTMLScriptElement[] = [];

/**
 * Whether a script stays blocked: its address and text against the domain's lists and every embedding's markers,
 * lower-cased once, not once per list (issue #22: a large page has a hundred scripts, each checked against about a
 * dozen lists on a domain with four embeddings, and again when accepted). blockNewScripts (`ns`): a script no
 * embedding claims is blocked for good (third-party; first-party and inline by option), unless the agency ignored
 * it in the found-items list (`ig`, docs/found-items.md).
 */
export const blocks = (el: HTMLScriptElement) => {
  const src = el.getAttribute('src');
  const key = `${src || ''} ${el.src} ${el.text}`.toLowerCase();
  if (any(key, c.am)) return false;
  if (any(key, c.bm) || em.some((e) => !allowed(e) && any(key, e.sm))) return true;
  if (!c.ns[0] || any(key, c.ig) || em.some((e) => any(key, e.sm))) return false;
  return src ? new URL(src, S._here).origin != location.origin || c.ns[1] : c.ns[2];
};

/** `changed`: its `src` was set in place (seen, below): the script was prepared then, and only `evict` stops it. */
export const checkScript = (el: HTMLScriptElement, changed?: unknown) => {
  if (el == S._own || S._approved.has(el) || el.hasAttribute(ATTR)) return;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (type == 'text/x-ccm-loader') {
    el.setAttribute(ATTR, 'l');
    blockedScripts.push(el);
    return;
  }
  // Partytown's scripts (`text/partytown`: Next.js `strategy="worker"`, Astro's and Nuxt's integrations) are run by its
  // library in a web worker, not by the browser: checked like any, or Google's tag ran there before consent.
  if (type && !/^(text|application)\/(java|ecma)script$|^module$|^text\/partytown$/.test(type)) return;
  if (!blocks(el)) {
    // The parser can hand over an inline script before all of its text has arrived (it paused after the start
    // tag, or between two network chunks of the text): such a script ran before consent. While the page loads,
    // an inline script's text is watched and checked again as it grows; the last check is at its end tag, before
    // it can run (seen below; `watched` keeps the parse-time watch from narrowing these options).
    if (!el.src && doc.readyState == 'loading') {
      watched.add(el);
      mo.observe(el, { childList: true, characterData: true, subtree: true });
    }
    return;
  }
  if (changed) return evict(el);
  el.setAttribute('data-ccm-type', type);
  el.setAttribute(ATTR, '1');
  el.type = BLOCKED;
  blockedScripts.push(el);
};

/** One node: a script, a frame, or the host of a shadow root. */
const one = (n: Node) => {
  if (n instanceof HTMLScriptElement) return checkScript(n);
  if (at(n)) checkFrame(n as HTMLIFrameElement);
  // A declarative shadow root (`<template shadowrootmode>` in the HTML, a server-rendered component's) that the parser
  // attached: observed from now on, and what it holds checked, before the parser runs a script in it. Its host is a
  // node reported to the observer, or an undefined custom element in one (`:not(:defined)` below). Each time its host
  // is checked (observing a root again changes nothing; what was held or let through is passed by).
  const r = (n as Element).shadowRoot;
  if (r) shadow(r);
};

/** A node and everything in it. */
export const check = (n: Node) => {
  one(n);
  // Only an element or a fragment with element children can hold a script or a frame: text and leaves cost one
  // property read, not a query (issue #22: the parser adds tens of thousands of them on a large page). An <object>
  // can: its fallback content (an <embed>, an <iframe>) is connected, and an iframe in it loads. What the query finds
  // is checked alone: its own content is in the query's result already (a nested custom element's subtree queried
  // again at each level would cost a server-rendered app of nested components a multiple of its size).
  if ((n as ParentNode).firstElementChild) (n as ParentNode).querySelectorAll('script,iframe,object,embed,:not(:defined)').forEach(one);
};

/** While the parser runs (issue #22), the observer watches only the elements the parser may still append to. */
let parsing = false;
const watched = new WeakSet<Node>();
let mo: MutationObserver;

/**
 * Watches `n` and its ancestors, then the chain of last element children below it: the parser's open elements
 * are that chain, except what foster parenting moves out of a table, which goes just before it.
 */
const watch = (n: Node | null | undefined): void => {
  for (let a = n; a && !watched.has(a); a = a.parentNode) {
    watched.add(a);
    mo.observe(a, { childList: true });
  }
  if ((n as Element)?.localName == 'table') watch((n as Element).previousElementSibling);
  const e = (n as Element)?.lastElementChild;
  if (e) watch(e);
};

/** Observes a shadow root's whole tree and checks what it holds. */
const shadow = (r: ShadowRoot) => {
  // The parse-time watch must not narrow this registration (observe replaces a node's options).
  watched.add(r);
  mo.observe(r, { childList: true, subtree: true, attributeFilter: ['src', 'data'] });
  check(r);
  return r;
};

/**
 * The whole document: from the start every `src` set on an element already in it, and once the page is parsed every
 * insertion anywhere too.
 */
const wide = (e?: unknown) => {
  // Addresses set in place (seen, below) in the whole document from the start, while the parser still runs too (a lazy
  // loader can start a frame then); every insertion once the page is parsed (`e`: the readystatechange event, or 1).
  parsing = !e;
  mo.observe(doc, { childList: !!e, subtree: true, attributeFilter: ['src', 'data'] });
};

// Scripts and iframes added by other scripts pass through the DOM insertion methods. Only insertions
// into the document count: nothing in a detached tree runs or loads, and the tree is checked as a whole
// when it is inserted. That also keeps building the widget's own UI (many small appends) cheap. HTML strings
// (innerHTML, insertAdjacentHTML …) run no script; a frame in them that would be held is made inert first (inert, in
// iframes.ts: it starts its request as it is inserted, before the observer can hold it), and is then the observer's.
// While the parser runs, a script inserting next to an element the parser still has open (custom element
// callbacks, document.write) could take that element off the last-child chain: the place of every insertion,
// its parent and their chains are watched first, so the parser's later appends there stay visible.
export const patch = (proto: object, names: string[]) =>
  names.forEach((m) => {
    const d = Object.getOwnPropertyDescriptor(proto, m) as Record<string, (...a: unknown[]) => unknown>;
    const k = d?.set ? 'set' : 'value';
    const orig = d?.[k];
    if (!orig) return;
    d[k] = function (this: Node & Range, ...args: unknown[]) {
      const at = this.startContainer || this;
      if (at.isConnected) {
        if (parsing) {
          // An editing command inserts markup where the watch cannot follow: the whole document from then on.
          if (at == doc) wide(1);
          watch(at);
          watch(at.parentNode);
        }
        // A node is checked before it is inserted; markup's frames are made inert if they would be held (iframes.ts).
        args = args.map((a) => (a instanceof Node ? check(a) : typeof a == 'string' && /HTML/.test(m) && (a = inert(a)), a));
      }
      return orig.apply(this, args);
    };
    Object.defineProperty(proto, m, d);
  });

/**
 * Checks what was added. While parsing, the parser's newly opened elements hang off the last-child chain of the
 * element it appended to, which is always a record's target: one `watch` per target, not per added element.
 */
const seen = (records: MutationRecord[]) => {
  let t: Node | undefined;
  records.forEach((r) => {
    // More text of an inline script (see checkScript): a text node added to it, or text added to that node. Or (wide)
    // an address set on an element already in the page (`r.attributeName`): a lazily loaded
    // frame (WP Rocket's LazyLoad, LiteSpeed's delayed frames), or a performance plugin's delayed script, which WP
    // Rocket runs in Chromium by taking its type away and setting its `src` in place.
    const el = r.target.nodeType == 3 ? r.target.parentNode : r.target;
    if (el instanceof HTMLScriptElement) checkScript(el, r.attributeName);
    else if (at(el)) checkFrame(el as HTMLIFrameElement, 1);
    r.addedNodes.forEach(check);
    if (parsing && r.target != t) watch((t = r.target));
  });
};

/**
 * A script runs only in the document it was prepared in (HTML, "execute the script element"): moved to a new one, it
 * never runs, and a copy, checked on its way in, takes its place. It fires neither `load` nor `error` there, so it
 * gets an `error`: a loader that waits for it (WP Rocket runs its delayed scripts one by one) goes on with the next.
 */
const evict = (el: HTMLScriptElement) => {
  el.replaceWith(el.cloneNode(true));
  new Document().append(el);
  el.dispatchEvent(new Event('error'));
};

export const hook = () => {
  patch(Node.prototype, ['appendChild', 'insertBefore', 'replaceChild']);
  patch(Element.prototype, ['append', 'prepend', 'before', 'after', 'replaceWith', 'replaceChildren', 'insertAdjacentElement', 'moveBefore', 'innerHTML', 'outerHTML', 'insertAdjacentHTML', 'setHTMLUnsafe']);
  patch(CharacterData.prototype, ['before', 'after', 'replaceWith']);
  // A shadow root (a web component's: Mux's <youtube-video>, <lite-youtube>) is outside the document's tree, so neither
  // the observer nor the query of an inserted element sees into it: the players these components build in it loaded
  // and ran before consent. Each is observed whole from its creation (what it is given before its host is inserted is
  // checked too), and, a fragment, has ParentNode's methods of its own, patched as an element's.
  patch(DocumentFragment.prototype, ['append', 'prepend', 'replaceChildren']);
  patch(ShadowRoot.prototype, ['innerHTML', 'setHTMLUnsafe']);
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, o: ShadowRootInit) {
    return shadow(attach.call(this, o));
  };
  patch(Range.prototype, ['insertNode', 'surroundContents']);
  hookFrames();
  // Loader markup printed before the snippet (a WordPress plugin's wp_head hook that runs first) is inert until
  // now: it was never seen by the observer below and stayed silent after consent.
  doc.querySelectorAll('script[type="text/x-ccm-loader" i]').forEach(check);
  // A script printed before the snippet (WordPress prints the enqueued head scripts before a snippet hooked at the
  // default priority, as the established product's guide has it) was never seen either, but one that has not run
  // yet can still be stopped: a script runs only in the document it was prepared in (HTML, "execute the script
  // element"), so it moves to another one, and a blocked copy takes its place (checked on the way in by the patched
  // `replaceWith`) to run after consent. That is an async script whose response has not arrived (no resource
  // timing entry yet; one that has arrived ran while the widget loaded) or a deferred one; a classic one has run.
  // Only those above the widget's own tag: what the served script's prefix appends after it (the found-items
  // reporter, the TCF chunk) is Placet's own.
  for (const el of doc.scripts) {
    if (el == S._own) break;
    if (el.src && (el.async ? !performance.getEntriesByName(el.src)[0] : el.defer) && blocks(el)) evict(el);
  }
  // A copy is never the parser's: `document.write` in it would replace the whole page (inline code: the visitor
  // clicked "accept" and the page went blank) or be ignored (external code). Old tags write their library so
  // (Matomo's and Google Analytics' legacy code, reCAPTCHA behind a check, Baidu's, ad tags): what a copy writes is
  // collected while it runs (a tag may write a start tag, the code and the end tag in three calls) and then put
  // right after it (written, below). The page's own scripts keep the browser's write, except while the page loads
  // for markup that holds something to block: a script written so runs inside the write, before the observer could
  // stop it, so that markup is put after the writer by the widget instead, checked.
  (['write', 'writeln'] as const).map((k) => {
    const native = doc[k];
    doc[k] = function (this: Document, ...a: string[]) {
      const s = (__PLACET_OPT__ && evaluating) || doc.currentScript!;
      const h = a.join('') + (k > 'write' ? '\n' : '');
      let f: DocumentFragment;
      if (S._approved.has(s)) {
        // An inline copy has run when runScript's insertion returns (written there); an external one, at the next
        // microtask checkpoint, right after it ran. A microtask that finds nothing left inserts an empty fragment.
        queueMicrotask(written);
        out += h;
        writer = s;
      } else if (doc.readyState == 'loading' && s && (f = parsed(h)).querySelector(`[${ATTR}]`)) written(f, s);
      else native.apply(this, a);
    };
  });
  // Scripts and iframes the parser inserts are caught before they run or load.
  mo = new MutationObserver((records) => {
    show();
    seen(records);
  });
  // Before <body> exists the parser can only append to <html> and <head>; from there on every element it opens
  // is reported to the observer (or inside one that is), so the watch follows the parser without a record per
  // node of the page. A snippet that runs later (in <body>, or inserted by a script) cannot know where the
  // parser is, and observes the whole document from the start.
  if (doc.readyState == 'loading' && doc.head && !doc.body) {
    // The document's own registration is wide's (addresses only, for now), so the watch passes it by.
    watched.add(doc);
    wide();
    watch(doc.head);
    // The elements watched so far stay observed as well; the observer still gets one record per insertion.
    doc.addEventListener('readystatechange', wide, { once: true });
    patch(Document.prototype, ['execCommand']);
  } else wide(1);
};

/**
 * Listeners for events that have passed (docs/widget.md). A script the widget runs after consent usually runs after
 * the page's DOMContentLoaded, and often after its load; code in it that waits for one of them (Contact Form 7's
 * reCAPTCHA module, Google Maps' `addDomListener(window, 'load', …)` sample, Calendly's badge widget with
 * `window.onload = …`) would wait for good. Installed once the widget's own DOMContentLoaded listener runs (it is the
 * page's first, and a listener added during a dispatch is not called by it): a listener that one of the widget's
 * copies adds while it runs (`document.currentScript`) for an event that has passed, or a `window.onload` they assign
 * after load (apply, below), is called once, after the copy's code and, as the browser's load waits for every script,
 * once every copy inserted so far has run (or failed). The page's own scripts keep the browser's behaviour.
 */
let pending = 0;
const waiting: (() => void)[] = [];
// Each listener in a task of its own, so one that throws is reported and stops no other; `map` hands setTimeout the
// index as the delay (0, 1, 2 … ms), which keeps them in order (and the array as an argument, which they ignore).
// The unused parameter lets a caller fold its own step into the call (`flush(waiting.push(…))`, `flush(pending--)`):
// a few bytes of brotli the base widget does not have otherwise.
const flush = (_?: unknown) => queueMicrotask(() => pending || waiting.splice(0).map(setTimeout));

export const late = () => {
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, t: string, f: EventListenerOrEventListenerObject | null, o?: boolean | AddEventListenerOptions) {
    add.call(this, t, f, o);
    if ((t == 'load' ? this == w && doc.readyState == 'complete' : t == 'DOMContentLoaded' && (this == w || this == doc)) && S._approved.has(doc.currentScript!)) {
      flush(waiting.push(() => {
        // As the browser does for a `once` listener: removed before it is called.
        if ((o as AddEventListenerOptions)?.once) this.removeEventListener(t, f, o);
        const e = new Event(t);
        if (typeof f == 'function') f.call(this, e);
        else f?.handleEvent(e);
      }));
    }
  };
};

/**
 * The last ordered external script a copy wrote (document.write, below) until it has run: every inline or async copy
 * not run yet waits for it too, as the parser would have run it before anything below its writer.
 */
let lib: HTMLScriptElement | undefined;

/**
 * Calls `f` once the external script `el` has run or failed. Until then it is pending: listeners for events that have
 * passed wait for it, and for the copy `f` inserts (late, above).
 */
const hold = (el: HTMLScriptElement, f?: () => void) => {
  pending++;
  // `map` for its side effect only: it came out a few bytes smaller than `forEach` after brotli (budget).
  ['load', 'error'].map((e) =>
    el.addEventListener(e, () => {
      if (lib == el) lib = undefined;
      flush(pending--);
      f?.();
    }),
  );
};

/** What a copy wrote while it ran (document.write, in hook above), and the copy. */
let out = '';
let writer: ChildNode;
/** The blocked inline script whose code runs through eval (evalInlineScripts), while it runs. */
let evaluating: Element | undefined;

/** Markup parsed in a template (its scripts inert, its frames not loading) and checked like any insertion. */
const parsed = (h: string) => {
  const t = doc.createElement('template');
  t.innerHTML = h;
  check(t.content);
  return t.content;
};

/**
 * Puts what a copy wrote (or markup `f` that a page's script wrote) right after the writer, as the parser would have,
 * and runs each script in it that is not blocked as a copy in turn (its own writes included), so a library it names
 * runs before the copies below it.
 */
const written = (f = parsed(out), at = writer) => {
  out = '';
  const run = f.querySelectorAll<HTMLScriptElement>(`script:not([${ATTR}])`);
  at.after(f);
  let after = lib;
  run.forEach((x) => (after = runScript(x, false, after)));
  lib = after;
};

/**
 * Runs a blocked script as a copy. `after` is the last ordered external copy inserted before it: an inline or async
 * copy waits until that one has run (its load or error event comes right after it ran, before the next ordered copy
 * runs), as the parser ran them, since inline code often uses the library loaded above it; and then for a library a
 * copy wrote meanwhile (`lib`). Returns what the next copy waits for.
 */
export const runScript = (old: HTMLScriptElement, loader?: boolean, after?: HTMLScriptElement): HTMLScriptElement | undefined => {
  const type = loader ? '' : old.getAttribute('data-ccm-type') ?? old.type;
  const src = loader ? old.getAttribute('data-ccm-loader-src') || old.getAttribute('src') : old.getAttribute('src');
  // An async one waits too: the parser inserts it only once the scripts above it have run, so it never ran before
  // inline code above it (Meta's SDK calls the page's `fbAsyncInit`, defined in an inline script before it: inserted
  // at once, it could run first and find none; CI, 2026-11-28).
  const async = old.hasAttribute('async');
  // A Partytown copy is run by Partytown (its observer sees the copy) and fires no event here: nothing waits for it.
  const pt = type == 'text/partytown';
  if ((!src || async) && (after ||= lib)) {
    hold(after, () => runScript(old, loader));
    return after;
  }
  // evalInlineScripts: inline code runs through a global eval instead of a new <script> element (no
  // document.currentScript; under a Content Security Policy it needs 'unsafe-eval' rather than a nonce).
  if (__PLACET_OPT__ && c.ev && !src && type != 'module' && !pt) {
    old.removeAttribute(ATTR);
    // Code run so has no document.currentScript: its document.write goes after the element it came from.
    S._approved.add((evaluating = old));
    try {
      (0, eval)(old.text);
    } catch (err) {
      setTimeout(() => {
        throw err; // reported like an error in the page's own script, without stopping the widget
      });
    }
    evaluating = undefined;
    if (out) written();
    return;
  }
  const s = doc.createElement('script');
  for (const a of old.attributes) {
    if (!/^(type|src|data-ccm-)/.test(a.name)) s.setAttribute(a.name, a.value);
  }
  // A parsed nonce is hidden from getAttribute(); without it a CSP with nonces refuses the copy.
  s.nonce = old.nonce;
  if (type) s.type = type;
  if (src) {
    s.src = src;
    // A classic script with `nomodule` is never fetched in a browser with modules, and fires neither event.
    if (!s.noModule && !pt) hold(s);
    // The attribute, not the property: a parser-inserted script whose preparation stopped at its blocked type has
    // the "force async" flag set, so `old.async` was true for every one of them and the copies ran in the order
    // they arrived, where classic scripts must run in the page's order (a library before the code that uses it).
    s.async = async;
  } else s.text = old.text;
  S._approved.add(s);
  old.replaceWith(s);
  if (out) written();
  // A copy made here is async unless it is an external classic script of the page's order (set above); one with
  // `nomodule` never runs, and nothing waits for it.
  return s.async || s.noModule || pt ? after : s;
};

export const loaderAllowed = (el: HTMLScriptElement) => {
  const group = el.getAttribute('data-ccm-loader-group');
  // `src` as runScript reads it: a loader written with plain `src` matched no embedding and never ran.
  const src = el.getAttribute('data-ccm-loader-src') || el.getAttribute('src') || '';
  const owner = em.find((e) => (group ? e.g == group : has(src, e.sm)));
  return !!owner && allowed(owner) && !has(src, c.bm);
};

export const injected = new Set<string>();

export const apply = () => {
  // Frames first: a frame's navigation and new document take longest, so its request leaves before the scripts'.
  applyFrames();
  let after: HTMLScriptElement | undefined;
  const onload = w.onload;
  for (const el of blockedScripts.slice()) {
    const loader = el.getAttribute(ATTR) == 'l';
    if (el.isConnected && (loader ? loaderAllowed(el) : !blocks(el))) {
      blockedScripts.splice(blockedScripts.indexOf(el), 1);
      after = runScript(el, loader, after);
    }
  }
  // A `window.onload` that the copies assign after load (Calendly's badge widget) is called once they have all run
  // (late, above), unless it is the one there was before.
  if (doc.readyState == 'complete') flush(waiting.push(() => w.onload != onload && w.onload?.(new Event('load'))));
  for (const e of em) {
    if (e.h && allowed(e) && !injected.has(e.i)) {
      injected.add(e.i);
      // The embedding's code (scriptHtmlCode) as a copy's writes are placed (written): its scripts run as copies in
      // order (a library before the inline code that uses it) and their document.write goes after them. Appended as a
      // fragment, its scripts ran unordered, and an agency's pasted legacy tag that writes replaced the whole page.
      written(parsed(e.h), (doc.body || doc.head).appendChild(doc.createTextNode('')));
    }
  }
};
