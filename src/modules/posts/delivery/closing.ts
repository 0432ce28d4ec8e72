// PostgreSQL: a target's attempt that ends it (published, or failed for good) recorded in one
// statement outside any transaction, with everything that follows from it (postgres-store.ts).
//
// A first attempt while a later target waits (`changingReleasing`): the lease checked, the
// target changed, the next target released with its job. The post cannot settle while the
// target it releases is open, so it needs no lock and no reading of the others.
//
// Any other closing attempt (`closing`): the next waiting target released with its job, or,
// when no other target is open, the post's settlement (settlement.ts), its event, and a delivery
// with its send job for every endpoint that takes the event. The portable transaction it
// replaces takes five round trips or more (portable-store.ts).
//
// Settling needs the post's other targets as they are once every other writer of them has
// committed. A transaction reads them in a statement after the one that locks the post; one
// statement reads them in its snapshot, taken before it waits for the lock. So the statement
// locks the post only if no one holds it (SKIP LOCKED), and goes on only if the post row it
// locked is the version its snapshot holds: every writer that opens or closes a target under
// the post's lock also updates the post row (lockPost, the portable transaction), so a writer
// that committed after the snapshot leaves a newer version. The one writer that needs no lock,
// a first attempt releasing the target after it (`changingReleasing`), cannot race this one:
// only the target in its first attempt releases, and that is this one. When the check fails,
// nothing is written and the caller records the outcome in the portable transaction.
//
// The settlement is the state machine's (settlementOf), not SQL's: the statement sorts the
// other targets into settlement.ts's OTHERS and takes the status, event type and data decided
// beforehand for that class (settlementsByOthers).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { prepare } from '../../../db/prepared.ts';
import { jobForRowOf } from '../../../jobs/queue.ts';
import { JOBS_CHANNEL, wakeLocalWorkers } from '../../../jobs/wakeup.ts';
import { newId } from '../../../lib/ids.ts';
import type { Database } from '../../../db/schema.ts';
import { webhookSend } from '../../webhooks/send-kind.ts';
import type { DeliveryDb, Recorded, RecordedStep } from './delivery-store.ts';
import { postDeliver } from './kinds.ts';
import { HELD, leaseLocked, LEASE_LOST } from './lease-fence.ts';
import { releaseNext } from './release.ts';
import { OTHERS, settlementsByOthers, SETTLED_TYPES } from './settlement.ts';
import { changeArgs, changeTarget, type ChangeArgs } from './target-change.ts';

/**
 * Deliveries the statement can queue for the post's event, their ids made beforehand. An
 * organization with more endpoints taking post events has its post settled by the transaction
 * (the caller's settleIfOver) after the statement recorded the target.
 */
const DELIVERY_SLOTS = 4;

// The class of the other targets (settlement.ts's OTHERS, in its order, from 1): the index of
// the settlement the statement takes. Asked only once none of the others is open.
const OTHERS_ARE: Record<(typeof OTHERS)[number], RawBuilder<boolean>> = {
  none: sql`not exists (select 1 from "others")`,
  all_published: sql`not exists (select 1 from "others" where "others"."status" <> 'published')`,
  none_published: sql`not exists (select 1 from "others" where "others"."status" = 'published')`,
  mixed: sql`true`,
};
const othersClass = sql<number>`(case ${sql.join(
  OTHERS.map((others, i) => sql`when ${OTHERS_ARE[others]} then ${sql.lit(i + 1)}`),
  sql` `,
)} end)`;
const SETTLED_TYPE_LIST = sql`array[${sql.join(SETTLED_TYPES.map((type) => sql.lit(type)))}]`;

/** PostgreSQL: the job of the target a `released` CTE of the same statement released, if any. */
const releasedJob = (db: Kysely<Database>, jobId: string, now: number) =>
  jobForRowOf(db, postDeliver, jobId, now, now, 'released', sql<string>`json_build_object('targetId', source.id, 'dueAt', cast(${now} as bigint))::text`);

