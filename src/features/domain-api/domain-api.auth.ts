import type { FastifyRequest } from 'fastify';
import { sha256Hex, type Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { findClientByDomainApiKeyHash } from '../clients/clients.repository.js';
import type { ClientRow } from '../clients/clients.table.js';

const MESSAGE = 'A valid Domain API key is required in ?apiKey= (create one with POST /hosting/api/client/{clientId}/domain-api-key).';

const authenticated = new WeakMap<FastifyRequest, { client: ClientRow; apiKey: string }>();

/**
 * onRequest hook of `/api`: the secret Domain API key from `?apiKey=`. Only its SHA-256 is stored and the
 * lookup is by that hash, so no comparison ever runs on the secret itself (nothing to time). Creating a
 * new key replaces the hash, so the old key stops working at once.
 */
export function domainApiAuth(deps: Deps) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = (request.query as Record<string, unknown> | undefined)?.apiKey;
    if (typeof key !== 'string' || key === '' || key.length > 200) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
    const client = await findClientByDomainApiKeyHash(deps.db, sha256Hex(key));
    if (!client) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
    authenticated.set(request, { client, apiKey: key });
  };
}

/** The client whose key authenticated this request (set by `domainApiAuth`). */
export function authOf(request: FastifyRequest): { client: ClientRow; apiKey: string } {
  const auth = authenticated.get(request);
  if (!auth) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
  return auth;
}
