import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { AssetSchema, CreateAssetBody, UpdateAssetBody } from './assets.schemas.js';
import * as service from './assets.service.js';

const tags = ['assets'];
const security = HOSTING_SECURITY;
const EmbeddingParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema, embeddingId: PathIdSchema });
const AssetParams = Type.Object({ ...EmbeddingParams.properties, assetId: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/embedding/:embeddingId/asset';

export const assetRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    prefix,
    {
      schema: {
        tags, security, summary: 'Add an asset (cookie or storage entry) to an embedding',
        params: EmbeddingParams,
        body: CreateAssetBody,
        response: { 201: AssetSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) =>
      reply.status(201).send(await service.createAsset(deps, p.clientId, p.domainId, p.embeddingId, body)),
  );

  app.get(
    prefix,
    {
      schema: {
        tags, security, params: EmbeddingParams,
        response: { 200: Type.Array(AssetSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }) => service.listAssets(deps, p.clientId, p.domainId, p.embeddingId),
  );

  app.get(
    `${prefix}/:assetId`,
    { schema: { tags, security, params: AssetParams, response: { 200: AssetSchema, ...errorResponses(401, 404) } } },
    async ({ params: p }) => service.getAsset(deps, p.clientId, p.domainId, p.embeddingId, p.assetId),
  );

  app.put(
    `${prefix}/:assetId`,
    {
      schema: {
        tags, security, summary: 'Update an asset; omitted fields keep their value',
        params: AssetParams,
        body: UpdateAssetBody,
        response: { 200: AssetSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }) => service.updateAsset(deps, p.clientId, p.domainId, p.embeddingId, p.assetId, body),
  );

  app.delete(
    `${prefix}/:assetId`,
    {
      schema: {
        tags, security, params: AssetParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }, reply) => {
      await service.deleteAsset(deps, p.clientId, p.domainId, p.embeddingId, p.assetId);
      return reply.status(204).send(null);
    },
  );
};