// The lease checked, the target changed and the next target released with its job, every
// write conditioned on the lease.
const changingReleasing = prepare((db, jobId: string, attempt: number, postId: string, position: number, newJobId: string, ...change: ChangeArgs) =>
  db
    .with('lease', () => leaseLocked(db.selectFrom('jobs'), { jobId, attempt }))
    .with('changed', () => changeTarget(db, ...change).where(HELD))
    .with('released', (qc) => releaseNext(qc, postId, position, change[7]).where(HELD))
    .with('queued', () => releasedJob(db, newJobId, change[7]))
    .selectNoFrom((eb) => [
      HELD.as('held'),
      eb.selectFrom('released').select('released.id').as('released'),
      eb.selectFrom('queued').select(sql<string>`pg_notify(${JOBS_CHANNEL}, '')`.as('n')).as('notified'),
    ]),
);

/**
 * A first attempt that ends while a later target waits, in one statement; a run that lost the
 * lease writes nothing (and throws). When the release found no target (the waiting one changed
 * meanwhile), the post may be over.
 */
export async function recordReleasing(store: DeliveryDb, step: RecordedStep): Promise<Recorded> {
  const { target, change, outcome, lease, now } = step;
  const [result] = (await changingReleasing.execute(store.db, lease.jobId, lease.attempt, target.post_id, target.position, newId('job', now), ...changeArgs(target, change, outcome, now))).rows;
  if (!result?.held) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
  if (result.released === null) return 'check_settled';
  wakeLocalWorkers();
  return 'settled_or_open';
}

const ok = sql<boolean>`${HELD} and exists (select 1 from "locked" inner join "snap" on "locked"."v" = "snap"."v")`;
const othersOpen = sql<boolean>`exists (select 1 from "others" where "others"."status" in ('pending', 'publishing'))`;

const closing = prepare(
  (db, jobId: string, attempt: number, postId: string, position: number, releasing: boolean, releaseJobId: string, eventId: string, organizationId: string, deliveryIds: string[], sendJobIds: string[], statuses: string[], types: string[], data: string[], ...change: ChangeArgs) => {
    const [targetId, , , , , , , now] = change;
    return (
      db
        .with('lease', () => leaseLocked(db.selectFrom('jobs'), { jobId, attempt }))
        .with('snap', (qc) => qc.selectFrom('posts').select(sql<string>`xmin::text`.as('v')).where('id', '=', postId))
        // Under READ COMMITTED a locking read answers the newest version of the row.
        .with('locked', (qc) => qc.selectFrom('posts').select(sql<string>`xmin::text`.as('v')).where('id', '=', postId).forUpdate().skipLocked())
        .with('changed', () => changeTarget(db, ...change).where(ok))
        .with('released', (qc) => releaseNext(qc, postId, position, now).where(ok).where(sql<boolean>`cast(${releasing} as boolean)`))
        .with('queued', () => releasedJob(db, releaseJobId, now))
        .with('others', (qc) => qc.selectFrom('post_targets').select('status').where('post_id', '=', postId).where('id', '<>', targetId))
        .with('settled', (qc) =>
          qc
            .updateTable('posts')
            .set({
              status: sql`(cast(${statuses} as text[]))[${othersClass}]`,
              updated_at: now,
            })
            .where('id', '=', postId)
            .where('status', 'in', ['queued', 'publishing'])
            .where(ok)
            .where(sql<boolean>`not exists (select 1 from "released") and not ${othersOpen}`)
            .where(
              sql<boolean>`(select count(*) from "webhook_endpoints" as "e" where "e"."organization_id" = ${organizationId}
                and "e"."events"::jsonb ?| ${SETTLED_TYPE_LIST}) <= ${sql.lit(DELIVERY_SLOTS)}`,
            )
            .returning([
              'id',
              'status',
              sql<string>`(cast(${types} as text[]))[${othersClass}]`.as('type'),
              sql<string>`(cast(${data} as text[]))[${othersClass}]`.as('data'),
            ]),
        )
        .with('recorded', (qc) =>
          qc
            .insertInto('events')
            .columns(['id', 'organization_id', 'type', 'data', 'created_at'])
            .expression((eb) =>
              eb
                .selectFrom('settled')
                .select([
                  sql.val(eventId).as('id'),
                  sql.val(organizationId).as('organization_id'),
                  'settled.type',
                  'settled.data',
                  sql`cast(${now} as bigint)`.as('created_at'),
                ]),
            ),
        )
        .with('subscribed', (qc) =>
          qc
            .selectFrom('webhook_endpoints as e')
            .innerJoin('settled', (join) => join.onTrue())
            .select(['e.id', sql<number>`row_number() over (order by "e"."id")`.as('n')])
            .where('e.organization_id', '=', organizationId)
            .where(sql<boolean>`"e"."events"::jsonb @> jsonb_build_array("settled"."type")`),
        )
        .with('delivering', (qc) =>
          qc
            .insertInto('webhook_deliveries')
            .columns(['id', 'organization_id', 'webhook_id', 'event_id', 'status', 'attempts', 'next_attempt_at', 'created_at', 'updated_at'])
            .expression((eb) =>
              eb
                .selectFrom('subscribed')
                .select([
                  sql<string>`(cast(${deliveryIds} as text[]))["subscribed"."n"]`.as('id'),
                  sql.val(organizationId).as('organization_id'),
                  'subscribed.id as webhook_id',
                  sql.val(eventId).as('event_id'),
                  sql.lit('pending').as('status'),
                  sql.lit(0).as('attempts'),
                  sql`cast(${now} as bigint)`.as('next_attempt_at'),
                  sql`cast(${now} as bigint)`.as('created_at'),
                  sql`cast(${now} as bigint)`.as('updated_at'),
                ]),
            )
            .returning('id'),
        )
        .with('sending', () =>
          jobForRowOf(
            db,
            webhookSend,
            sql<string>`(cast(${sendJobIds} as text[]))["source"."n"]`,
            now,
            now,
            'subscribed',
            sql<string>`json_build_object('deliveryId', (cast(${deliveryIds} as text[]))["source"."n"], 'dueAt', cast(${now} as bigint))::text`,
          ),
        )
        .selectNoFrom((eb) => [
          HELD.as('held'),
          ok.as('ok'),
          eb.selectFrom('released').select('released.id').as('released'),
          eb.selectFrom('settled').select('settled.status').as('settled'),
          othersOpen.as('open'),
          sql<number>`(select count(*) from "delivering")::int`.as('deliveries'),
          sql<string>`(select pg_notify(${JOBS_CHANNEL}, '') where exists (select 1 from "queued") or exists (select 1 from "sending"))`.as('notified'),
        ])
    );
  },
);

