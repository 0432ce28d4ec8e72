// Webhook endpoints and their deliveries, for one organization (every query goes through its
// tenant scope).
import { randomBytes } from 'node:crypto';
import type { Tenant } from '../../db/tenant.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { apiError, errors } from '../../http/errors.ts';
import { newId } from '../../lib/ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { DEFAULT_EVENTS, type EventType } from '../events/catalog.ts';
import { emitEvent } from '../events/emit.ts';
import { presentDelivery, type DeliveryView } from './schemas.ts';
import { webhookSend } from './send-kind.ts';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'config'>;

export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export async function createWebhook(tenant: Tenant, deps: Deps, input: { url: string; events?: EventType[] }): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const secret = generateSecret();
  const now = deps.clock.now();
  const row: WebhookEndpointRow = {
    id: newId('webhook', now),
    organization_id: tenant.organizationId,
    url: input.url,
    events: JSON.stringify([...new Set(input.events?.length ? input.events : DEFAULT_EVENTS)]),
    secret_enc: deps.sealer.seal(secret),
    created_at: now,
  };
  await tenant.db.insertInto('webhook_endpoints').values(row).execute();
  return { row, secret };
}

export function listWebhooks(tenant: Tenant): Promise<WebhookEndpointRow[]> {
  return tenant.selectFrom('webhook_endpoints').selectAll().orderBy('id', 'desc').execute();
}

/** Deletes an endpoint with its deliveries; false when there is no such endpoint. */
export async function deleteWebhook(tenant: Tenant, id: string): Promise<boolean> {
  const result = await tenant.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

async function requireWebhook(tenant: Tenant, id: string): Promise<void> {
  const found = await tenant.selectFrom('webhook_endpoints').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw errors.notFound('Webhook');
}

async function withAttempts(tenant: Tenant, rows: Array<WebhookDeliveryRow & { event: string }>): Promise<DeliveryView[]> {
  if (!rows.length) return [];
  const attempts = await tenant.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', rows.map((r) => r.id))
    .orderBy('seq')
    .execute();
  return rows.map((row) => presentDelivery(row, attempts.filter((a) => a.delivery_id === row.id)));
}

const deliveriesWithEvent = (tenant: Tenant) =>
  tenant.selectFrom('webhook_deliveries').innerJoin('events', 'events.id', 'webhook_deliveries.event_id').selectAll('webhook_deliveries').select('events.type as event');

/** `before`: keyset paging, only deliveries older than this id (the last of the previous page). */
export async function listDeliveries(tenant: Tenant, webhookId: string, filter: { status?: WebhookDeliveryRow['status']; limit: number; before?: string }): Promise<DeliveryView[]> {
  await requireWebhook(tenant, webhookId);
  const rows = await deliveriesWithEvent(tenant)
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .$if(filter.status !== undefined, (qb) => qb.where('webhook_deliveries.status', '=', filter.status ?? 'pending'))
    .$if(filter.before !== undefined, (qb) => qb.where('webhook_deliveries.id', '<', filter.before ?? ''))
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(filter.limit)
    .execute();
  return withAttempts(tenant, rows);
}

/** Sends a webhook.test event to this endpoint only. */
export async function testWebhook(tenant: Tenant, deps: Deps, webhookId: string): Promise<{ eventId: string; deliveryId: string }> {
  await requireWebhook(tenant, webhookId);
  return tenant.db.transaction().execute(async (trx) => {
    const emitted = await emitEvent(
      { db: trx, store: deps.store, now: deps.clock.now() },
      tenant.organizationId,
      'webhook.test',
      { webhookId, message: 'This is a test delivery from socialapi.' },
      { onlyWebhookId: webhookId },
    );
    return { eventId: emitted.eventId, deliveryId: emitted.deliveryIds[0] ?? '' };
  });
}

/**
 * Starts a fresh attempt cycle for a delivery, keeping its id (the idempotency key). A delivery
 * whose attempt is running right now answers 409.
 */
export async function redeliver(tenant: Tenant, deps: Deps, deliveryId: string): Promise<DeliveryView> {
  const now = deps.clock.now();
  await tenant.db.transaction().execute(async (trx) => {
    const scoped = tenant.with(trx);
    const row = await scoped.selectFrom('webhook_deliveries').select(['id', 'status', 'next_attempt_at']).where('id', '=', deliveryId).executeTakeFirst();
    if (!row) throw errors.notFound('Delivery');
    if (row.status === 'sending') throw apiError('DELIVERY_IN_PROGRESS', 'An attempt of this delivery is running; try again when it has finished');
    // A new due time also makes any job still queued for the old cycle stale.
    const dueAt = Math.max(now, (row.next_attempt_at ?? 0) + 1);
    await scoped
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: dueAt, updated_at: now })
      .where('id', '=', deliveryId)
      .execute();
    await enqueue(trx, deps.store, now, webhookSend, { deliveryId, dueAt }, { runAt: dueAt });
  });
  const rows = await deliveriesWithEvent(tenant).where('webhook_deliveries.id', '=', deliveryId).execute();
  const [view] = await withAttempts(tenant, rows);
  if (!view) throw errors.notFound('Delivery');
  return view;
}
