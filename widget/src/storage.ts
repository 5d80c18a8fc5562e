/**
 * Storage and decision: where the visitor's decision is kept (localStorage, sessionStorage, a cookie, or
 * memory when the browser refuses storage), whether it is still valid, what it accepts, and making one.
 */
import { c, doc, em, NECESSARY, S, type Stored } from './state.js';
import type { EmbeddingConfig } from './types.js';
import { record } from './record.js';
import { announce } from './api.js';
import { dropUnknown, wipe } from './cookies.js';
import { apply } from './scripts.js';
import { closeLayer } from './ui/layers.js';
import { strict } from './strict.js';
import { refill } from './handover.js';

export const KEY = 'ccm_consent';

/** `hostname` is `d` or below it. */
export const under = (hostname: string, d: string) => hostname == d || hostname.endsWith(`.${d}`);

// Storage can be refused (a third-party frame with blocked storage, a sandbox, a full quota): the decision
// then lives in memory for the page, and the widget keeps working.
export const openStore = (): Storage | null | undefined => {
  try {
    const st = c.s == 1 ? null : c.s == 2 || c.lt == 0 ? sessionStorage : localStorage;
    st?.getItem(KEY);
    return st;
  } catch {
    return undefined;
  }
};

export const readAll = (): Record<string, Stored> => {
  try {
    const raw = S._store ? S._store.getItem(KEY) : S._store === null ? decodeURIComponent((doc.cookie.match(/(?:^|; )ccm_consent=([^;]*)/) || [])[1] || '') : S._mem;
    return JSON.parse(raw || S._mem || '{}');
  } catch {
    return {};
  }
};

export const writeAll = (v: Record<string, Stored>) => {
  S._mem = JSON.stringify(v);
  try {
    if (S._store) S._store.setItem(KEY, S._mem);
    else if (S._store === null) {
      // consentSharingDomains: the cookie is set on the shared registrable domain, so its subdomains see it.
      const shared = c.sd.find((d) => under(location.hostname, d));
      doc.cookie = `${KEY}=${encodeURIComponent(S._mem)};path=/;SameSite=Lax${shared ? `;domain=${shared}` : ''}${c.lt ? `;max-age=${c.lt * 86400}` : ''}${c.sc && location.protocol === 'https:' ? ';Secure' : ''}`;
    }
  } catch {
    // kept in memory only
  }
};

export const validDecision = (s: Stored | undefined): s is Stored => {
  if (!s || !s.ucid || !s.updated) return false;
  const t = Date.parse(s.updated);
  return !(c.rb && t < c.rb) && !(c.lt && t + c.lt * 864e5 < Date.now()) && !(c.rl && s.lrev !== c.lr);
};

export const now = () => new Date().toISOString();

/**
 * The visitor's id: the stored one, or a new one made once. Where a banner asks, it is made after the banner's
 * first paint (index.ts) together with a first `now()`: the first calls of the random source, of the hex
 * conversion and of date formatting cost the click's task about 3 ms at 4× CPU (issue #15, click → next paint).
 */
export const ucid = () => S._stored?.ucid || S._u || (S._u = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join(''));

export const byId = (id: string) => em.find((e) => e.i == id);

// requireConsentForMandatoryEmbeddings: "technically necessary" embeddings wait for consent like any other.
export const fixed = (p: string) => p == NECESSARY && !c.rm;

export const necessary = em.filter((e) => fixed(e.p)).map((e) => e.i);

// enableOnlyInEu, visitor from outside the area (told by the service): everything is enabled without a
// banner and without a record, unless GPC or honoured DNT asks otherwise; a choice they make counts as usual.
export const activeHere = (e: EmbeddingConfig) => {
  const listed = e.x.some((u) => (u.endsWith('*') ? S._here.startsWith(u.slice(0, -1)) : S._here == u));
  return e.xm ? listed : !listed;
};

// excludeFromUrls (and its include mode): in the options variant only, served to a domain with an embedding that uses it.
export const allowed = (e: EmbeddingConfig) => S.acc.has(e.i) && (!__PLACET_OPT__ || activeHere(e));

export const decide = (ids: Iterable<string>, button: string) => {
  // Blocked mode decides nothing: everything stays declined until the widget can be served normally.
  if (c.bl) return;
  const before = S.acc;
  S.acc = new Set([...ids, ...necessary]);
  const first = !S._stored?.ucid;
  const all = readAll();
  const embeddings = [...S.acc];
  const t = now();
  S._stored = all[c.p] = {
    gen: 2, ucid: ucid(), consent: embeddings.some((id) => byId(id)?.p != NECESSARY), embeddings,
    created: S._stored?.created || t, updated: t, clickedButton: button, lang: S.lang, rev: c.r, lrev: c.lr,
    iframeConsentDomains: all[c.p]?.iframeConsentDomains || [],
  };
  writeAll(all);
  S.decided = true;
  // The click's task ends with the decision stored, the banner closed and withdrawn storage deleted, so the
  // browser paints the closed banner at once (issue #15: click → next paint within one frame at 4×).
  // Unblocking and the events, then the record, follow after that paint, each in a task of its own: frames
  // first (the slowest item after accept), before the settings icon (closeLayer) and the record's beacon, and
  // an exception in one cannot stop the other. The record's body is taken now: a second decision before the
  // deferred work runs must not change it.
  const send = record(button);
  afterPaint(() => {
    apply();
    dropUnknown();
    announce(first);
  });
  const sendNow = afterPaint(send);
  closeLayer();
  em.forEach((e) => before.has(e.i) && !S.acc.has(e.i) && wipe(e));
  // Cross-domain variant: a spare hand-over token for the new decision (handover.ts).
  if (__PLACET_SX__) refill();
  // Strict mode: an accepted embedding that this page's policies still block needs the page loaded again. The
  // record leaves first, in this task: a beacon from `pagehide` was lost under load (CI, 2 cores), and the log is
  // the proof.
  if (strict()) {
    sendNow();
    location.reload();
  }
};

/**
 * Runs `fn` once, in a task of its own right after the next frame is painted: a timer set in an animation frame
 * callback fires after that frame's rendering (a zero timer is not clamped while timers are not nested). A page
 * left at once (a link clicked right after the decision) runs it on `pagehide`, so the record is still sent. A
 * hidden tab draws no frames: there a 200 ms timer runs it.
 */
export const afterPaint = (fn: () => void) => {
  let done = 0;
  // Returned, so a caller that cannot wait (a reload follows) runs it now, still once.
  const run = () => done++ || fn();
  requestAnimationFrame(() => setTimeout(run));
  // A hidden tab draws no frames (a decision adopted from a hand-over or made through the API there).
  setTimeout(run, 200);
  addEventListener('pagehide', run);
  return run;
};
