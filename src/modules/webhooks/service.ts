// Webhook endpoints and their deliveries, for one organization (every query goes through its
// tenant scope).
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Tenant } from '../../db/tenant.ts';
import type { Database, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema.ts';
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
    enabled: 1,
    previous_secret_enc: null,
    previous_secret_expires_at: null,
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

export interface WebhookChanges {
  /** Already checked (checkEndpointUrl). */
  url?: string;
  events?: EventType[];
  enabled?: boolean;
}

/**
 * Changes an endpoint in place; its secret and its deliveries stay. Attempts still to come go to
 * the new URL; a new event list applies to events emitted from now on. Null when not found.
 */
export async function updateWebhook(tenant: Tenant, id: string, changes: WebhookChanges): Promise<WebhookEndpointRow | null> {
  const set = {
    ...(changes.url !== undefined ? { url: changes.url } : {}),
    ...(changes.events !== undefined ? { events: JSON.stringify([...new Set(changes.events)]) } : {}),
    ...(changes.enabled !== undefined ? { enabled: changes.enabled ? (1 as const) : (0 as const) } : {}),
  };
  if (Object.keys(set).length) {
    const updated = await tenant.updateTable('webhook_endpoints').set(set).where('id', '=', id).executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return null;
  }
  return (await tenant.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** How long a rotated-out secret still signs deliveries (Svix and Stripe give 24 hours). */
export const SECRET_GRACE_MS = 24 * 3_600_000;

/**
 * Gives an endpoint a new secret, returned this once. The one it replaces keeps signing
 * deliveries (X-SocialAPI-Signature-Previous) for SECRET_GRACE_MS; a second rotation within that
 * time replaces the previous secret with the one it rotates out. Null when not found.
 */
export async function rotateWebhookSecret(tenant: Tenant, deps: Deps, id: string): Promise<{ row: WebhookEndpointRow; secret: string } | null> {
  const secret = generateSecret();
  const now = deps.clock.now();
  // One statement reading the secret it replaces: of two rotations at once, the second keeps the
  // first one's secret as the previous one, so both secrets handed out verify for a while.
  const rotated = await tenant
    .updateTable('webhook_endpoints')
    .set((eb) => ({ previous_secret_enc: eb.ref('secret_enc'), previous_secret_expires_at: now + SECRET_GRACE_MS, secret_enc: deps.sealer.seal(secret) }))
    .where('id', '=', id)
    .executeTakeFirst();
  if (rotated.numUpdatedRows === 0n) return null;
  const row = await tenant.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { row, secret } : null;
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
    // Due now, even when a retry is waiting for a later time. The new due time makes a job still
    // queued for the old one stale; the waiting retry's job is removed, so that no later retry
    // of the new cycle can land on its due time and make it live again.
    const old = row.next_attempt_at;
    if (row.status === 'pending' && old !== null && old > now) await dropQueuedAttempt(trx, deliveryId, old);
    const dueAt = old === now ? now + 1 : now;
    const reset = await scoped
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: dueAt, updated_at: now })
      .where('id', '=', deliveryId)
      .where('status', '<>', 'sending')
      .executeTakeFirst();
    if (reset.numUpdatedRows === 0n) throw apiError('DELIVERY_IN_PROGRESS', 'An attempt of this delivery is running; try again when it has finished');
    await enqueue(trx, deps.store, now, webhookSend, { deliveryId, dueAt }, { runAt: dueAt });
  });
  const rows = await deliveriesWithEvent(tenant).where('webhook_deliveries.id', '=', deliveryId).execute();
  const [view] = await withAttempts(tenant, rows);
  if (!view) throw errors.notFound('Delivery');
  return view;
}

/** The pending webhook.send job of a delivery's waiting retry (queued by send-job.ts with this payload). */
function dropQueuedAttempt(trx: Kysely<Database>, deliveryId: string, dueAt: number) {
  return trx
    .deleteFrom('jobs')
    .where('status', '=', sql.lit('pending'))
    .where('run_at', '=', dueAt)
    .where('kind', '=', webhookSend.kind)
    .where('payload', '=', JSON.stringify({ deliveryId, dueAt }))
    .execute();
}
