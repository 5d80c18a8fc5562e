import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';

const UrlSchema = Type.String({ minLength: 8, maxLength: 2048, description: 'https:// address that receives the events' });

export const CreateWebhookBody = Type.Object(
  { url: UrlSchema, enabled: Type.Optional(Type.Boolean({ default: true })) },
  { additionalProperties: false },
);
export type CreateWebhook = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  { url: Type.Optional(UrlSchema), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type UpdateWebhook = Static<typeof UpdateWebhookBody>;

export const WebhookSchema = Type.Object({
  id: Type.String(),
  domainId: Type.String(),
  url: Type.String(),
  enabled: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({ description: 'Signing secret (whsec_…). Shown only in this answer.' }),
});

export const DeliverySchema = Type.Object({
  id: Type.String(),
  eventId: Type.String({ description: 'Idempotency key, sent as the webhook-id header' }),
  type: Type.String(),
  status: StringEnum(['pending', 'delivered', 'failed'] as const),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String()),
  lastStatus: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
  events: Type.Integer({ description: 'Consent records the delivery carries (0 for webhook.test and quota.threshold)' }),
  firstSeq: Nullable(Type.Integer({ description: 'Chain position of its first consent record' })),
  lastSeq: Nullable(Type.Integer({ description: 'Chain position of its last consent record' })),
});
export type Delivery = Static<typeof DeliverySchema>;

export const DeliveriesQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) });
