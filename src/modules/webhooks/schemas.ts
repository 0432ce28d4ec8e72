// Webhook endpoints and deliveries as the API shows them. The signing secret appears only in the
// answers to POST /webhooks and POST /webhooks/{id}/secret.
import { Type, type Static } from 'typebox';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema.ts';
import { NullableTimestamp, Timestamp } from '../../http/schemas.ts';
import { SUBSCRIBABLE_EVENTS } from '../events/catalog.ts';

export const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String({ enum: SUBSCRIBABLE_EVENTS })),
    enabled: Type.Boolean({ description: 'False: nothing is sent; its deliveries fail without an attempt ("endpoint disabled") and can be redelivered once it is enabled.' }),
    previousSecretExpiresAt: NullableTimestamp(
      'After a secret rotation: until then deliveries also carry X-SocialAPI-Signature-Previous, made with the secret it replaced. Null when no previous secret is in use.',
    ),
    createdAt: Timestamp(),
  },
  { $id: 'Webhook', title: 'Webhook' },
);

export const DeliveryStatus = Type.String({ enum: ['pending', 'sending', 'delivered', 'failed'] });

export const Delivery = Type.Object(
  {
    id: Type.String(),
    webhookId: Type.String(),
    eventId: Type.String(),
    event: Type.String(),
    status: DeliveryStatus,
    idempotencyKey: Type.String({ description: 'Sent as X-Idempotency-Key; the same on every retry and redelivery.' }),
    attempts: Type.Integer({ description: 'Attempts in the current cycle (a redelivery starts a new one).' }),
    nextAttemptAt: NullableTimestamp(),
    deliveredAt: NullableTimestamp(),
    lastResponseStatus: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    attemptLog: Type.Array(
      Type.Object({
        seq: Type.Integer(),
        startedAt: Timestamp(),
        durationMs: Type.Integer(),
        responseStatus: Type.Union([Type.Integer(), Type.Null()]),
        error: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);

export type WebhookView = Static<typeof Webhook>;
export type DeliveryView = Static<typeof Delivery>;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Until when a rotated-out secret still signs deliveries; null when none does at `now`. */
export function previousSecretUntil(row: Pick<WebhookEndpointRow, 'previous_secret_enc' | 'previous_secret_expires_at'>, now: number): number | null {
  return row.previous_secret_enc !== null && row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now ? row.previous_secret_expires_at : null;
}

export function presentWebhook(row: WebhookEndpointRow, now: number): WebhookView {
  const previousUntil = previousSecretUntil(row, now);
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    previousSecretExpiresAt: isoOrNull(previousUntil),
    createdAt: iso(row.created_at),
  };
}

export function presentDelivery(row: WebhookDeliveryRow & { event: string }, attempts: WebhookAttemptRow[]): DeliveryView {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    event: row.event,
    status: row.status,
    idempotencyKey: row.id,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
    deliveredAt: isoOrNull(row.delivered_at),
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    attemptLog: attempts.map((a) => ({ seq: a.seq, startedAt: iso(a.started_at), durationMs: a.duration_ms, responseStatus: a.response_status, error: a.error })),
  };
}
