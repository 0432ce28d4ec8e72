// PostgreSQL: the start of a `post.deliver` run (delivery-store.ts) in one statement of
// data-modifying CTEs, one round trip instead of three, shared with every start that arrived
// while the last statement ran.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { batchedPer } from '../../../db/batched.ts';
import { prepare } from '../../../db/prepared.ts';
import { premarkedProgress } from '../../../platforms/create-once.ts';
import type { DeliveryStore } from './delivery-store.ts';
import { leaseLocked, type Lease } from './lease-fence.ts';
import { ACCOUNT_COLUMNS, FRESH, startStepOf, TARGET_COLUMNS } from './target-read.ts';

// PostgreSQL: the starts of every run that arrived while the last statement ran, in one
// statement (hundreds of targets fall due together). The select reads the rows as they were
// before the CTEs' writes (one snapshot for the whole statement), so it reports whether each
// claim took as a column of its own. A target is given once per statement (startTogether).
const readAndClaimMany = prepare((db, targetIds: string[], dueAts: number[], jobIds: string[], attempts: number[], now: number, premarked: string) =>
  db
    .with('input', (qc) =>
      qc.selectNoFrom([
        sql<string>`unnest(cast(${targetIds} as text[]))`.as('target_id'),
        sql<number>`unnest(cast(${dueAts} as bigint[]))`.as('due_at'),
        sql<string>`unnest(cast(${jobIds} as text[]))`.as('job_id'),
        sql<number>`unnest(cast(${attempts} as integer[]))`.as('attempt'),
      ]),
    )
    .with('claimed', (qc) =>
      qc
        .updateTable('post_targets')
        .from('input')
        .set((eb) => ({
          status: 'publishing',
          attempts: eb('post_targets.attempts', '+', 1),
          // Like claimTarget's: the first call's marker, while the run (this row's) holds its job.
          progress: eb
            .case()
            .when(eb.and([eb('post_targets.progress', '=', FRESH), eb.exists(leaseLocked(eb.selectFrom('jobs'), { jobId: eb.ref('input.job_id'), attempt: eb.ref('input.attempt') }))]))
            .then(premarked)
            .else(eb.ref('post_targets.progress'))
            .end(),
          updated_at: now,
        }))
        .whereRef('post_targets.id', '=', 'input.target_id')
        .where('post_targets.status', '=', 'pending')
        .whereRef('post_targets.next_attempt_at', '=', 'input.due_at')
        .returning(['post_targets.id', 'post_targets.post_id', 'post_targets.progress']),
    )
    .with('started', (qc) =>
      qc
        .updateTable('posts')
        .set({ status: 'publishing', updated_at: now })
        .where('id', 'in', (eb) => eb.selectFrom('claimed').select('claimed.post_id'))
        .where('status', '=', 'queued')
        .returning('posts.id'),
    )
    .selectFrom('input')
    .innerJoin('post_targets as t', 't.id', 'input.target_id')
    .innerJoin('posts as p', 'p.id', 't.post_id')
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('claimed', 'claimed.id', 't.id')
    .select(TARGET_COLUMNS)
    .select(ACCOUNT_COLUMNS)
    .select((eb) => [eb('claimed.id', 'is not', null).as('claimed'), 'claimed.progress as claimedProgress'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('post_targets as n')
            .select('n.id')
            .whereRef('n.post_id', '=', 't.post_id')
            .whereRef('n.position', '>', 't.position')
            .where('n.status', '=', 'pending')
            .where('n.next_attempt_at', 'is', null),
        )
        .as('waiting'),
    ),
);

/** Most starts one statement carries. */
const START_BATCH = 256;

interface StartCall {
  targetId: string;
  dueAt: number;
  lease: Lease;
  now: number;
}
type ReadAndClaimed = Awaited<ReturnType<typeof readAndClaimMany.execute>>['rows'][number];
/** A start's row (undefined: the target is gone, or another run's start in the same statement has it), and the statement's time. */
type StartAnswer = { read: ReadAndClaimed | undefined; now: number };

// One claim per target and statement: an update joined to a target twice would claim it once
// and let both runs think they had. A second run for the same target (a duplicate job) is
// answered as one whose target another run took.
const startsTogether = batchedPer(async (db: Kysely<Database>, calls: StartCall[]): Promise<StartAnswer[]> => {
  const now = Math.max(...calls.map((call) => call.now));
  const first = new Map<string, StartCall>();
  for (const call of calls) if (!first.has(call.targetId)) first.set(call.targetId, call);
  const unique = [...first.values()];
  const { rows } = await readAndClaimMany.execute(
    db,
    unique.map((call) => call.targetId),
    unique.map((call) => call.dueAt),
    unique.map((call) => call.lease.jobId),
    unique.map((call) => call.lease.attempt),
    now,
    premarkedProgress(now),
  );
  const byTarget = new Map(rows.map((row) => [row.id, row]));
  return calls.map((call) => ({ read: first.get(call.targetId) === call ? byTarget.get(call.targetId) : undefined, now }));
}, START_BATCH);

/** Null when the target is gone, settled with its post, not due at `dueAt` any more, or claimed by another run. */
export const startTogether: DeliveryStore['start'] = async (store, targetId, dueAt, now, lease) => {
  const { read, now: claimedAt } = await startsTogether(store.db, { targetId, dueAt, lease, now });
  if (!read) return null;
  const { claimed, claimedProgress, waiting, ...row } = read;
  // The statement's select read the target as it was before its claim.
  const step = startStepOf(row, dueAt);
  switch (step) {
    case 'stop':
      return null;
    case 'settle_post':
      return { unsettled: row };
    case 'resume':
      return { row, claimed: false, nextWaiting: Boolean(waiting), premarkedAt: null };
    case 'claim':
      // A pending target whose claim did not take was claimed by another run meanwhile.
      if (!claimed) return null;
      return { row, claimed: true, nextWaiting: Boolean(waiting), premarkedAt: claimedProgress === premarkedProgress(claimedAt) ? claimedAt : null };
    default: {
      const unreachable: never = step;
      throw new Error(`unknown start step ${String(unreachable)}`);
    }
  }
};
