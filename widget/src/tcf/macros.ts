/**
 * TCF URL macros (docs/tcf.md): `${gdpr}`, `${gdpr_consent}` and `${addtl_consent}` in the URLs of scripts
 * and iframes (tcfUrlMacroHandling), and `gdpr`/`gdpr_consent`/`addtl_consent` appended to the URLs of the
 * embeddings linked to a GVL vendor (tcfUrlMacroAutoAppend). It runs in the prefix, before the widget: its
 * observer is registered first, so it rewrites a parsed element before the widget checks it and before the
 * browser fetches it. Blocked elements keep their URL in an attribute until the widget unblocks them, and
 * each element's original URLs are kept, so a later decision rewrites them again with the new strings.
 */
export interface MacroConfig {
  /** [tcfUrlMacroAutoAppend, tcfUrlMacroHandling] */
  mu: [boolean, boolean];
  /** markers (lower case) of the embeddings linked to a GVL vendor: their URLs get the parameters appended */
  m: string[];
}

const MACRO = /\$\{(gdpr|gdpr_consent|addtl_consent)\}/g;
const URL_ATTRS = ['src', 'data-ccm-blocked', 'data-ccm-src', 'data-ccm-loader-src'];
const originals = new WeakMap<Element, Record<string, string>>();
let current = { tc: '', ac: '' };
let observing = false;

export function macros(config: MacroConfig, tc: string, ac: string): void {
  const [autoAppend, handling] = config.mu;
  if (!autoAppend && !handling) return;
  current = { tc, ac };
  const fix = (el: Element) => {
    const kept = originals.get(el) ?? {};
    for (const name of URL_ATTRS) {
      const value = kept[name] ?? el.getAttribute(name);
      // data-ccm-blocked holds `1` or `l` on scripts (the URL stays in src), the URL on iframes.
      if (!value || value === '1' || value === 'l' || value === 'about:blank') continue;
      let next = value;
      if (handling) {
        next = next.replace(MACRO, (_m, k: string) => encodeURIComponent(k === 'gdpr' ? '1' : k === 'gdpr_consent' ? current.tc : current.ac));
      }
      if (autoAppend && !/[?&]gdpr_consent=/.test(next) && config.m.some((m) => next.toLowerCase().includes(m))) {
        next += `${next.includes('?') ? '&' : '?'}gdpr=1&gdpr_consent=${encodeURIComponent(current.tc)}`;
        if (current.ac) next += `&addtl_consent=${encodeURIComponent(current.ac)}`;
      }
      if (next !== value || kept[name]) {
        kept[name] = value;
        originals.set(el, kept);
        if (el.getAttribute(name) !== next) el.setAttribute(name, next);
      }
    }
  };
  const scan = (root: ParentNode) => root.querySelectorAll('script,iframe').forEach(fix);
  scan(document);
  if (!observing) {
    observing = true;
    new MutationObserver((records) =>
      records.forEach((r) =>
        r.addedNodes.forEach((n) => {
          if (!(n instanceof Element)) return;
          if (n.matches('script,iframe')) fix(n);
          scan(n);
        }),
      ),
    ).observe(document.documentElement, { childList: true, subtree: true });
  }
}
