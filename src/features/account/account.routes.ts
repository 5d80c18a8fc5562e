import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { LocaleTextsBody, LocaleTextsSchema } from '../locales/locales.schemas.js';
import { AccountThemeSchema, CreateAccountThemeBody, LanguageSchema, UpdateAccountThemeBody } from './account.schemas.js';
import * as service from './account.service.js';

const tags = ['account'];
const security = HOSTING_SECURITY;
const ThemeParams = Type.Object({ themeId: PathIdSchema });
const TextParams = Type.Object({ language: LanguageSchema });
const StandardTexts = Type.Object({ language: Type.String(), ...LocaleTextsSchema.properties });

/**
 * The agency's account-wide themes and standard texts (docs/account.md). Agency only: a client's console
 * session is refused with 403 (console.auth.ts lets clients reach their own client's paths alone).
 */
export const accountRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/account/theme',
    {
      schema: {
        tags, security,
        summary: 'Create an account theme, used on the domains it names (or all) instead of their default theme',
        body: CreateAccountThemeBody,
        response: { 201: AccountThemeSchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async ({ body }, reply) => reply.status(201).send(await service.createAccountTheme(deps, body)),
  );

  app.get(
    '/account/theme',
    { schema: { tags, security, response: { 200: Type.Array(AccountThemeSchema), ...errorResponses(401, 403) } } },
    async () => service.listAccountThemes(deps),
  );

  app.get(
    '/account/theme/:themeId',
    { schema: { tags, security, params: ThemeParams, response: { 200: AccountThemeSchema, ...errorResponses(401, 403, 404) } } },
    async ({ params }) => service.getAccountTheme(deps, params.themeId),
  );

  app.put(
    '/account/theme/:themeId',
    {
      schema: {
        tags, security, summary: 'Update an account theme; omitted fields keep their value; live at once on every domain it reaches',
        params: ThemeParams,
        body: UpdateAccountThemeBody,
        response: { 200: AccountThemeSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async ({ params, body }) => service.updateAccountTheme(deps, params.themeId, body),
  );

  app.delete(
    '/account/theme/:themeId',
    {
      schema: {
        tags, security, summary: 'Delete an account theme; its domains use their own default theme again',
        params: ThemeParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async ({ params }, reply) => {
      await service.deleteAccountTheme(deps, params.themeId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/account/text',
    { schema: { tags, security, summary: 'The standard texts, per language', response: { 200: Type.Array(StandardTexts), ...errorResponses(401, 403) } } },
    async () => (await service.listStandardTexts(deps)).map((t) => ({ language: t.language, ...service.textsView(t.texts) })),
  );

  app.get(
    '/account/text/:language',
    { schema: { tags, security, params: TextParams, response: { 200: StandardTexts, ...errorResponses(401, 403, 404) } } },
    async ({ params }) => ({ language: params.language, ...service.textsView(await service.getStandardTexts(deps, params.language)) }),
  );

  app.put(
    '/account/text/:language',
    {
      schema: {
        tags, security,
        summary: "Set standard texts of a language: they fill every field a domain's locale of that language leaves empty ('' clears)",
        params: TextParams,
        body: LocaleTextsBody,
        response: { 200: StandardTexts, ...errorResponses(400, 401, 403) },
      },
    },
    async ({ params, body }) => ({ language: params.language, ...service.textsView(await service.putStandardTexts(deps, params.language, body)) }),
  );

  app.delete(
    '/account/text/:language',
    {
      schema: { tags, security, params: TextParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } },
    },
    async ({ params }, reply) => {
      await service.deleteStandardTexts(deps, params.language);
      return reply.status(204).send(null);
    },
  );
};
