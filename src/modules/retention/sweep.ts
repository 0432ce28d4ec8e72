// The deletes of store.retention, each of at most BATCH rows. Every statement names settled
// states only (failed jobs, delivered or failed deliveries, processed inbound events, inbox
// events past the platforms' redelivery and our polling window), so pending
// or running work is never touched; the outer WHERE repeats the subquery's conditions so a row
// changed meanwhile (a delivery redelivered) is re-checked by PostgreSQL and kept.
// Order matters: deliveries go before events, since deleting an event cascades to its deliveries.
import { sql, type Kysely } from 'kysely';
import type { Database, DeliveryStatus, JobStatus, PlatformWebhookStatus } from '../../db/schema.ts';
import { idAt } from '../../lib/ids.ts';
import { KEY_TTL_MS } from '../posts/idempotency.ts';

export const BATCH = 500;

// Literals, not bound values: the partial indexes of migration 0008 serve only queries whose
// WHERE visibly implies theirs (see src/jobs/queue.ts).
const FAILED_JOB = sql.lit<JobStatus>('failed');
const SETTLED = [sql.lit<DeliveryStatus>('delivered'), sql.lit<DeliveryStatus>('failed')];
const PROCESSED = sql.lit<PlatformWebhookStatus>('processed');

type Db = Kysely<Database>;

export interface Cutoffs {
  /** Rows settled at or before this go (now - RETENTION_DAYS). */
  retention: number;
  /** Idempotency keys created at or before this go (now - 24 h, the contract's replay window). */
  idempotency: number;
  /** Inbox events received before this go: the retention cutoff, but never within INBOX_FLOOR_MS. */
  inbox: number;
}

/**
 * An inbox event is also what keeps a comment from emitting twice: Meta retries for about 36
 * hours and reddit posts are polled for 7 days, so its row outlives both whatever RETENTION_DAYS says.
 */
export const INBOX_FLOOR_MS = 8 * 86_400_000;

export function cutoffs(now: number, retentionDays: number): Cutoffs {
  const retention = now - retentionDays * 86_400_000;
  return { retention, idempotency: now - KEY_TTL_MS, inbox: Math.min(retention, now - INBOX_FLOOR_MS) };
}

/** One batch of each kind of row; each returns how many rows it deleted. */
export const batches: Record<string, (db: Db, c: Cutoffs) => Promise<bigint>> = {
  failedJobs: (db, c) =>
    deleted(
      db
        .deleteFrom('jobs')
        .where('status', '=', FAILED_JOB)
        .where('updated_at', '<=', c.retention)
        .where('id', 'in', (eb) =>
          eb.selectFrom('jobs').select('id').where('status', '=', FAILED_JOB).where('updated_at', '<=', c.retention).orderBy('updated_at').limit(BATCH),
        ),
    ),

  // Their attempts go with them (ON DELETE CASCADE).
  deliveries: (db, c) =>
    deleted(
      db
        .deleteFrom('webhook_deliveries')
        .where('status', 'in', SETTLED)
        .where('updated_at', '<=', c.retention)
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', 'in', SETTLED)
            .where('updated_at', '<=', c.retention)
            .orderBy('updated_at')
            .limit(BATCH),
        ),
    ),

  // An event any delivery still references (pending, sending, or settled recently) stays; new
  // deliveries are only ever made for new events, so an old unreferenced one is done with.
  events: (db, c) => {
    const unreferenced = sql<boolean>`not exists (select 1 from webhook_deliveries where webhook_deliveries.event_id = events.id)`;
    return deleted(
      db
        .deleteFrom('events')
        .where('created_at', '<=', c.retention)
        .where(unreferenced)
        .where('id', 'in', (eb) => eb.selectFrom('events').select('id').where('created_at', '<=', c.retention).where(unreferenced).orderBy('created_at').limit(BATCH)),
    );
  },

  // `unhandled` rows stay: a worker's start re-runs them (platform_event.rerun) once their kind has a handler.
  platformEvents: (db, c) =>
    deleted(
      db
        .deleteFrom('platform_webhook_events')
        .where('status', '=', PROCESSED)
        .where('processed_at', '<=', c.retention)
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('platform_webhook_events')
            .select('id')
            .where('status', '=', PROCESSED)
            .where('processed_at', '<=', c.retention)
            .orderBy('processed_at')
            .limit(BATCH),
        ),
    ),

  // Ids are time-ordered (made when the event is recorded), so "recorded before the cutoff" is
  // a primary-key range.
  inboxEvents: (db, c) => {
    const before = idAt('event', c.inbox);
    return deleted(
      db
        .deleteFrom('inbox_events')
        .where('id', '<', before)
        .where('id', 'in', (eb) => eb.selectFrom('inbox_events').select('id').where('id', '<', before).orderBy('id').limit(BATCH)),
    );
  },

  // Past 24 h a key is free anyway (claimRequest replaces it). A `running` row that old is no
  // request in progress: one is taken over as abandoned after ABANDONED_AFTER_MS (5 minutes).
  idempotencyKeys: (db, c) => deleted(expiredKeys(db, 'post_requests', c.idempotency)),

  // The keys of the other platform writes (http/idempotency.ts), on the same 24 hours.
  requestKeys: (db, c) => deleted(expiredKeys(db, 'request_keys', c.idempotency)),
};

/** A batch of idempotency keys older than `cutoff`, oldest first (both tables are keyed alike). */
function expiredKeys(db: Db, table: 'post_requests' | 'request_keys', cutoff: number) {
  return db
    .deleteFrom(table)
    .where('created_at', '<=', cutoff)
    .where((eb) =>
      eb(
        eb.refTuple('organization_id', 'key'),
        'in',
        eb.selectFrom(table).select(['organization_id', 'key']).where('created_at', '<=', cutoff).orderBy('created_at').limit(BATCH).$asTuple('organization_id', 'key'),
      ),
    );
}

async function deleted(query: { executeTakeFirst: () => Promise<{ numDeletedRows: bigint }> }): Promise<bigint> {
  return (await query.executeTakeFirst()).numDeletedRows;
}
