import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { SESSION_LIFETIME_MS, csrfMatches, resolveSession, type Session } from './console.service.js';

/** The console's session cookie: a random token; the database keeps only its SHA-256. */
export const SESSION_COOKIE = 'placet_console';
export const CSRF_HEADER = 'x-csrf-token';

export type ConsoleSession = Session & { tokenHash: string };

export async function consoleSessionOf(deps: Deps, request: FastifyRequest): Promise<ConsoleSession | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) return undefined;
  return resolveSession(deps, token);
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    // Over TLS (directly, or behind a proxy with TRUST_PROXY) the cookie never travels in clear.
    secure: request.protocol === 'https',
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie-authenticated change needs the session's CSRF token in a header (a cross-site form cannot set one). */
export function requireCsrf(request: FastifyRequest, session: Session): void {
  if (!SAFE_METHODS.has(request.method) && !csrfMatches(request.headers[CSRF_HEADER], session.csrfToken)) {
    throw new AppError('CSRF_FAILED');
  }
}

/**
 * What a client signed in to the console may call in the Hosting API: its own client record (read), its own
 * domains and everything under them, its Domain API key, and the preset catalogue. Another client's id is
 * answered as if it did not exist (404), an agency-only call with 403.
 */
export function authorizeClientCall(request: FastifyRequest, ownClientId: string): void {
  const route = request.routeOptions.url ?? '';
  const method = request.method;
  if (route === '/hosting/api/onboarding/presets' && method === 'GET') return;
  const allowed =
    (route === '/hosting/api/client/:clientId' && method === 'GET') ||
    route === '/hosting/api/client/:clientId/domain-api-key' ||
    route.startsWith('/hosting/api/client/:clientId/domain/') ||
    route === '/hosting/api/client/:clientId/domain';
  if (!allowed) throw new AppError('FORBIDDEN');
  const { clientId } = request.params as { clientId?: string };
  if (clientId !== ownClientId) throw new AppError('CLIENT_NOT_FOUND');
}
