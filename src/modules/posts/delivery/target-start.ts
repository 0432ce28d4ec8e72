// The start of a `post.deliver` run: the target with its post and account, and, for a target
// still pending, its claim (publishing, one attempt more) and its post's move from queued to
// publishing. On PostgreSQL all of that is one statement of data-modifying CTEs, one round trip
// instead of three; SQLite, where a statement costs no round trip, runs them in turn.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Store } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { batchedPer } from '../../../db/batched.ts';
import { prepare } from '../../../db/prepared.ts';
import { premarkedProgress } from '../../../platforms/create-once.ts';
import { leaseLocked, whileHeld, type Lease } from './lease-fence.ts';

/** The progress of a target that has made no call. */
const FRESH = '{}';

const TARGET_COLUMNS = ['t.id', 't.post_id', 't.position', 't.status', 't.attempts', 't.released_next', 't.next_attempt_at', 't.options', 't.progress', 't.platform', 'p.content', 'p.organization_id', 'p.status as postStatus'] as const;
const ACCOUNT_COLUMNS = ['a.id as accountId', 'a.status as accountStatus', 'a.platform_user_id', 'a.username', 'a.access_token_enc', 'a.metadata'] as const;

const targetOf = (db: Kysely<Database>) =>
  db.selectFrom('post_targets as t').innerJoin('posts as p', 'p.id', 't.post_id').leftJoin('accounts as a', 'a.id', 't.account_id').select(TARGET_COLUMNS).select(ACCOUNT_COLUMNS);

const readTarget = prepare((db, targetId: string) => targetOf(db).where('t.id', '=', targetId));

type Held = (eb: ExpressionBuilder<Database, 'post_targets'>) => Expression<SqlBool>;

// A fresh attempt (no progress) is claimed with the marker of its first call (create-once.ts),
// if the run still holds its job: like every marker, it is saved only under the lease.
const claimTarget = (db: Kysely<Database>, targetId: string, dueAt: number, now: number, premarked: string, held: Held) =>
  db
    .updateTable('post_targets')
    .set((eb) => ({
      status: 'publishing',
      attempts: eb('attempts', '+', 1),
      progress: eb.case().when(eb.and([eb('progress', '=', FRESH), held(eb)])).then(premarked).else(eb.ref('progress')).end(),
      updated_at: now,
    }))
    .where('id', '=', targetId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', dueAt);

const startPost = (db: Kysely<Database>, postId: string, now: number) => db.updateTable('posts').set({ status: 'publishing', updated_at: now }).where('id', '=', postId).where('status', '=', 'queued');

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
const startTogether = batchedPer(async (db: Kysely<Database>, calls: StartCall[]): Promise<StartAnswer[]> => {
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

type Row = Awaited<ReturnType<ReturnType<typeof targetOf>['executeTakeFirstOrThrow']>>;

export interface StartedTarget {
  /** The target as read (its status as it was: pending for a target claimed by this run). */
  row: Row;
  /** Whether this run claimed a pending target (a new attempt), rather than resuming one already publishing. */
  claimed: boolean;
  /** PostgreSQL: a later target of the post waits for this one's first attempt (always false on SQLite). */
  nextWaiting: boolean;
  /** When the claim stored the marker of the attempt's first call (premarkedProgress), if it did. */
  premarkedAt: number | null;
}

/** A target that is over (published or failed) while its post is not: a run that ended before settling it. */
export interface UnsettledPost {
  unsettled: Pick<Row, 'post_id' | 'organization_id'>;
}

const isCurrent = (row: Row, dueAt: number) => row.next_attempt_at === dueAt && (row.status === 'pending' || row.status === 'publishing');
const isUnsettled = (row: Row) => (row.status === 'published' || row.status === 'failed') && (row.postStatus === 'queued' || row.postStatus === 'publishing');

/** Null when the target is gone, settled with its post, not due at `dueAt` any more, or claimed by another run. */
export async function startTarget(store: Pick<Store, 'db' | 'caps'>, targetId: string, dueAt: number, now: number, lease: Lease): Promise<StartedTarget | UnsettledPost | null> {
  if (store.caps.writableCte) {
    const { read, now: claimedAt } = await startTogether(store.db, { targetId, dueAt, lease, now });
    if (!read) return null;
    const { claimed, claimedProgress, waiting, ...row } = read;
    if (isUnsettled(row)) return { unsettled: row };
    if (!isCurrent(row, dueAt)) return null;
    // A pending target whose claim did not take was claimed by another run meanwhile.
    if (row.status === 'pending' && !claimed) return null;
    return { row, claimed: Boolean(claimed), nextWaiting: Boolean(waiting), premarkedAt: claimedProgress === premarkedProgress(claimedAt) ? claimedAt : null };
  }
  const [row] = (await readTarget.execute(store.db, targetId)).rows;
  if (!row) return null;
  if (isUnsettled(row)) return { unsettled: row };
  if (!isCurrent(row, dueAt)) return null;
  if (row.status !== 'pending') return { row, claimed: false, nextWaiting: false, premarkedAt: null };
  const premarked = premarkedProgress(now);
  const claim = await claimTarget(store.db, targetId, dueAt, now, premarked, whileHeld(store, lease)).returning('progress').executeTakeFirst();
  if (!claim) return null;
  // Read with the target above: only the post's first target finds it still queued.
  if (row.postStatus === 'queued') await startPost(store.db, row.post_id, now).execute();
  return { row, claimed: true, nextWaiting: false, premarkedAt: claim.progress === premarked ? now : null };
}
