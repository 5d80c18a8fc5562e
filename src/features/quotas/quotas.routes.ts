import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { monthOf } from '../clients/clients.service.js';
import { quotaNoticesFor } from './quotas.notices.js';

const tags = ['clients'];
const security = HOSTING_SECURITY;
const ClientParams = Type.Object({ clientId: PathIdSchema });

const NoticeSchema = Type.Object({
  month: Type.String(),
  threshold: Type.Integer({ description: 'percent of the quota' }),
  used: Type.Integer(),
  quota: Type.Integer(),
  emailStatus: Type.String({ description: 'none (no e-mail configured), sent or failed' }),
  emailError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

/** Quotas (docs/quotas.md): this month's notices and the manual reset of the current month. */
export const quotaRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const requireClient = async (clientId: string) => {
    const row = await deps.db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst();
    if (!row) throw new AppError('CLIENT_NOT_FOUND');
  };

  app.get(
    '/client/:clientId/quota/notice',
    {
      schema: {
        tags, security, summary: 'Quota thresholds the client reached, newest month first',
        params: ClientParams, response: { 200: Type.Array(NoticeSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params }) => {
      await requireClient(params.clientId);
      const rows = await deps.db
        .selectFrom('quota_notices')
        .selectAll()
        .where('client_id', '=', params.clientId)
        .orderBy('month', 'desc')
        .orderBy('threshold')
        .limit(240)
        .execute();
      return rows.map((r) => ({
        month: r.month, threshold: r.threshold, used: r.used, quota: r.quota,
        emailStatus: r.email_status, emailError: r.email_error, createdAt: r.created_at,
      }));
    },
  );

  app.post(
    '/client/:clientId/quota/reset',
    {
      schema: {
        tags, security, summary: "Reset the client's widget calls of the current month (UTC) to zero",
        params: ClientParams,
        response: { 200: Type.Object({ month: Type.String(), resetCalls: Type.Integer() }), ...errorResponses(401, 404) },
      },
    },
    async ({ params }) => {
      await requireClient(params.clientId);
      const month = monthOf(deps.clock.now());
      const resetCalls = await deps.db.transaction().execute(async (trx) => {
        const domains = trx.selectFrom('domains').select('id').where('client_id', '=', params.clientId);
        const before = await trx
          .selectFrom('call_counts')
          .select((eb) => eb.fn.sum<number | string>('count').as('total'))
          .where('month', '=', month)
          .where('domain_id', 'in', domains)
          .executeTakeFirst();
        await trx.updateTable('call_counts').set({ count: 0 }).where('month', '=', month).where('domain_id', 'in', domains).execute();
        // The thresholds can be reached (and notified) again this month.
        await trx.deleteFrom('quota_notices').where('client_id', '=', params.clientId).where('month', '=', month).execute();
        return Number(before?.total ?? 0);
      });
      quotaNoticesFor(deps).forget(params.clientId);
      deps.log.info({ clientId: params.clientId, month, resetCalls }, 'quota reset');
      return { month, resetCalls };
    },
  );
};