export type Closed =
  /** Someone else held the post, or changed it since the statement began: nothing was written. */
  | 'retry_in_transaction'
  /** Recorded; the post is settled, or still has an open target (one released, perhaps). */
  | 'recorded'
  /** Recorded, but the post was left for the transaction to settle (too many endpoints to queue deliveries for). */
  | 'recorded_unsettled';

/**
 * Records a closing outcome in one statement (see above). Throws, writing nothing, when the run
 * no longer holds its lease. A target in its first attempt releases the target after it,
 * should one wait.
 */
export async function recordClosing(store: DeliveryDb, step: RecordedStep): Promise<Closed> {
  const { target, change, outcome, lease, now } = step;
  const ids = (kind: 'delivery' | 'job') => Array.from({ length: DELIVERY_SLOTS }, () => newId(kind, now));
  const settlements = settlementsByOthers(target.post_id, change.status);
  const args = [
    lease.jobId,
    lease.attempt,
    target.post_id,
    target.position,
    target.released_next === 0,
    newId('job', now),
    newId('event', now),
    step.organizationId,
    ids('delivery'),
    ids('job'),
    settlements.map((s) => s.status),
    settlements.map((s) => s.type),
    settlements.map((s) => JSON.stringify(s.data)),
  ] as const;
  const [row] = (await closing.execute(store.db, ...args, ...changeArgs(target, change, outcome, now))).rows;
  if (!row?.held) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
  if (!row.ok) return 'retry_in_transaction';
  if (row.released !== null) wakeLocalWorkers(postDeliver.lane);
  if (row.deliveries > 0) wakeLocalWorkers(webhookSend.lane);
  return row.released === null && row.settled === null && !row.open ? 'recorded_unsettled' : 'recorded';
}
