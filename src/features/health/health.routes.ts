import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';

const Status = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'The process is alive', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database is reachable',
        response: { 200: Status, ...errorResponses(503) },
      },
    },
    async () => {
      try {
        await sql`select 1`.execute(deps.db);
      } catch {
        throw new AppError('UNAVAILABLE', undefined, 'The database is not reachable.');
      }
      return { status: 'ready' };
    },
  );
};
