import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * The Content-Security-Policy of the API docs (`/docs`, Swagger UI): its page loads only its own scripts,
 * styles and images from `/docs/static/…` and the OpenAPI document from `/docs/json`, so everything else is
 * refused, and no other site may frame it (clickjacking). Checked in Chromium by test/security.browser.test.ts.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "base-uri 'none'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // The one <style> element Swagger UI inserts (its hash, reported by Chromium's CSP check).
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
].join('; ');

/** For JSON answers: nothing in them may run or be framed if a browser ever renders one. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Response headers of every answer (README "Security headers"). Written here rather than with
 * @fastify/helmet: helmet's defaults (Cross-Origin-Resource-Policy: same-origin, a page CSP on every
 * answer) would break the widget script that other sites embed, and what is left is these few lines.
 *
 * - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` everywhere.
 * - `Cache-Control: no-store` on every answer that does not set its own caching: Hosting and Domain API
 *   answers carry keys and personal data, and no cache (browser or proxy) may keep them. The widget routes
 *   set their own (`no-cache` with an ETag), which is left alone.
 * - A CSP: the strict one above on `/docs`, `default-src 'none'` on JSON answers.
 * - `Strict-Transport-Security` on answers that went over HTTPS (natively, or per `X-Forwarded-Proto` from
 *   a trusted proxy), unless HSTS_MAX_AGE is 0.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const hsts = config.hstsMaxAgeSeconds > 0 ? `max-age=${config.hstsMaxAgeSeconds}` : undefined;
  // A callback hook, not an async one: it runs on every answer, and a promise per answer is measurable on
  // the consent beacon (README "Memory and throughput").
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (reply.getHeader('cache-control') === undefined) reply.header('cache-control', 'no-store');
    if (hsts !== undefined && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    if (reply.getHeader('content-security-policy') === undefined) {
      const url = request.url;
      if (url.startsWith('/docs') && (url.length === 5 || url[5] === '/' || url[5] === '?')) {
        reply.header('content-security-policy', DOCS_CSP);
      } else if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
        reply.header('content-security-policy', API_CSP);
      }
    }
    done(null, payload);
  });
}
