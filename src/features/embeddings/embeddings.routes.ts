import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { CreateEmbeddingBody, EmbeddingSchema, UpdateEmbeddingBody } from './embeddings.schemas.js';
import * as service from './embeddings.service.js';

const tags = ['embeddings'];
const security = HOSTING_SECURITY;
const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
const EmbeddingParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema, embeddingId: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/embedding';

export const embeddingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    prefix,
    {
      schema: {
        tags, security, summary: 'Create an embedding (a service), with its assets',
        params: DomainParams,
        body: CreateEmbeddingBody,
        response: { 201: EmbeddingSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params, body }, reply) =>
      reply.status(201).send(await service.createEmbedding(deps, params.clientId, params.domainId, body)),
  );

  app.get(
    prefix,
    {
      schema: {
        tags, security, summary: 'List the domain\'s embeddings with their assets',
        params: DomainParams,
        response: { 200: Type.Array(EmbeddingSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params }) => service.listEmbeddings(deps, params.clientId, params.domainId),
  );

  app.get(
    `${prefix}/:embeddingId`,
    { schema: { tags, security, params: EmbeddingParams, response: { 200: EmbeddingSchema, ...errorResponses(401, 404) } } },
    async ({ params }) => service.getEmbedding(deps, params.clientId, params.domainId, params.embeddingId),
  );

  app.put(
    `${prefix}/:embeddingId`,
    {
      schema: {
        tags, security, summary: 'Update an embedding; omitted fields keep their value, `assets` replaces all',
        params: EmbeddingParams,
        body: UpdateEmbeddingBody,
        response: { 200: EmbeddingSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params, body }) =>
      service.updateEmbedding(deps, params.clientId, params.domainId, params.embeddingId, body),
  );

  app.delete(
    `${prefix}/:embeddingId`,
    {
      schema: {
        tags, security, summary: 'Delete an embedding and its assets',
        params: EmbeddingParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async ({ params }, reply) => {
      await service.deleteEmbedding(deps, params.clientId, params.domainId, params.embeddingId);
      return reply.status(204).send(null);
    },
  );
};
