import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { CreateDomainBody, DomainSchema, UpdateDomainBody } from './domains.schemas.js';
import * as service from './domains.service.js';

const tags = ['domains'];
const security = HOSTING_SECURITY;
const ClientParams = Type.Object({ clientId: PathIdSchema });
const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });

export const domainRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/client/:clientId/domain',
    {
      schema: {
        tags, security, summary: 'Create a domain',
        params: ClientParams,
        body: CreateDomainBody,
        response: { 201: DomainSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createDomain(deps, request.params.clientId, request.body)),
  );

  app.get(
    '/client/:clientId/domain',
    {
      schema: {
        tags, security, summary: 'List the client\'s domains',
        params: ClientParams,
        response: { 200: Type.Array(DomainSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => service.listDomains(deps, request.params.clientId),
  );

  app.get(
    '/client/:clientId/domain/:domainId',
    { schema: { tags, security, params: DomainParams, response: { 200: DomainSchema, ...errorResponses(401, 404) } } },
    async (request) => service.getDomain(deps, request.params.clientId, request.params.domainId),
  );

  app.put(
    '/client/:clientId/domain/:domainId',
    {
      schema: {
        tags, security, summary: 'Update a domain; omitted fields keep their value',
        params: DomainParams,
        body: UpdateDomainBody,
        response: { 200: DomainSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request) =>
      service.updateDomain(deps, request.params.clientId, request.params.domainId, request.body),
  );

  app.delete(
    '/client/:clientId/domain/:domainId',
    {
      schema: {
        tags, security, summary: 'Delete a domain and everything it owns',
        params: DomainParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteDomain(deps, request.params.clientId, request.params.domainId);
      return reply.status(204).send(null);
    },
  );
};
