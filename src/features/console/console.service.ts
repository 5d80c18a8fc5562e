import bcrypt from 'bcryptjs';
import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { sha256Hex } from '../../deps.js';
import { AppError } from '../../errors.js';
import { findClientByUsername } from '../clients/clients.repository.js';
import { hostingKeyMatches } from '../hosting-auth/hosting-auth.service.js';
import {
  addFailure,
  clearFailures,
  deleteExpiredSessions,
  deleteSession,
  findSession,
  insertSession,
  recentFailures,
  touchSession,
} from './console.repository.js';
import type { ConsoleSessionRow } from './console.table.js';

/** Limits of console sessions and sign-ins (documented in docs/console.md). */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export type SignIn = { role: 'agency'; key: string } | { role: 'client'; username: string; password: string };

export interface Session {
  role: 'agency' | 'client';
  clientId: string | null;
  csrfToken: string;
  expiresAt: string;
}

/** A bcrypt hash to compare against when the username does not exist, so both cases take as long. */
const DUMMY_HASH = bcrypt.hashSync('placet-console-dummy-password', 10);

/** Checks the credentials (throttled per account and per address) and opens a session. */
export async function signIn(deps: Deps, input: SignIn, address: string): Promise<{ token: string; session: Session }> {
  const now = deps.clock.now();
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS).toISOString();
  const accountKey = input.role === 'agency' ? 'agency' : `user:${input.username.toLowerCase()}`;
  const addressKey = `ip:${address}`;
  const [accountFailures, addressFailures] = await Promise.all([
    recentFailures(deps.db, accountKey, since),
    recentFailures(deps.db, addressKey, since),
  ]);
  if (accountFailures >= MAX_FAILURES_PER_ACCOUNT || addressFailures >= MAX_FAILURES_PER_ADDRESS) {
    throw new AppError('RATE_LIMITED', undefined, `Too many failed sign-ins. Try again in ${FAILURE_WINDOW_MS / 60_000} minutes.`);
  }
  const clientId = await verify(deps, input);
  if (clientId === undefined) {
    await addFailure(deps.db, accountKey, now.toISOString(), since);
    await addFailure(deps.db, addressKey, now.toISOString(), since);
    throw new AppError('LOGIN_FAILED');
  }
  await clearFailures(deps.db, accountKey);
  await deleteExpiredSessions(deps.db, now.toISOString());
  const token = deps.ids.hex(32);
  const session: Session = {
    role: input.role,
    clientId,
    csrfToken: deps.ids.hex(32),
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
  };
  await insertSession(deps.db, {
    token_hash: sha256Hex(token),
    role: session.role,
    client_id: session.clientId,
    csrf_token: session.csrfToken,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: session.expiresAt,
  });
  return { token, session };
}

/** `null` for the agency, the client's id for a client, `undefined` when the credentials do not hold. */
async function verify(deps: Deps, input: SignIn): Promise<string | null | undefined> {
  if (input.role === 'agency') return (await hostingKeyMatches(deps.db, deps.config, input.key)) ? null : undefined;
  const client = await findClientByUsername(deps.db, input.username);
  const matches = await bcrypt.compare(input.password, client?.password_hash ?? DUMMY_HASH);
  return client && matches && client.active === 1 ? client.id : undefined;
}

/** The session a cookie token names, unless expired (absolute or idle) or its client deactivated; slides the idle timer. */
export async function resolveSession(deps: Deps, token: string): Promise<(Session & { tokenHash: string }) | undefined> {
  const tokenHash = sha256Hex(token);
  const row = await findSession(deps.db, tokenHash);
  if (!row) return undefined;
  const now = deps.clock.now();
  const expired = row.expires_at <= now.toISOString() || Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= now.getTime();
  // A client the agency deactivated is signed out at its next request.
  const deactivated = row.role === 'client' && row.client_active !== 1;
  if (expired || deactivated) {
    await deleteSession(deps.db, tokenHash);
    return undefined;
  }
  // Write the idle timer at most once a minute, not on every call.
  if (Date.parse(row.last_seen_at) + 60_000 < now.getTime()) await touchSession(deps.db, tokenHash, now.toISOString());
  return { ...rowToSession(row), tokenHash };
}

export async function signOut(deps: Deps, tokenHash: string): Promise<void> {
  await deleteSession(deps.db, tokenHash);
}

export function csrfMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string' || presented.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(presented), Buffer.from(expected));
}

const rowToSession = (row: ConsoleSessionRow): Session => ({
  role: row.role,
  clientId: row.client_id,
  csrfToken: row.csrf_token,
  expiresAt: row.expires_at,
});
