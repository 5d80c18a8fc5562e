/**
 * Recording: every decision is sent to the consent endpoint (`c.u`) as one beacon, `text/plain` JSON so that
 * no CORS preflight is needed; `fetch` with keepalive where the beacon is refused. The body is built here.
 */
import { c, dnt, gpc, nav, S, th } from './state.js';

/** Takes the record of the decision just made, and returns what sends it. */
export const record = (button: string) => {
  const body = JSON.stringify({
    apiKey: c.k, domain: c.d, ucid: S._stored!.ucid, consent: S._stored!.consent, embeddings: S._stored!.embeddings,
    manipulationPrevention: th.mp, button, lang: S.lang, revision: c.r, legalRevision: c.lr, themeId: th.id, gpc, dnt,
    token: c.tk, snapshot: c.sh,
    // The TC and AC strings, set by the TCF code: only the TCF variant carries them (widget/build.ts).
    ...(__PLACET_WITH_TCF__ && { tcString: S.tc, acString: S.ac }),
  });
  return () => {
    if (!nav.sendBeacon?.(c.u, body)) {
      // A string body is sent as `text/plain;charset=UTF-8`, as the beacon's: no CORS preflight either way.
      fetch(c.u, { keepalive: true, method: 'POST', body }).catch(() => 0);
    }
  };
};
