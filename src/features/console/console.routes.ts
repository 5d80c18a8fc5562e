import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { clearSessionCookie, consoleSessionOf, requireCsrf, setSessionCookie } from './console.auth.js';
import { SessionSchema, SignInBody, type SignInInput } from './console.schemas.js';
import { signIn, signOut, type SignIn } from './console.service.js';
import { consoleAssets } from './console.assets.js';
import { LANDING_PAGE } from './landing.js';

const html = (reply: FastifyReply, body: string) =>
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);

const tags = ['console'];
const publicRoute: Array<Record<string, string[]>> = [];
// The session cookie is not an OpenAPI security scheme of its own here: these routes are for the console.
const sessionSecurity = publicRoute;

/**
 * Pages for people and the console. `/` names the console and the API docs; `/public/` (the WordPress
 * plugin's "open back end" link, the established product's back-end address) leads to the console.
 * Redirects are relative, so they hold under a path prefix. The console itself is a static bundle
 * (console/, built by `npm run build:console`) that calls the Hosting API with its session cookie.
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const assets = consoleAssets();
  app.get('/', { schema: { hide: true } }, async (_request, reply) => html(reply, LANDING_PAGE));
  app.get('/public', { schema: { hide: true } }, async (_request, reply) => reply.redirect('console/', 302));
  app.get('/public/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('../console/', 302));
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('console/', 302));
  app.get('/console/', { schema: { hide: true } }, async (_request, reply) => html(reply, assets.index));
  app.get('/console/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const file = assets.files.get((request.params as { file: string }).file);
    if (!file) throw new AppError('NOT_FOUND');
    return reply.header('content-type', file.type).header('cache-control', 'no-cache').send(file.body);
  });

  app.post(
    '/console/api/session',
    {
      bodyLimit: 4096,
      schema: {
        tags, security: publicRoute, summary: 'Sign in to the console (agency with the Hosting API key, or an active client)',
        body: SignInBody,
        response: { 201: SessionSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { token, session } = await signIn(deps, signInOf(request.body), request.ip);
      setSessionCookie(request, reply, token);
      return reply.status(201).send(session);
    },
  );

  app.get(
    '/console/api/session',
    {
      schema: {
        tags, security: sessionSecurity, summary: 'The current console session (and its CSRF token)',
        response: { 200: SessionSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const session = await consoleSessionOf(deps, request);
      if (!session) throw new AppError('UNAUTHORIZED', undefined, 'Not signed in to the console.');
      const { tokenHash: _hash, ...rest } = session;
      return rest;
    },
  );

  app.delete(
    '/console/api/session',
    {
      schema: {
        tags, security: sessionSecurity, summary: 'Sign out of the console',
        response: { 204: Type.Null(), ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const session = await consoleSessionOf(deps, request);
      if (session) {
        requireCsrf(request, session);
        await signOut(deps, session.tokenHash);
      }
      clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );
};

function signInOf(body: SignInInput): SignIn {
  if (body.role === 'agency' && body.key !== undefined) return { role: 'agency', key: body.key };
  if (body.role === 'client' && body.username !== undefined && body.password !== undefined) {
    return { role: 'client', username: body.username, password: body.password };
  }
  const missing = body.role === 'agency' ? ['key'] : ['username', 'password'].filter((f) => body[f as 'username'] === undefined);
  throw new AppError('VALIDATION_FAILED', missing.map((f) => ({ field: `body.${f}`, message: `is required to sign in as ${body.role}` })));
}
