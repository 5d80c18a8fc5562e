import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import {
  ClientListItemSchema,
  ClientSchema,
  CreateClientBody,
  DomainApiKeySchema,
  UpdateClientBody,
} from './clients.schemas.js';
import * as service from './clients.service.js';

const tags = ['clients'];
const security = HOSTING_SECURITY;
const ClientParams = Type.Object({ clientId: PathIdSchema });

export const clientRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/client',
    {
      schema: {
        tags, security, summary: 'Create a client account',
        body: CreateClientBody,
        response: { 201: ClientSchema, ...errorResponses(400, 401, 413) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createClient(deps, request.body)),
  );

  app.get(
    '/client',
    {
      schema: {
        tags, security, summary: 'List all client accounts with this month\'s call counts',
        response: { 200: Type.Array(ClientListItemSchema), ...errorResponses(401) },
      },
    },
    async () => service.listClients(deps),
  );

  app.get(
    '/client/:clientId',
    { schema: { tags, security, params: ClientParams, response: { 200: ClientSchema, ...errorResponses(401, 404) } } },
    async (request) => service.getClient(deps, request.params.clientId),
  );

  app.put(
    '/client/:clientId',
    {
      schema: {
        tags, security, summary: 'Update a client; omitted fields keep their value',
        params: ClientParams,
        body: UpdateClientBody,
        response: { 200: ClientSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async (request) => service.updateClient(deps, request.params.clientId, request.body),
  );

  app.delete(
    '/client/:clientId',
    {
      schema: {
        tags, security, summary: 'Delete a client and everything it owns',
        params: ClientParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteClient(deps, request.params.clientId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/client/by-username/:username',
    {
      schema: {
        tags, security, summary: 'Find a client by username (case-insensitive)',
        params: Type.Object({ username: PathIdSchema }),
        response: { 200: ClientSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.getClientByUsername(deps, request.params.username),
  );

  app.get(
    '/client/by-apiKey/:apiKey',
    {
      schema: {
        tags, security, summary: 'Find a client by its public apiKey',
        params: Type.Object({ apiKey: PathIdSchema }),
        response: { 200: ClientSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.getClientByApiKey(deps, request.params.apiKey),
  );

  app.get(
    '/clientgetid/:searchTerm',
    {
      schema: {
        tags, security, deprecated: true,
        summary: 'Deprecated: find a client by username or e-mail address; use /client/by-username',
        params: Type.Object({ searchTerm: Type.String({ minLength: 1, maxLength: 320 }) }),
        response: { 200: ClientSchema, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      // RFC 9745: deprecated since 2026-01-01; the successor finds by username.
      reply.header('Deprecation', '@1767225600');
      reply.header('Link', '</hosting/api/client/by-username/{username}>; rel="successor-version"');
      return service.searchClient(deps, request.params.searchTerm);
    },
  );

  app.post(
    '/client/:clientId/domain-api-key',
    {
      schema: {
        tags, security,
        summary: 'Create the secret Domain API key, replacing and invalidating the previous one',
        params: ClientParams,
        response: { 201: DomainApiKeySchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ apiKey: await service.createDomainApiKey(deps, request.params.clientId) }),
  );
};
