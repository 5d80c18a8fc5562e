/**
 * Recording: every decision is sent to the consent endpoint (`c.u`) as one beacon, `text/plain` JSON so that
 * no CORS preflight is needed; `fetch` with keepalive where the beacon is refused. The body is built here.
 */
import { c, dnt, gpc, nav, S, th } from './state.js';

/** Takes the record of the decision just made, and returns what sends it. */
export const record = (button: string) => {
  const body = JSON.stringify({
    apiKey: c.k, domain: c.d, ucid: S.stored!.ucid, consent: S.stored!.consent, embeddings: S.stored!.embeddings,
    manipulationPrevention: th.mp, button, lang: S.lang, revision: c.r, legalRevision: c.lr, themeId: th.id, gpc, dnt,
    token: c.tk, snapshot: c.sh, tcString: S.tc, acString: S.ac,
  });
  return () => {
    if (!(nav.sendBeacon && nav.sendBeacon(c.u, body))) {
      fetch(c.u, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(() => 0);
    }
  };
};
