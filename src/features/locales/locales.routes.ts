import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { CreateLocaleBody, LocaleQuery, LocaleSchema, UpdateLocaleBody } from './locales.schemas.js';
import * as service from './locales.service.js';

const tags = ['locales'];
const security = HOSTING_SECURITY;
const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
const NameParams = Type.Object({ ...DomainParams.properties, localeName: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/locale';

export const localeRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    prefix,
    {
      schema: {
        tags, security, summary: 'Create the texts of one language',
        params: DomainParams,
        body: CreateLocaleBody,
        response: { 201: LocaleSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) => reply.status(201).send(await service.createLocale(deps, p.clientId, p.domainId, body)),
  );

  app.get(
    prefix,
    {
      schema: {
        tags, security, params: DomainParams,
        response: { 200: Type.Array(LocaleSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }) => service.listLocales(deps, p.clientId, p.domainId),
  );

  app.get(
    `${prefix}/:localeName`,
    {
      schema: {
        tags, security, summary: 'Read a locale: the stored fields, or with ?effective=true what the widget shows',
        params: NameParams,
        querystring: LocaleQuery,
        response: { 200: LocaleSchema, ...errorResponses(401, 404) },
      },
    },
    async ({ params: p, query }) => service.getLocale(deps, p.clientId, p.domainId, p.localeName, query.effective === true),
  );

  app.put(
    `${prefix}/:localeName`,
    {
      schema: {
        tags, security, summary: 'Update a locale; omitted fields keep their value, "" clears one',
        params: NameParams,
        body: UpdateLocaleBody,
        response: { 200: LocaleSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params: p, body }) => service.updateLocale(deps, p.clientId, p.domainId, p.localeName, body),
  );

  app.delete(
    `${prefix}/:localeName`,
    { schema: { tags, security, params: NameParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } } },
    async ({ params: p }, reply) => {
      await service.deleteLocale(deps, p.clientId, p.domainId, p.localeName);
      return reply.status(204).send(null);
    },
  );
};
