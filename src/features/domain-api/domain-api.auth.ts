import type { FastifyRequest } from 'fastify';
import { sha256Hex, type Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { findClientByDomainApiKeyHash } from '../clients/clients.repository.js';
import type { ClientRow } from '../clients/clients.table.js';
import { parseFeatures } from '../clients/clients.service.js';
import { requireFeature } from '../clients/feature-gates.js';

const MESSAGE =
  'A valid Domain API key is required in ?apiKey= or Authorization: Bearer (create one with POST /hosting/api/client/{clientId}/domain-api-key).';

export interface DomainApiAuth {
  client: ClientRow;
  apiKey: string;
}

interface KeyLookup {
  apiKey: string;
  keyHash: string;
  client: Promise<ClientRow | undefined>;
}

const lookups = new WeakMap<FastifyRequest, KeyLookup>();

/**
 * onRequest hook of `/api`: the secret Domain API key from `?apiKey=` or `Authorization: Bearer`. Only its SHA-256 is stored and the
 * lookup is by that hash, so no comparison ever runs on the secret itself (nothing to time). Creating a
 * new key replaces the hash, so the old key stops working at once.
 *
 * A route with `config.deferAuth` is not held up by the lookup: it awaits `authOf` itself and may run its
 * first query, scoped by the key's hash, at the same time (the prefix lookup, one round trip fewer on
 * PostgreSQL). Such a route answers a request that fails validation with 400 before checking the key.
 */
export function domainApiAuth(deps: Deps) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = (request.query as Record<string, unknown> | undefined)?.apiKey ?? bearerKey(request.headers.authorization);
    if (typeof key !== 'string' || key === '' || key.length > 200) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
    const keyHash = sha256Hex(key);
    const client = findClientByDomainApiKeyHash(deps.db, keyHash);
    lookups.set(request, { apiKey: key, keyHash, client });
    if (request.routeOptions.config.deferAuth === true) {
      // Awaited by the handler; a request that fails validation first never gets there.
      client.catch(() => undefined);
      return;
    }
    await authOf(request);
  };
}

/** The key of `Authorization: Bearer <key>`, which may stand in for `?apiKey=` (the query wins when both are given). */
function bearerKey(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

/** The client whose key authenticated this request; 401 when the key names none, 403 without canUseDomAPI. */
export async function authOf(request: FastifyRequest): Promise<DomainApiAuth> {
  const lookup = lookups.get(request);
  const client = await lookup?.client;
  if (!lookup || !client) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
  // A valid key of a client without the Domain API: 403, so the caller learns the key is right but the
  // feature is off. The key is kept and works again once the flag is on.
  requireFeature(parseFeatures(client.features), 'canUseDomAPI', 'features.canUseDomAPI');
  return { client, apiKey: lookup.apiKey };
}

/** SHA-256 of the request's key, for a query scoped by the key itself (see `deferAuth`). */
export function keyHashOf(request: FastifyRequest): string {
  const lookup = lookups.get(request);
  if (!lookup) throw new AppError('UNAUTHORIZED', undefined, MESSAGE);
  return lookup.keyHash;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler checks the Domain API key itself, concurrently with its first query. */
    deferAuth?: boolean;
  }
}
