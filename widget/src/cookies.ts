/**
 * Withdrawal and unknown cookies: what a withdrawn embedding stored (its declared cookies and web storage
 * keys, `*` as wildcard) is deleted, and with deleteUnknownCookies every first-party cookie no embedding declares.
 */
import { c, doc, em, w } from './state.js';
import { KEY } from './storage.js';
import type { EmbeddingConfig } from './types.js';

export const pattern = (name: string) => new RegExp(`^${name.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

export const cookieNames = () => {
  try {
    return doc.cookie.split('; ').map((ck) => ck.split('=')[0]!).filter(Boolean);
  } catch {
    return []; // a sandboxed document has no cookies
  }
};

export const dropCookie = (n: string) => {
  const parts = location.hostname.split('.');
  for (let i = 0; i < parts.length; i++) doc.cookie = `${n}=;path=/;max-age=0;domain=${parts.slice(i).join('.')}`;
  doc.cookie = `${n}=;path=/;max-age=0`;
};

export const wipe = (e: EmbeddingConfig) => {
  for (const [name, type] of e.a) {
    const re = pattern(name);
    if (type == 'cookie') {
      cookieNames().forEach((n) => re.test(n) && dropCookie(n));
    } else if (type == 'localStorage' || type == 'sessionStorage') {
      try {
        const st = w[type] as Storage;
        Object.keys(st).forEach((k) => re.test(k) && st.removeItem(k));
      } catch {
        // storage refused: nothing there to delete
      }
    }
  }
};

/** deleteUnknownCookies: first-party cookies that no embedding declares are removed (and, optionally, the page reloaded once). */
export const dropUnknown = () => {
  if (!__PLACET_OPT__ || !c.du) return;
  const declared = em.flatMap((e) => e.a.filter((a) => a[1] == 'cookie').map((a) => pattern(a[0])));
  const unknown = cookieNames().filter((n) => !n.startsWith(KEY) && !declared.some((re) => re.test(n)));
  unknown.forEach(dropCookie);
  try {
    if (unknown.length && c.du == 2 && !sessionStorage.getItem('ccm_reloaded')) {
      sessionStorage.setItem('ccm_reloaded', '1');
      location.reload();
    }
  } catch {
    // no session storage: no reload either, which could otherwise repeat forever
  }
};
