// The `webhook.send` job: one attempt of one delivery. The outcome, the attempt row, and (after a
// failure) the next attempt's job are written in one transaction. A worker that dies after the
// receiver answered but before that commit makes the job run again: the receiver then sees the
// same delivery twice, with the same X-Idempotency-Key, and nothing is lost.
import type { AppDeps } from '../../deps.ts';
import { prepare } from '../../db/prepared.ts';
import { defineJob } from '../../jobs/catalog.ts';
import { enqueue } from '../../jobs/queue.ts';
import { EndpointGate } from './endpoint-gate.ts';
import { postDelivery } from './post-delivery.ts';
import { nextRetryDelay, parseRetryAfter } from './retry-schedule.ts';
import { webhookSend } from './send-kind.ts';
import type { WebhookOutcome } from '../../metrics/metrics.ts';

/**
 * Per process: at most 8 attempts to one endpoint at once; the others wait in line up to 2 s for
 * one of those, then are queued again 250 ms later without spending an attempt. A hanging
 * receiver thus holds its 8 slots for the timeout and its waiters for at most 2 s at a time.
 * A slot is held from the attempt's claim to the receiver's answer, not while the outcome is
 * stored: that write (and its commit) does not involve the receiver, and under load it took as
 * long as the request, halving what 8 slots could carry to one busy endpoint.
 * (Refusing waiters beyond a fixed line length was tried: under a steady backlog to one endpoint
 * the requeue churn fed on itself until the worker did nothing else.)
 */
const PER_ENDPOINT_IN_FLIGHT = 8;
const WAIT_MS = 2000;
const DEFER_MS = 250;

// The statements of every attempt, compiled once (db/prepared.ts): building them cost more than
// SQLite takes to run them.
const loadDelivery = prepare((db, deliveryId: string) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.webhook_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.webhook_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'w.url',
      'w.secret_enc',
      'w.enabled',
      'w.previous_secret_enc',
      'w.previous_secret_expires_at',
      'e.id as eventId',
      'e.type',
      'e.data',
      'e.created_at as eventCreatedAt',
    ])
    .where('d.id', '=', deliveryId),
);
const markSending = prepare((db, deliveryId: string, attempt: number, now: number, dueAt: number) =>
  db
    .updateTable('webhook_deliveries')
    .set({ status: 'sending', attempts: attempt, updated_at: now })
    .where('id', '=', deliveryId)
    .where('next_attempt_at', '=', dueAt)
    .where('status', 'in', ['pending', 'sending']),
);
// An endpoint switched off: its delivery fails without an attempt (redeliver it once it is on).
const markDisabled = prepare((db, deliveryId: string, now: number, dueAt: number) =>
  db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: ENDPOINT_DISABLED, updated_at: now })
    .where('id', '=', deliveryId)
    .where('next_attempt_at', '=', dueAt)
    .where('status', '=', 'pending'),
);
export const ENDPOINT_DISABLED = 'endpoint disabled: not sent';
const lastSeq = prepare((db, deliveryId: string) => db.selectFrom('webhook_attempts').select((eb) => eb.fn.max('seq').as('seq')).where('delivery_id', '=', deliveryId));
const insertAttempt = prepare((db, deliveryId: string, seq: number, startedAt: number, durationMs: number, status: number | null, error: string | null) =>
  db.insertInto('webhook_attempts').values({ delivery_id: deliveryId, seq, started_at: startedAt, duration_ms: durationMs, response_status: status, error }),
);
const markDelivered = prepare((db, deliveryId: string, status: number | null, now: number) =>
  db.updateTable('webhook_deliveries').set({ last_response_status: status, last_error: null, updated_at: now, status: 'delivered', delivered_at: now, next_attempt_at: null }).where('id', '=', deliveryId),
);

/**
 * Endpoint secrets opened once per process: decrypting one cost more than signing the body. Keyed
 * by the sealed value, so a rotated secret (a new sealed value) is opened afresh.
 */
const OPENED_SECRETS = 1000;
const openedSecrets = new Map<string, string>();
function openSecret(sealer: AppDeps['sealer'], sealed: string): string {
  let secret = openedSecrets.get(sealed);
  if (secret === undefined) {
    secret = sealer.open(sealed);
    if (openedSecrets.size >= OPENED_SECRETS) openedSecrets.clear();
    openedSecrets.set(sealed, secret);
  }
  return secret;
}

