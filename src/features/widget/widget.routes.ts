import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';

/** Public: GET /public/app.js. */
export const widgetRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, { deps: _deps }) => {};

/** Hosting API: GET …/onboarding/embed. */
export const widgetHostingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
