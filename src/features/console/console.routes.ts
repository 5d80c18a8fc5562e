import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { LANDING_PAGE } from './landing.js';

const html = (reply: FastifyReply, body: string) =>
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);

/**
 * Pages for people: `/` names the console and the API docs; `/public/` (the WordPress plugin's "open back
 * end" link, the established product's back-end address) leads to that page. Redirects are relative,
 * so they hold under a path prefix.
 */
export const consoleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => html(reply, LANDING_PAGE));
  app.get('/public', { schema: { hide: true } }, async (_request, reply) => reply.redirect('./', 302));
  app.get('/public/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('../', 302));
};
