/**
 * Strict mode (domain `strictBlocking`, docs/widget.md): the snippet's Content-Security-Policy metas block the
 * hosts of every embedding not named in the `ccm_consent_strict` cookie. Here the widget keeps that cookie equal
 * to the accepted embeddings, and tells whether this page's policies still block one that was just accepted
 * (then the page reloads: a policy in force cannot be lifted).
 */
import { c, doc, S } from './state.js';
import { KEY } from './storage.js';

let atLoad: string[] | undefined;

export const strict = () => {
  // Only the strict variant (widget/build.ts) has this: every other domain pays nothing for it.
  if (!__PLACET_STRICT__ || !c.st[0]) return;
  const on = c.st.filter((i) => S.acc.has(i));
  atLoad ||= (doc.cookie.match(/(?:^|; )ccm_consent_strict=([^;]*)/) || [])[1]?.split('.') || [];
  // The name starts with the decision's key, so deleteUnknownCookies keeps it (cookies.ts).
  doc.cookie = `${KEY}_strict=${on.join('.')};path=/;SameSite=Lax${c.lt ? `;max-age=${c.lt * 86400}` : ''}`;
  return on.some((i) => !atLoad!.includes(i));
};
