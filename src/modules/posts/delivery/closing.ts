// PostgreSQL: a target's attempt that ends it (published, or failed for good) recorded in one
// statement outside any transaction, with everything that follows from it: the next waiting
// target released with its job, or, when no other target is open, the post's outcome, its
// event, and a delivery with its send job for every endpoint that takes the event. The
// transaction it replaces took five round trips (outcome.ts).
//
// Settling needs the post's other targets as they are once every other writer of them has
// committed. A transaction reads them in a statement after the one that locks the post; one
// statement reads them in its snapshot, taken before it waits for the lock. So the statement
// locks the post only if no one holds it (SKIP LOCKED), and goes on only if the post row it
// locked is the version its snapshot holds: every writer that opens or closes a target under
// the post's lock also updates the post row (lockPost, the outcome's transaction), so a writer
// that committed after the snapshot leaves a newer version. The one writer that needs no lock,
// a first attempt releasing the target after it (outcome.ts), cannot race this one: only the
// target in its first attempt releases, and that is this one. When the check fails, nothing is
// written and the caller records the outcome in the transaction, as before.
import { sql } from 'kysely';
import type { Store } from '../../../db/database.ts';
import { prepare } from '../../../db/prepared.ts';
import { jobForRowOf } from '../../../jobs/queue.ts';
import { JOBS_CHANNEL, wakeLocalWorkers } from '../../../jobs/wakeup.ts';
import { newId } from '../../../lib/ids.ts';
import type { EventType } from '../../events/catalog.ts';
import { webhookSend } from '../../webhooks/send-kind.ts';
import { postDeliver } from './kinds.ts';
import { HELD, leaseLocked, LEASE_LOST, type Lease } from './lease-fence.ts';
import { releasedJob, releaseNext } from './release.ts';
import { changeArgs, changeTarget, type ChangeArgs, type StepOutcome, type Target, type TargetChange } from './target-change.ts';

/**
 * Deliveries the statement can queue for the post's event, their ids made beforehand. An
 * organization with more endpoints taking post events has its post settled by the transaction
 * (the caller's settleIfOver) after the statement recorded the target.
 */
const DELIVERY_SLOTS = 4;

const PUBLISHED: EventType = 'post.published';
const FAILED: EventType = 'post.failed';

const ok = sql<boolean>`${HELD} and exists (select 1 from "locked" inner join "snap" on "locked"."v" = "snap"."v")`;
const othersOpen = sql<boolean>`exists (select 1 from "others" where "others"."status" in ('pending', 'publishing'))`;

const closing = prepare(
  (db, jobId: string, attempt: number, postId: string, position: number, releasing: boolean, releaseJobId: string, eventId: string, organizationId: string, deliveryIds: string[], sendJobIds: string[], ...change: ChangeArgs) => {
    const [targetId, , status, , , , , now] = change;
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
              status: sql`case
                when ${status} = 'published' and not exists (select 1 from "others" where "others"."status" <> 'published') then 'published'
                when ${status} <> 'published' and not exists (select 1 from "others" where "others"."status" = 'published') then 'failed'
                else 'partial' end`,
              updated_at: now,
            })
            .where('id', '=', postId)
            .where('status', 'in', ['queued', 'publishing'])
            .where(ok)
            .where(sql<boolean>`not exists (select 1 from "released") and not ${othersOpen}`)
            .where(
              sql<boolean>`(select count(*) from "webhook_endpoints" as "e" where "e"."organization_id" = ${organizationId}
                and ("e"."events"::jsonb @> jsonb_build_array(${sql.lit(PUBLISHED)}) or "e"."events"::jsonb @> jsonb_build_array(${sql.lit(FAILED)}))) <= ${sql.lit(DELIVERY_SLOTS)}`,
            )
            .returning(['id', 'status', sql<string>`case when "status" = 'published' then ${sql.lit(PUBLISHED)} else ${sql.lit(FAILED)} end`.as('type')]),
        )
        // The event's data as JSON.stringify({ postId, status }) writes it.
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
                  sql<string>`'{"postId":' || to_json("settled"."id")::text || ',"status":"' || "settled"."status" || '"}'`.as('data'),
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
 * no longer holds `lease`. `releasing`: the target is in its first attempt, so the target after
 * it (should one wait) is released.
 */
export async function closeInOneStatement(store: Pick<Store, 'db'>, now: number, organizationId: string, target: Target, change: TargetChange, outcome: StepOutcome, lease: Lease): Promise<Closed> {
  const ids = (kind: 'delivery' | 'job') => Array.from({ length: DELIVERY_SLOTS }, () => newId(kind, now));
  const args = [lease.jobId, lease.attempt, target.post_id, target.position, target.released_next === 0, newId('job', now), newId('event', now), organizationId, ids('delivery'), ids('job')] as const;
  const [row] = (await closing.execute(store.db, ...args, ...changeArgs(target, change, outcome, now))).rows;
  if (!row?.held) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
  if (!row.ok) return 'retry_in_transaction';
  if (row.released !== null) wakeLocalWorkers(postDeliver.lane);
  if (row.deliveries > 0) wakeLocalWorkers(webhookSend.lane);
  return row.released === null && row.settled === null && !row.open ? 'recorded_unsettled' : 'recorded';
}
