// The outbox: an event is recorded in the same transaction as the change that causes it, with
// one delivery per subscribed endpoint and the job that sends it. If the change rolls back, so
// do the event and its deliveries; if it commits, nothing can lose them.
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { prepare } from '../../db/prepared.ts';
import { newId } from '../../lib/ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { webhookSend } from '../webhooks/send-kind.ts';
import type { EventData, EventType } from './catalog.ts';

// Compiled once (db/prepared.ts): every inbound message, status and send emits an event.
const eventRow = (db: Pick<Kysely<Database>, 'insertInto'>, id: string, organizationId: string, type: string, data: string, now: number) =>
  db.insertInto('events').values({ id, organization_id: organizationId, type, data, created_at: now });
const insertEvent = prepare((db, id: string, organizationId: string, type: string, data: string, now: number) => eventRow(db, id, organizationId, type, data, now));
const endpointsOf = prepare((db, organizationId: string) => db.selectFrom('webhook_endpoints').select(['id', 'events']).where('organization_id', '=', organizationId));
const insertEventReadingEndpoints = prepare((db, id: string, organizationId: string, type: string, data: string, now: number) =>
  db
    .with('recorded', () => eventRow(db, id, organizationId, type, data, now))
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('organization_id', '=', organizationId),
);
const insertDelivery = prepare((db, id: string, organizationId: string, webhookId: string, eventId: string, now: number) =>
  db.insertInto('webhook_deliveries').values({
    id,
    organization_id: organizationId,
    webhook_id: webhookId,
    event_id: eventId,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_response_status: null,
    last_error: null,
    delivered_at: null,
    created_at: now,
    updated_at: now,
  }),
);

/** How a store writes an event row and reads the organization's webhook endpoints, inside the caller's transaction. */
interface EventStore {
  record(db: Kysely<Database>, id: string, organizationId: string, type: string, data: string, now: number): Promise<Endpoint[]>;
}

/** Two statements, on any store (SQLite, where a statement costs no round trip). */
const portableEvents: EventStore = {
  async record(db, id, organizationId, type, data, now) {
    await insertEvent.execute(db, id, organizationId, type, data, now);
    return (await endpointsOf.execute(db, organizationId)).rows;
  },
};

/**
 * PostgreSQL: the event written and the endpoints read in one statement (the insert, a
 * data-modifying CTE, runs whether or not the select reads it): one round trip, not two, on
 * every inbound comment, message and status.
 */
const postgresEvents: EventStore = {
  record: async (db, id, organizationId, type, data, now) => (await insertEventReadingEndpoints.execute(db, id, organizationId, type, data, now)).rows,
};

const eventStoreOf = (store: Pick<Store, 'caps'>): EventStore => (store.caps.writableCte ? postgresEvents : portableEvents);

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
  const endpoints = await eventStoreOf(ctx.store).record(db, eventId, organizationId, type, JSON.stringify(data), now);
  const deliveryIds = await queueDeliveries(ctx, organizationId, eventId, type, endpoints, options.onlyWebhookId);
  return { eventId, deliveryIds };
}

export interface Endpoint {
  id: string;
  /** The endpoint's event list, as stored (JSON text). */
  events: string;
}

/** One delivery and its send job per endpoint that takes `type` (or only the endpoint `onlyWebhookId`). */
async function queueDeliveries(ctx: EmitContext, organizationId: string, eventId: string, type: EventType, endpoints: readonly Endpoint[], onlyWebhookId?: string): Promise<string[]> {
  const { db, now } = ctx;
  const targets = onlyWebhookId !== undefined ? endpoints.filter((e) => e.id === onlyWebhookId) : endpoints.filter((e) => subscribes(e.events, type));
  const deliveryIds: string[] = [];
  for (const endpoint of targets) {
    const deliveryId = newId('delivery', now);
    await insertDelivery.execute(db, deliveryId, organizationId, endpoint.id, eventId, now);
    await enqueue(db, ctx.store, now, webhookSend, { deliveryId, dueAt: now });
    deliveryIds.push(deliveryId);
  }
  return deliveryIds;
}

/**
 * Whether an endpoint's stored event list (JSON text) names `type`. Parsed lists are kept by
 * their text: an endpoint's list changes rarely and is read for every event.
 */
const parsedLists = new Map<string, ReadonlySet<string>>();
function subscribes(events: string, type: string): boolean {
  let list = parsedLists.get(events);
  if (!list) {
    list = new Set(JSON.parse(events) as string[]);
    if (parsedLists.size >= 1000) parsedLists.clear();
    parsedLists.set(events, list);
  }
  return list.has(type);
}