/** The rotated-out secret while its grace lasts (until previous_secret_expires_at), else null. */
function previousSecretAt(sealer: AppDeps['sealer'], row: { previous_secret_enc: string | null; previous_secret_expires_at: number | null }, now: number): string | null {
  if (row.previous_secret_enc === null || row.previous_secret_expires_at === null || now >= row.previous_secret_expires_at) return null;
  return openSecret(sealer, row.previous_secret_enc);
}

export function webhookSendJob(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'config' | 'metrics'>) {
  const { store, clock, sealer, config } = deps;
  const gate = new EndpointGate(PER_ENDPOINT_IN_FLIGHT);
  return defineJob(webhookSend, {
    // The HTTP attempt has its own 10-second limit; this bounds the database work around it.
    timeoutMs: 30_000,
    async run({ deliveryId, dueAt }) {
      const db = store.db;
      const [row] = (await loadDelivery.execute(db, deliveryId)).rows;
      // Gone with its endpoint, settled, or redelivered/rescheduled since this job was queued.
      if (!row || row.status === 'delivered' || row.status === 'failed' || row.next_attempt_at !== dueAt) return;
      if (!row.enabled) {
        await markDisabled.execute(db, deliveryId, clock.now(), dueAt);
        return;
      }

      if (!(await gate.acquire(row.webhook_id, WAIT_MS))) {
        await enqueue(db, store, clock.now(), webhookSend, { deliveryId, dueAt }, { runAt: clock.now() + DEFER_MS });
        return;
      }
      let held = true;
      const release = () => {
        if (held) gate.release(row.webhook_id);
        held = false;
      };
      try {
        await attemptDelivery(row, dueAt, release);
      } finally {
        release();
      }
    },
  });

  /** `release` gives the endpoint's slot back; called once the receiver has answered. */
  async function attemptDelivery(
    row: {
      id: string;
      attempts: number;
      url: string;
      secret_enc: string;
      previous_secret_enc: string | null;
      previous_secret_expires_at: number | null;
      eventId: string;
      type: string;
      data: string;
      eventCreatedAt: number;
    },
    dueAt: number,
    release: () => void,
  ): Promise<void> {
    const db = store.db;
    const deliveryId = row.id;
    const attempt = row.attempts + 1;
    const startedAt = clock.now();
    const claimed = await markSending.execute(db, deliveryId, attempt, startedAt, dueAt);
    if (!claimed.numAffectedRows) return; // redelivered in the meantime: that job sends it

    const body = `{"id":${JSON.stringify(row.eventId)},"event":${JSON.stringify(row.type)},"createdAt":"${new Date(row.eventCreatedAt).toISOString()}","data":${row.data}}`;
    const outcome = await postDelivery(
      { url: row.url, secret: openSecret(sealer, row.secret_enc), previousSecret: previousSecretAt(sealer, row, startedAt), deliveryId, body, now: startedAt },
      { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.allowPrivateUrls },
    );
    release();

    const now = clock.now();
    const settled = await db.transaction().execute(async (trx): Promise<WebhookOutcome> => {
      const [last] = (await lastSeq.execute(trx, deliveryId)).rows;
      await insertAttempt.execute(trx, deliveryId, Number(last?.seq ?? 0) + 1, startedAt, outcome.durationMs, outcome.status, outcome.error);
      if (outcome.ok) {
        await markDelivered.execute(trx, deliveryId, outcome.status, now);
        return 'delivered';
      }
      const common = { last_response_status: outcome.status, last_error: outcome.error, updated_at: now };
      const delay = nextRetryDelay({ attempt, status: outcome.status, timedOut: outcome.timedOut, retryAfterMs: parseRetryAfter(outcome.retryAfter, now) });
      if (delay === null) {
        await trx.updateTable('webhook_deliveries').set({ ...common, status: 'failed', next_attempt_at: null }).where('id', '=', deliveryId).execute();
        return 'failed';
      }
      await trx.updateTable('webhook_deliveries').set({ ...common, status: 'pending', next_attempt_at: now + delay }).where('id', '=', deliveryId).execute();
      await enqueue(trx, store, now, webhookSend, { deliveryId, dueAt: now + delay }, { runAt: now + delay });
      return 'retrying';
    });
    deps.metrics?.webhookDelivery(settled, outcome.durationMs / 1000);
  }
}
