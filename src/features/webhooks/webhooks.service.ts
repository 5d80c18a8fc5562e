import { isoNow, type Deps } from '../../deps.js';
import { toInt } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import { requireDomain } from '../domains/domain-scope.js';
import { domainLastSeq, enqueue, findWebhook, giveUpPending, listDeliveries, listWebhooks } from './webhooks.repository.js';
import type { CreateWebhook, Delivery, UpdateWebhook, Webhook } from './webhooks.schemas.js';
import { urlProblem } from './webhooks.sender.js';
import { newSecret } from './webhooks.signer.js';
import type { WebhookDeliveryRow, WebhookRow } from './webhooks.table.js';

/** Endpoints per domain (a documented limit: each one multiplies the outbound traffic). */
export const MAX_WEBHOOKS_PER_DOMAIN = 5;

export function webhookRowToWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    domainId: row.domain_id,
    url: row.url,
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const iso = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(toInt(ms)).toISOString());

export function deliveryRowToDelivery(row: WebhookDeliveryRow): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: iso(row.created_at)!,
    deliveredAt: iso(row.delivered_at),
    events: row.event_count,
    firstSeq: row.first_seq === null ? null : toInt(row.first_seq),
    lastSeq: row.last_seq === null ? null : toInt(row.last_seq),
  };
}

async function checkUrl(deps: Deps, url: string): Promise<void> {
  const problem = await urlProblem(url, deps.config.webhooks.allowPrivateNetworks);
  if (problem) throw new AppError('WEBHOOK_URL_FORBIDDEN', [{ field: 'body.url', message: problem }]);
}

async function requireWebhook(deps: Deps, clientId: string, domainId: string, id: string): Promise<WebhookRow> {
  const row = await findWebhook(deps.db, clientId, domainId, id);
  if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
  return row;
}

export async function createWebhook(deps: Deps, clientId: string, domainId: string, body: CreateWebhook) {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  await checkUrl(deps, body.url);
  return deps.db.transaction().execute(async (trx) => {
    await requireDomain(trx, deps.engine, clientId, domainId, true);
    if ((await listWebhooks(trx, clientId, domainId)).length >= MAX_WEBHOOKS_PER_DOMAIN) {
      throw new AppError('RESOURCE_LIMIT_REACHED', [
        { field: 'body.url', message: `a domain has at most ${MAX_WEBHOOKS_PER_DOMAIN} webhooks` },
      ]);
    }
    const now = isoNow(deps.clock);
    const row = {
      id: deps.ids.hex(6),
      client_id: clientId,
      domain_id: domainId,
      url: body.url,
      secret: newSecret(),
      enabled: body.enabled === false ? 0 : 1,
      // Decisions from now on: the cursor starts at the chain's current end.
      cursor_seq: await domainLastSeq(trx, domainId),
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('webhooks').values(row).execute();
    return { ...webhookRowToWebhook(row), secret: row.secret };
  });
}

export async function getWebhooks(deps: Deps, clientId: string, domainId: string): Promise<Webhook[]> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  return (await listWebhooks(deps.db, clientId, domainId)).map(webhookRowToWebhook);
}

export async function getWebhook(deps: Deps, clientId: string, domainId: string, id: string): Promise<Webhook> {
  return webhookRowToWebhook(await requireWebhook(deps, clientId, domainId, id));
}

/** The error of the deliveries a webhook still had pending when it was switched off. */
export const WEBHOOK_SWITCHED_OFF = 'webhook switched off';

export async function updateWebhook(deps: Deps, clientId: string, domainId: string, id: string, body: UpdateWebhook) {
  const row = await requireWebhook(deps, clientId, domainId, id);
  if (body.url !== undefined) await checkUrl(deps, body.url);
  const changes = {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
    updated_at: isoNow(deps.clock),
  };
  // Re-enabling skips what happened while disabled, as a fresh registration would.
  if (body.enabled === true && row.enabled === 0) Object.assign(changes, { cursor_seq: await domainLastSeq(deps.db, domainId) });
  await deps.db.updateTable('webhooks').set(changes).where('id', '=', id).where('client_id', '=', clientId).execute();
  // Switched off: what it still had to send (retries, runs queued before) is given up, not sent later. Switching it on
  // again starts from the chain's end, as a new registration does, so none of it would belong there either.
  if (body.enabled === false && row.enabled === 1) await giveUpPending(deps.db, id, deps.clock.now().getTime(), WEBHOOK_SWITCHED_OFF);
  return webhookRowToWebhook(await requireWebhook(deps, clientId, domainId, id));
}

export async function deleteWebhook(deps: Deps, clientId: string, domainId: string, id: string): Promise<void> {
  const result = await deps.db
    .deleteFrom('webhooks')
    .where('client_id', '=', clientId)
    .where('domain_id', '=', domainId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new AppError('WEBHOOK_NOT_FOUND');
}

export async function getDeliveries(deps: Deps, clientId: string, domainId: string, id: string, limit: number) {
  await requireWebhook(deps, clientId, domainId, id);
  return (await listDeliveries(deps.db, clientId, domainId, id, limit)).map(deliveryRowToDelivery);
}

/** Queues a `webhook.test` event (signed like any other) and returns its delivery. */
export async function testWebhook(deps: Deps, clientId: string, domainId: string, id: string): Promise<Delivery> {
  await requireWebhook(deps, clientId, domainId, id);
  const eventId = `test_${deps.ids.hex(8)}`;
  const payload = JSON.stringify({ type: 'webhook.test', id: eventId, data: { domainId, webhookId: id, at: isoNow(deps.clock) } });
  await enqueue(deps.db, [{ webhookId: id, eventId, type: 'webhook.test', payload }], () => deps.ids.hex(12), deps.clock.now().getTime());
  const row = await deps.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', id)
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return deliveryRowToDelivery(row);
}
