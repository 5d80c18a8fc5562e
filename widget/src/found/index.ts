/**
 * The found-items reporter (docs/found-items.md). After the page has loaded and the browser is idle, it lists
 * third-party scripts and iframes (also those the widget blocked) and first-party cookie and storage names
 * that no embedding declares, and sends them once in one text/plain beacon (no CORS preflight). Only names
 * and addresses without query or fragment leave the browser; the server normalises again.
 */
import type { FoundSettings } from './types.js';

const F = (window as unknown as Record<symbol, FoundSettings>)[Symbol.for('placet.found')];
const KEY = `placet_found_${F?.d}`;
const OWN = /^(ccm_consent|ccm-x.*|placet_found_.*)$/;

const pattern = (name: string) => new RegExp(`^${name.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

function collect(): { k: string; v: string }[] {
  const items: { k: string; v: string }[] = [];
  const seen = new Set<string>();
  const add = (k: string, v: string) => {
    if (items.length < F.n && !seen.has(`${k} ${v}`)) {
      seen.add(`${k} ${v}`);
      items.push({ k, v });
    }
  };
  // A third-party address as host and path; '' for the page's own, Placet's, or anything not http(s).
  const third = (src: string | null) => {
    try {
      const url = new URL(src || '', location.href);
      return /^https?:$/.test(url.protocol) && url.host !== location.host && url.origin !== F.o ? url.origin + url.pathname : '';
    } catch {
      return '';
    }
  };
  const claimed = (url: string, markers: string[]) => markers.some((m) => url.toLowerCase().includes(m));
  if (F.s) {
    const script = (src: string | null) => {
      const url = third(src);
      if (url && !claimed(src!, F.sm)) add('script', url);
    };
    const frame = (src: string | null) => {
      const url = third(src);
      if (url && !claimed(src!, F.fm)) add('iframe', url);
    };
    document.querySelectorAll('script[src]').forEach((el) => script(el.getAttribute('src')));
    // A blocked frame keeps its address in data-ccm-blocked (widget/src/iframes.ts); an <object data> or <embed src>
    // with a web page is a frame to the widget too.
    document
      .querySelectorAll('iframe,object,embed')
      .forEach((f) => frame(f.getAttribute('data-ccm-blocked') || f.getAttribute('src') || f.getAttribute('data') || f.getAttribute('data-ccm-src')));
    // Scripts that ran and were removed again (tag managers) are only in the resource timing list.
    performance.getEntriesByType('resource').forEach((e) => {
      const r = e as PerformanceResourceTiming;
      if (r.initiatorType === 'script') script(r.name);
    });
  }
  if (F.c) {
    const name = (kind: string, n: string) => {
      if (n && !OWN.test(n) && !F.a.some(([a, type]) => type === kind && pattern(a).test(n))) add(kind, n);
    };
    try {
      document.cookie.split('; ').forEach((ck) => name('cookie', ck.split('=')[0]!));
      for (const kind of ['localStorage', 'sessionStorage'] as const) Object.keys(window[kind]).forEach((k) => name(kind, k));
    } catch {
      // a sandboxed document has no cookies or storage
    }
  }
  return items;
}

function report(): void {
  try {
    localStorage.setItem(KEY, String(Date.now()));
  } catch {
    return; // without storage the once-a-day sample cannot hold: do not report at all
  }
  const items = collect();
  if (items.length > 0) {
    navigator.sendBeacon(F.u, JSON.stringify({ domain: F.d, revision: F.r, token: F.tk, page: location.origin + location.pathname, items }));
  }
}

if (F) {
  const later = () => setTimeout(() => ('requestIdleCallback' in window ? requestIdleCallback(report, { timeout: 5000 }) : report()), F.t);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}
