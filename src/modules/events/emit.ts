// The outbox: an event is recorded in the same transaction as the change that causes it, with
// one delivery per subscribed endpoint and the job that sends it. If the change rolls back, so
// do the event and its deliveries; if it commits, nothing can lose them.
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { webhookSend } from '../webhooks/send-kind.ts';
import type { EventData, EventType } from './catalog.ts';

export interface EmitContext {
  /** The caller's transaction. */
  db: Kysely<Database>;
  store: Pick<Store, 'caps'>;
  now: number;
}

export interface Emitted {
  eventId: string;
  deliveryIds: string[];
}

/** Records an event for an organization and queues its deliveries. */
export async function emitEvent<E extends EventType>(
  ctx: EmitContext,
  organizationId: string,
  type: E,
  data: EventData<E>,
  options: { onlyWebhookId?: string; /** The event's id when the caller made it (an inbox event's). */ id?: string } = {},
): Promise<Emitted> {
  const { db, now } = ctx;
  const eventId = options.id ?? newId('event', now);
  await db.insertInto('events').values({ id: eventId, organization_id: organizationId, type, data: JSON.stringify(data), created_at: now }).execute();

  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('organization_id', '=', organizationId)
    .$if(options.onlyWebhookId !== undefined, (qb) => qb.where('id', '=', options.onlyWebhookId ?? ''))
    .execute();
  const targets = options.onlyWebhookId ? endpoints : endpoints.filter((e) => (JSON.parse(e.events) as string[]).includes(type));
  const deliveryIds: string[] = [];
  for (const endpoint of targets) {
    const deliveryId = newId('delivery', now);
    await db
      .insertInto('webhook_deliveries')
      .values({
        id: deliveryId,
        organization_id: organizationId,
        webhook_id: endpoint.id,
        event_id: eventId,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_response_status: null,
        last_error: null,
        delivered_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await enqueue(db, ctx.store, now, webhookSend, { deliveryId, dueAt: now });
    deliveryIds.push(deliveryId);
  }
  return { eventId, deliveryIds };
}
