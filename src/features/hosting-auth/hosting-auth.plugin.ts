import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { authorizeClientCall, consoleSessionOf, requireCsrf } from '../console/console.auth.js';
import { FailureThrottle } from './failure-throttle.js';
import { hostingKeyMatches, presentedKey } from './hosting-auth.service.js';

const MESSAGE = 'A valid Hosting API key is required (?apiKey= or Authorization: Bearer), or a console sign-in.';

/**
 * onRequest hook for `/hosting/api/*`: runs before the body is read, so anonymous uploads cost nothing.
 * A request with a key is judged by the key alone. Without one, a console session cookie stands in for it:
 * the agency's session may do everything, a client's only what concerns its own account
 * (docs/console.md), and every change needs the session's CSRF token.
 *
 * An address with HOSTING_AUTH_FAILURES_PER_MINUTE wrong keys in the current minute gets 429 without its
 * key being checked, until the minute is over.
 */
export function hostingAuth(deps: Deps) {
  const throttle = new FailureThrottle(deps.config.hostingAuthFailuresPerMinute);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = presentedKey(request);
    if (key !== undefined) {
      const now = deps.clock.now().getTime();
      const wait = throttle.retryAfter(request.ip, now);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new AppError('RATE_LIMITED', undefined, 'Too many failed Hosting API key attempts from this address; try again later.');
      }
      if (!(await hostingKeyMatches(deps.db, deps.config, key))) {
        throttle.fail(request.ip, now);
        throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
      }
      return;
    }
    const session = await consoleSessionOf(deps, request);
    if (!session) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
    requireCsrf(request, session);
    if (session.role === 'client') authorizeClientCall(request, session.clientId ?? '');
  };
}
