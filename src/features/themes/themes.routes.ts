import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { CreateThemeBody, ThemeSchema, UpdateThemeBody } from './themes.schemas.js';
import * as service from './themes.service.js';

const tags = ['themes'];
const security = HOSTING_SECURITY;
const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
const ThemeParams = Type.Object({ ...DomainParams.properties, themeId: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/theme';

export const themeRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    prefix,
    {
      schema: {
        tags, security, summary: 'Create a theme (look and behaviour of the widget)',
        params: DomainParams,
        body: CreateThemeBody,
        response: { 201: ThemeSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) => reply.status(201).send(await service.createTheme(deps, p.clientId, p.domainId, body)),
  );

  app.get(
    prefix,
    {
      schema: { tags, security, params: DomainParams, response: { 200: Type.Array(ThemeSchema), ...errorResponses(401, 404) } },
    },
    async ({ params: p }) => service.listThemes(deps, p.clientId, p.domainId),
  );

  app.get(
    `${prefix}/:themeId`,
    { schema: { tags, security, params: ThemeParams, response: { 200: ThemeSchema, ...errorResponses(401, 404) } } },
    async ({ params: p }) => service.getTheme(deps, p.clientId, p.domainId, p.themeId),
  );

  app.put(
    `${prefix}/:themeId`,
    {
      schema: {
        tags, security, summary: 'Update a theme; omitted fields keep their value',
        params: ThemeParams,
        body: UpdateThemeBody,
        response: { 200: ThemeSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params: p, body }) => service.updateTheme(deps, p.clientId, p.domainId, p.themeId, body),
  );

  app.delete(
    `${prefix}/:themeId`,
    {
      schema: {
        tags, security, summary: 'Delete a theme (not the last one; a deleted default is replaced by the oldest theme)',
        params: ThemeParams,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params: p }, reply) => {
      await service.deleteTheme(deps, p.clientId, p.domainId, p.themeId);
      return reply.status(204).send(null);
    },
  );
};
