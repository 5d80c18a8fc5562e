import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { FailureThrottle } from './failure-throttle.js';
import { hostingKeyMatches, presentedKey } from './hosting-auth.service.js';

/**
 * onRequest hook for `/hosting/api/*`: runs before the body is read, so anonymous uploads cost nothing.
 * An address with HOSTING_AUTH_FAILURES_PER_MINUTE failed attempts in the current minute gets 429 without
 * its key being checked, until the minute is over.
 */
export function hostingAuth(deps: Deps) {
  const throttle = new FailureThrottle(deps.config.hostingAuthFailuresPerMinute);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const now = deps.clock.now().getTime();
    const wait = throttle.retryAfter(request.ip, now);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new AppError('RATE_LIMITED', undefined, 'Too many failed Hosting API key attempts from this address; try again later.');
    }
    const key = presentedKey(request);
    if (key === undefined || !(await hostingKeyMatches(deps.db, deps.config, key))) {
      throttle.fail(request.ip, now);
      throw new AppError('UNAUTHORIZED', undefined, 'A valid Hosting API key is required (?apiKey= or Authorization: Bearer).');
    }
  };
}
