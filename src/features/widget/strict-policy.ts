/**
 * Strict blocking (domain setting `strictBlocking`, docs/widget.md "Strict mode"): the embed snippet carries one
 * `<meta http-equiv="Content-Security-Policy">` per embedding that needs consent, each an allow-list that leaves
 * out that embedding's hosts, for every kind of request. Because the metas are in the page's own markup, Chromium's
 * preload scanner holds back the speculative fetches that follow them until the parser has applied them, so a
 * `<script src>`, `<iframe src>`, stylesheet, font or image from a blocked host never leaves the browser (measured:
 * test/real-snippets.browser.test.ts, test/strict-resources.browser.test.ts). A tiny inline script before each
 * meta comments the meta out (`document.write('<!--')`, closed by the `<!---->` after it) when the visitor has
 * accepted that embedding, as the widget notes in the `ccm_strict` cookie.
 * CSP can only allow, never deny, which is why every meta lists what stays allowed: the site itself, Placet,
 * the hosts of the other embeddings, and the domain's `strictAllowedHosts`.
 */
import { parse } from 'tldts';
import type { Domain } from '../domains/domains.schemas.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';

const NECESSARY = '41ba25c';

/** The cookie the widget writes (widget/src/strict.ts): the accepted embeddings' ids, joined by `.`. */
export const STRICT_COOKIE = 'ccm_consent_strict';

/** The global the snippet's fallback defines (fallbackScript) and Placet's "not ours" notice calls (widget.service.ts). */
export const FALLBACK = 'ccmFallback';

/** How the snippet's own inline scripts begin: the enforcement audit tells them from the site's scripts by it. */
const FALLBACK_INLINE = `(function(w,d,f){w.${FALLBACK}=`;
const STRICT_INLINE = ['var ccmStrict=', 'ccmStrict.indexOf('] as const;
export const SNIPPET_INLINE_STARTS = [FALLBACK_INLINE, ...STRICT_INLINE];

/**
 * The hosts an embedding's markers name: the part of a marker before its first `/`, `?` or `#` when that is a
 * host under a public suffix (`googletagmanager.com/gtag/js` → googletagmanager.com; not `fbevents.js`,
 * `gtag/js?id=g-` or `fbq('init'`, which name a file or a piece of inline code).
 */
export function embeddingHosts(e: Pick<Embedding, 'scriptMarkers' | 'iframeMarkers'>): string[] {
  const hosts = new Set<string>();
  for (const marker of [...e.scriptMarkers, ...e.iframeMarkers]) {
    const candidate = marker.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^\/\//, '').split(/[/?#]/)[0]!;
    if (!/^[a-z0-9.-]+$/.test(candidate)) continue;
    const p = parse(candidate);
    if (p.isIcann && p.domain && p.hostname === candidate) hosts.add(candidate);
  }
  return [...hosts];
}

/** An embedding waits for consent: any but a necessary one, and those too with requireConsentForMandatoryEmbeddings. */
const needsConsent = (domain: Pick<Domain, 'requireConsentForMandatoryEmbeddings'>, e: Embedding) =>
  e.purpose !== NECESSARY || domain.requireConsentForMandatoryEmbeddings;

/** The embeddings that get a policy of their own: active, needing consent, naming at least one host. */
export function strictEmbeddings(domain: Pick<Domain, 'requireConsentForMandatoryEmbeddings'>, embeddings: Embedding[]) {
  return embeddings.filter((e) => e.active && needsConsent(domain, e) && embeddingHosts(e).length > 0);
}

/** The domain's `strictAllowedHosts`, as the policies name hosts. */
const allowedHosts = (domain: Pick<Domain, 'strictAllowedHosts'>) => domain.strictAllowedHosts.map((h) => h.toLowerCase());

/** `host` is `parent` or below it. */
const under = (host: string, parent: string) => host === parent || host.endsWith(`.${parent}`);

/** A host as CSP source expressions: itself and its subdomains. */
const sources = (host: string) => [host, `*.${host}`];

/**
 * One `default-src`, not `script-src` and `frame-src`: every kind of request falls back to it, so stylesheets,
 * fonts, images, media, `fetch` and beacons from a blocked host are refused too, and Chromium then opens no
 * connection for a `<link rel="preconnect">` to it either. Until 2026-11-28 the policy named scripts and frames
 * only, and Google Fonts' own embed code (two preconnects and a stylesheet) reached Google before consent in strict
 * mode with the Google Fonts embedding active (test/strict-resources.browser.test.ts).
 */
