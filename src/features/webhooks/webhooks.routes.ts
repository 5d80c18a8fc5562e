import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import {
  CreateWebhookBody,
  CreatedWebhookSchema,
  DeliveriesQuery,
  DeliverySchema,
  UpdateWebhookBody,
  WebhookSchema,
} from './webhooks.schemas.js';
import * as service from './webhooks.service.js';
import type { AppendedRecords } from '../consent-log/consent-log.appended.js';
import { WebhookWorker } from './webhooks.worker.js';

const tags = ['webhooks'];
const security = HOSTING_SECURITY;
const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
const HookParams = Type.Object({ ...DomainParams.properties, webhookId: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/webhook';

/** Consent webhooks (docs/webhooks.md): CRUD, delivery state, a test call; and this process's delivery worker. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; worker?: WebhookWorker; appended?: AppendedRecords }> = async (
  app,
  { deps, worker, appended },
) => {
  const delivery = worker ?? new WebhookWorker(deps, undefined, appended);
  if (!worker) delivery.start();
  app.addHook('onClose', () => delivery.stop());

  app.post(
    prefix,
    {
      schema: {
        tags, security, summary: 'Register an endpoint that receives the domain\'s consent decisions (secret shown once)',
        params: DomainParams, body: CreateWebhookBody,
        response: { 201: CreatedWebhookSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params: p, body }, reply) => reply.status(201).send(await service.createWebhook(deps, p.clientId, p.domainId, body)),
  );

  app.get(
    prefix,
    { schema: { tags, security, params: DomainParams, response: { 200: Type.Array(WebhookSchema), ...errorResponses(401, 404) } } },
    async ({ params: p }) => service.getWebhooks(deps, p.clientId, p.domainId),
  );

  app.get(
    `${prefix}/:webhookId`,
    { schema: { tags, security, params: HookParams, response: { 200: WebhookSchema, ...errorResponses(401, 404) } } },
    async ({ params: p }) => service.getWebhook(deps, p.clientId, p.domainId, p.webhookId),
  );

  app.patch(
    `${prefix}/:webhookId`,
    {
      schema: {
        tags, security, summary: 'Change the URL or switch the webhook on or off',
        params: HookParams, body: UpdateWebhookBody,
        response: { 200: WebhookSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params: p, body }) => service.updateWebhook(deps, p.clientId, p.domainId, p.webhookId, body),
  );

  app.delete(
    `${prefix}/:webhookId`,
    { schema: { tags, security, params: HookParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } } },
    async ({ params: p }, reply) => {
      await service.deleteWebhook(deps, p.clientId, p.domainId, p.webhookId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    `${prefix}/:webhookId/delivery`,
    {
      schema: {
        tags, security, summary: 'Recent deliveries, newest first, with status, attempts and last error',
        params: HookParams, querystring: DeliveriesQuery,
        response: { 200: Type.Array(DeliverySchema), ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params: p, query }) => service.getDeliveries(deps, p.clientId, p.domainId, p.webhookId, query.limit ?? 50),
  );

  app.post(
    `${prefix}/:webhookId/test`,
    {
      schema: {
        tags, security, summary: 'Queue a signed webhook.test event; its state shows in the delivery list',
        params: HookParams,
        response: { 202: DeliverySchema, ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }, reply) => {
      const queued = await service.testWebhook(deps, p.clientId, p.domainId, p.webhookId);
      void delivery.tick();
      return reply.status(202).send(queued);
    },
  );
};
