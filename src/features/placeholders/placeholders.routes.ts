import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import {
  CreatePlaceholderBody,
  PlaceholderSchema,
  ReplacePlaceholdersBody,
  UpdatePlaceholderBody,
} from './placeholders.schemas.js';
import * as service from './placeholders.service.js';

const tags = ['placeholders'];
const security = HOSTING_SECURITY;
const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
const NameParams = Type.Object({ ...DomainParams.properties, placeholderName: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/placeholder';

export const placeholderRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    prefix,
    {
      schema: {
        tags, security, summary: 'Create a text variable such as {COMPANY}',
        params: DomainParams,
        body: CreatePlaceholderBody,
        response: { 201: PlaceholderSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) =>
      reply.status(201).send(await service.createPlaceholder(deps, p.clientId, p.domainId, body)),
  );

  app.put(
    prefix,
    {
      schema: {
        tags, security, summary: 'Replace all placeholders of the domain at once',
        params: DomainParams,
        body: ReplacePlaceholdersBody,
        response: { 201: Type.Array(PlaceholderSchema), ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) =>
      reply.status(201).send(await service.replacePlaceholders(deps, p.clientId, p.domainId, body)),
  );

  app.get(
    prefix,
    {
      schema: {
        tags, security, params: DomainParams,
        response: { 200: Type.Array(PlaceholderSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }) => service.listPlaceholders(deps, p.clientId, p.domainId),
  );

  app.get(
    `${prefix}/:placeholderName`,
    { schema: { tags, security, params: NameParams, response: { 200: PlaceholderSchema, ...errorResponses(401, 404) } } },
    async ({ params: p }) => service.getPlaceholder(deps, p.clientId, p.domainId, p.placeholderName),
  );

  app.put(
    `${prefix}/:placeholderName`,
    {
      schema: {
        tags, security, summary: 'Change a placeholder\'s value (the name cannot change)',
        params: NameParams,
        body: UpdatePlaceholderBody,
        response: { 200: PlaceholderSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }) => service.updatePlaceholder(deps, p.clientId, p.domainId, p.placeholderName, body),
  );

  app.delete(
    `${prefix}/:placeholderName`,
    {
      schema: { tags, security, params: NameParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } },
    },
    async ({ params: p }, reply) => {
      await service.deletePlaceholder(deps, p.clientId, p.domainId, p.placeholderName);
      return reply.status(204).send(null);
    },
  );
};
