import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { matchesHash, sha256Hex, type Ids } from '../../deps.js';
import {
  HOSTING_KEY_SETTING,
  getSetting,
  insertSettingIfAbsent,
  upsertSetting,
} from './hosting-auth.repository.js';

/** Generated agency keys: 32 random bytes, hex, with a prefix that makes a leaked key easy to grep for. */
const newKey = (ids: Ids) => `plh_${ids.hex(32)}`;

/**
 * Makes sure a Hosting API key exists. Returns the key when this call generated it (the caller prints it
 * once); `undefined` when HOSTING_API_KEY is set or a key was generated earlier.
 */
export async function ensureHostingKey(db: Db, config: Config, ids: Ids): Promise<string | undefined> {
  if (config.hostingApiKey !== undefined) return undefined;
  const key = newKey(ids);
  return (await insertSettingIfAbsent(db, HOSTING_KEY_SETTING, sha256Hex(key))) ? key : undefined;
}

/** Replaces the stored key; the old one stops working at once in every process. */
export async function rotateHostingKey(db: Db, ids: Ids): Promise<string> {
  const key = newKey(ids);
  await upsertSetting(db, HOSTING_KEY_SETTING, sha256Hex(key));
  return key;
}

/**
 * Checks a presented key in constant time. The stored hash is read on every call rather than cached so
 * that a rotation done by one process (or the CLI) takes effect in all of them at once.
 */
export async function hostingKeyMatches(db: Db, config: Config, presented: string): Promise<boolean> {
  const expected = config.hostingApiKey !== undefined
    ? sha256Hex(config.hostingApiKey)
    : await getSetting(db, HOSTING_KEY_SETTING);
  return expected !== undefined && matchesHash(presented, expected);
}

/** The key from `?apiKey=` (the form existing integrations use) or `Authorization: Bearer`. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
    if (match) return match[1];
  }
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.apiKey;
  return typeof fromQuery === 'string' && fromQuery.length <= 512 ? fromQuery : undefined;
}
