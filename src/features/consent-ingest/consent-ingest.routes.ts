import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';

export const consentIngestRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, { deps: _deps }) => {
  // Routes of this feature are registered here.
};
