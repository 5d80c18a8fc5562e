import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HOSTING_SECURITY, errorResponses } from '../../schemas/common.js';
import { PresetPageSchema, PresetQuery } from './presets.schemas.js';
import { browsePresets } from './presets.service.js';

/** Hosting API: GET /onboarding/presets — browse and search the shipped preset catalogue. */
export const presetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/onboarding/presets',
    {
      schema: {
        tags: ['onboarding'],
        security: HOSTING_SECURITY,
        summary: 'Browse the preset catalogue (search, purpose filter, offset/limit paging)',
        querystring: PresetQuery,
        response: { 200: PresetPageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => browsePresets(request.query),
  );
};
