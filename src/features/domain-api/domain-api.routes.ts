import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { errorResponses } from '../../schemas/common.js';
import { authOf, domainApiAuth, keyHashOf } from './domain-api.auth.js';
import {
  ApiKeyQuery,
  LookupQuery,
  ConsentParams,
  ConsentListSchema,
  ConsentsQuery,
  DomainListItemSchema,
  DomainParams,
  ShownListSchema,
  SnapshotParams,
  SnapshotSchema,
  TestResultSchema,
} from './domain-api.schemas.js';
import { CheckpointSchema } from '../consent-log/consent-log.schemas.js';
import * as service from './domain-api.service.js';

const tags = ['domain-api'];
const security: Array<Record<string, string[]>> = [{ apiKeyQuery: [] }, { bearer: [] }];
const JSON_TYPE = 'application/json; charset=utf-8';

/** The Domain API (interface.md "Domain interface"): read-only, one client's domains and consent log. */
export const domainApiRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.addHook('onRequest', domainApiAuth(deps));

  app.get(
    '/test',
    { schema: { tags, security, summary: 'Check a Domain API key', querystring: ApiKeyQuery, response: { 200: TestResultSchema, ...errorResponses(401, 403) } } },
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
        response: { 200: Type.Array(DomainListItemSchema), ...errorResponses(401, 403) },
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
        response: { 200: ConsentListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { limit, cursor, quarantined } = request.query;
      const list = await service.listConsents(deps, (await authOf(request)).client.id, request.params.domainId, { limit, cursor, quarantined });
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
        querystring: LookupQuery,
        response: { 200: ConsentListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { domainId, consentId } = request.params;
      const text = await service.findConsents(deps, authOf(request), keyHashOf(request), domainId, consentId, request.query.quarantined);
      return reply.type(JSON_TYPE).send(text);
    },
  );

  app.get(
    '/domains/:domainId/consents/:consentId/shown',
    {
      schema: {
        tags, security,
        summary: 'What one visitor saw: each decision of the ucid (current block, newest first) with the texts, purposes and embeddings of its snapshot, in its language',
        params: ConsentParams,
        querystring: ApiKeyQuery,
        response: { 200: ShownListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { domainId, consentId } = request.params;
      return service.shownToVisitor(deps, await authOf(request), keyHashOf(request), domainId, consentId);
    },
  );

  app.get(
    '/domains/:domainId/snapshots/:hash',
    {
      schema: {
        tags, security,
        summary: "A snapshot of what visitors saw, by the hash a record names (the key's own domains only)",
        params: SnapshotParams,
        querystring: ApiKeyQuery,
        response: { 200: SnapshotSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const text = await service.getSnapshot(deps, (await authOf(request)).client.id, request.params.domainId, request.params.hash);
      return reply.type(JSON_TYPE).send(text);
    },
  );

  app.get(
    '/domains/:domainId/checkpoint',
    {
      schema: {
        tags, security,
        summary: "The domain's chain head with Placet's Ed25519 signature: keep it to prove later that nothing before it changed",
        params: DomainParams,
        querystring: ApiKeyQuery,
        response: { 200: CheckpointSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => service.currentCheckpoint(deps, (await authOf(request)).client.id, request.params.domainId),
  );
};
