import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { errorResponses } from '../../schemas/common.js';
import { authOf, domainApiAuth, keyHashOf } from './domain-api.auth.js';
import {
  ApiKeyQuery,
  ConsentParams,
  ConsentListSchema,
  ConsentsQuery,
  DomainListItemSchema,
  DomainParams,
  TestResultSchema,
} from './domain-api.schemas.js';
import * as service from './domain-api.service.js';

const tags = ['domain-api'];
const security: Array<Record<string, string[]>> = [{ apiKeyQuery: [] }, { bearer: [] }];
const JSON_TYPE = 'application/json; charset=utf-8';

/** The Domain API (interface.md "Domain interface"): read-only, one client's domains and consent log. */
export const domainApiRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.addHook('onRequest', domainApiAuth(deps));

  app.get(
    '/test',
    { schema: { tags, security, summary: 'Check a Domain API key', querystring: ApiKeyQuery, response: { 200: TestResultSchema, ...errorResponses(401) } } },
    async (request) => {
      const { client, apiKey } = await authOf(request);
      return { username: client.username, apiKey };
    },
  );

  app.get(
    '/domains',
    {
      schema: {
        tags, security, summary: "The key's client's domains",
        querystring: ApiKeyQuery,
        response: { 200: Type.Array(DomainListItemSchema), ...errorResponses(401) },
      },
    },
    async (request) => service.listDomains(deps, (await authOf(request)).client.id),
  );

  app.get(
    '/domains/:domainId/consents',
    {
      schema: {
        tags, security,
        summary: 'Consent records of the current block, newest first (streamed; pages with limit and cursor)',
        params: DomainParams,
        querystring: ConsentsQuery,
        response: { 200: ConsentListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const list = await service.listConsents(deps, (await authOf(request)).client.id, request.params.domainId, { limit, cursor });
      reply.type(JSON_TYPE);
      if (list.kind === 'stream') return reply.send(Readable.from(list.chunks));
      // The secret key is not repeated in the link: the caller adds its own apiKey.
      if (list.next) reply.header('link', `<${request.url.split('?')[0]}?limit=${limit}&cursor=${list.next}>; rel="next"`);
      return reply.send(list.body);
    },
  );

  app.get(
    '/domains/:domainId/consents/:consentId',
    {
      config: { deferAuth: true },
      schema: {
        tags, security,
        summary: 'The history of one ucid in the current block, by full ucid or unique prefix; [] when none or several match',
        params: ConsentParams,
        querystring: ApiKeyQuery,
        response: { 200: ConsentListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { domainId, consentId } = request.params;
      const text = await service.findConsents(deps, authOf(request), keyHashOf(request), domainId, consentId);
      return reply.type(JSON_TYPE).send(text);
    },
  );
};
