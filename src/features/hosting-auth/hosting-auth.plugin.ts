import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { hostingKeyMatches, presentedKey } from './hosting-auth.service.js';

/** onRequest hook for `/hosting/api/*`: runs before the body is read, so anonymous uploads cost nothing. */
export function hostingAuth(deps: Deps) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const key = presentedKey(request);
    if (key === undefined || !(await hostingKeyMatches(deps.db, deps.config, key))) {
      throw new AppError('UNAUTHORIZED', undefined, 'A valid Hosting API key is required (?apiKey= or Authorization: Bearer).');
    }
  };
}