function policy(allowed: string[], placetOrigin: string): string {
  return [`default-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:`, placetOrigin, ...allowed.flatMap(sources)].join(' ');
}

/**
 * The part of the snippet that goes before the widget's script tag, or '' when strict blocking is off. Each
 * embedding's meta allows every host of the other embeddings and of `strictAllowedHosts` except those that are,
 * or are above or below, one of its own hosts (its hosts count with their subdomains): a shared host stays
 * blocked until every embedding on it is accepted (fail closed).
 */
export function strictSnippet(
  domain: Pick<Domain, 'strictBlocking' | 'strictAllowedHosts' | 'requireConsentForMandatoryEmbeddings'>,
  embeddings: Embedding[],
  placetOrigin: string,
): string {
  if (!domain.strictBlocking) return '';
  const strict = strictEmbeddings(domain, embeddings);
  if (strict.length === 0) return '';
  const everyHost = [...new Set([...embeddings.filter((e) => e.active).flatMap(embeddingHosts), ...allowedHosts(domain)])];
  const parts = [
    `<script>${STRICT_INLINE[0]}(document.cookie.match(/(?:^|; )${STRICT_COOKIE}=([^;]*)/)||[0,""])[1].split(".")</script>`,
  ];
  for (const e of strict) {
    const own = embeddingHosts(e);
    const allowed = everyHost.filter((h) => !own.some((o) => under(o, h) || under(h, o)));
    // Embedding ids are 7 hex characters and hosts match /^[a-z0-9.-]+$/: nothing here needs escaping.
    parts.push(
      `<script>${STRICT_INLINE[1]}"${e.id}")<0||document.write("<!--")</script>` +
        `<meta http-equiv="Content-Security-Policy" content="${policy(allowed, placetOrigin)}"><!---->`,
    );
  }
  return parts.join('\n');
}

/**
 * Fail closed when the widget cannot be loaded or cannot start (docs/widget.md, "Fail closed", "Placet unreachable"):
 * Placet down or unreachable, a 5xx or 429 answer, a network error, a body that is not the widget (a proxy's error
 * page with a 200), an error while the widget starts, or Placet's answer that the page is not one of the domain's (a
 * site moved to another host, an unknown key). In each case the parser still waits at the widget's tag: the browser
 * fires `error` at the tag (resource errors do not bubble, but pass the window on their way down, so a capturing
 * listener sees them), or reports the script's error while it is the current script, or Placet's notice calls
 * `ccmFallback` as it runs. Then `document.write` puts one more policy into `<head>` there, before anything after the
 * snippet loads: only the site itself, Placet, the hosts of the necessary embeddings (which need no consent) and
 * `strictAllowedHosts` stay allowed, so no third-party script, frame, stylesheet, image or request of an embedding
 * that needs consent loads on that page view. Until stop 51 the page ran every tracker it has in all these cases. It
 * acts only for the widget's own tag while the parser waits at it (the tag, or the current script, has the widget's
 * address; the page is loading): a `document.write` at any other time would replace the page. A listener, not an
 * `onerror` attribute: CMS plugins validate the widget's tag as `<script src="…" referrerpolicy="origin"></script>`
 * (widget.test.ts).
 */
export function fallbackScript(
  domain: Pick<Domain, 'strictAllowedHosts' | 'requireConsentForMandatoryEmbeddings'>,
  embeddings: Embedding[],
  publicUrl: string,
): string {
  const necessary = embeddings.filter((e) => e.active && !needsConsent(domain, e));
  const allowed = [...new Set([...necessary.flatMap(embeddingHosts), ...allowedHosts(domain)])];
  const app = JSON.stringify(`${publicUrl}/public/app.js?`);
  // Hosts match /^[a-z0-9.-]+$/ and Placet's origin is a URL origin: the policy holds no double quote, backslash or `<`.
  const meta = JSON.stringify(`<meta http-equiv="Content-Security-Policy" content="${policy(allowed, new URL(publicUrl).origin)}">`);
  const warn = JSON.stringify('Placet: the consent widget could not start; third-party content stays blocked on this page');
  return (
    `<script>${FALLBACK_INLINE}f=function(s){s=s||d.currentScript;s&&s.src&&s.src.indexOf(${app})==0&&d.readyState=="loading"&&!f.done&&` +
    `(f.done=d.write(${meta})||1,console.warn(${warn}))};w.addEventListener("error",function(e){f(e.target.src?e.target:0)},!0)})(window,document)</script>`
  );
}
