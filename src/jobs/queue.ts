// The jobs table's statements. A job row is pending (due at run_at), running (leased to
// locked_by until locked_until) or failed (attempts exhausted, last_error kept). A job that
// succeeds is deleted: the truth lives in the domain rows it worked on.
import { sql, type Kysely, type QueryCreator, type RawBuilder } from 'kysely';
import type { Store } from '../db/database.ts';
import { prepare } from '../db/prepared.ts';
import type { Write } from '../db/write-together.ts';
import type { Database, JobRow, JobStatus } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { TObject } from 'typebox';
import type { JobKind, JobPayload } from './catalog.ts';
import { JOBS_CHANNEL, wakeLocalWorkers } from './wakeup.ts';

// Status values are written into the SQL as literals, not bound: the partial indexes
// (jobs_due: status = 'pending', jobs_leased: status = 'running') serve only queries whose WHERE
// visibly implies theirs, and a bound parameter hides the value from SQLite's planner (and from
// PostgreSQL's generic plans), which then scan the whole table on every claim.
const PENDING = sql.lit<JobStatus>('pending');
const RUNNING = sql.lit<JobStatus>('running');

export interface EnqueueOptions {
  /** When the job is due; default now. */
  runAt?: number;
  /** At most one pending or running job with this key; a second enqueue is ignored. */
  dedupeKey?: string;
}

type NewJob = [id: string, kind: string, payload: string, runAt: number, maxAttempts: number, lane: string, now: number];

const newJobRow = (qc: QueryCreator<Database>, [id, kind, payload, runAt, maxAttempts, lane, now]: NewJob, dedupeKey: string | null) =>
  qc.insertInto('jobs').values({
    id,
    kind,
    payload,
    status: 'pending',
    run_at: runAt,
    max_attempts: maxAttempts,
    locked_until: null,
    locked_by: null,
    last_error: null,
    dedupe_key: dedupeKey,
    lane,
    created_at: now,
    updated_at: now,
  });

// The conflict target names the partial unique index jobs_dedupe by its predicate, which must be
// the literal of the index's own `status <> 'failed'`: SQLite finds no index for a bound
// parameter there ("ON CONFLICT clause does not match any … UNIQUE constraint").
const onDedupeKey = <Q extends ReturnType<typeof newJobRow>>(qb: Q) => qb.onConflict((oc) => oc.column('dedupe_key').where('status', '<>', sql.lit('failed')).doNothing());

// PostgreSQL: the insert and its NOTIFY in one statement (one round trip, not two); the
// notification, naming the job's lane, goes out only if a row was inserted, and only when the
// transaction commits.
const notifying = (db: Kysely<Database>, insert: (qc: QueryCreator<Database>) => ReturnType<typeof newJobRow>, lane: string) =>
  db
    .with('queued', (qc) => insert(qc).returning('id'))
    .selectFrom('queued')
    .select(['id', sql<string>`pg_notify(${JOBS_CHANNEL}, ${lane})`.as('notified')]);

// Compiled once (db/prepared.ts): every event queues a job, and building the insert cost more
// than running it.
const insertJob = prepare((db, ...job: NewJob) => newJobRow(db, job, null));
const insertDedupedJob = prepare((db, dedupeKey: string, ...job: NewJob) => onDedupeKey(newJobRow(db, job, dedupeKey)));
const insertJobNotifying = prepare((db, ...job: NewJob) => notifying(db, (qc) => newJobRow(qc, job, null), job[5]));
const insertDedupedJobNotifying = prepare((db, dedupeKey: string, ...job: NewJob) => notifying(db, (qc) => onDedupeKey(newJobRow(qc, job, dedupeKey)), job[5]));

/**
 * Adds a job. Pass the caller's transaction as `db`, so the job exists exactly when the change
 * that caused it does. Returns the job id, or null when a job with the same dedupeKey exists.
 * The payload's type is the kind's schema (checked at compile time here, at run time by the worker).
 */
export async function enqueue<K extends JobKind>(
  db: Kysely<Database>,
  store: Pick<Store, 'caps'>,
  now: number,
  definition: K,
  payload: JobPayload<K>,
  options: EnqueueOptions = {},
): Promise<string | null> {
  const id = newId('job', now);
  const job: NewJob = [id, definition.kind, JSON.stringify(payload), options.runAt ?? now, definition.maxAttempts, definition.lane ?? 'default', now];
  const { dedupeKey } = options;
  if (store.caps.listenNotify) {
    const { rows } = dedupeKey === undefined ? await insertJobNotifying.execute(db, ...job) : await insertDedupedJobNotifying.execute(db, dedupeKey, ...job);
    if (rows.length === 0) return null;
    // Inside a transaction the job is not there for another connection's claim until it
    // commits, when the NOTIFY wakes this process's workers too; a wake now would look in vain.
    if (!db.isTransaction) wakeLocalWorkers(definition.lane ?? 'default');
    return id;
  }
  const result = dedupeKey === undefined ? await insertJob.execute(db, ...job) : await insertDedupedJob.execute(db, dedupeKey, ...job);
  if ((result.numAffectedRows ?? 0n) === 0n) return null;
  wakeLocalWorkers(definition.lane ?? 'default');
  return id;
}

/**
 * A job's insert for writeTogether() (db/write-together.ts), to be written in one statement with
 * the change that causes it; `notify` goes to writeTogether, and wakeLocalWorkers() is for the
 * caller once it is written.
 */
export function jobWrite<K extends JobKind>(now: number, definition: K, payload: JobPayload<K>, options: EnqueueOptions = {}): { id: string; write: Write; notify: string } {
  const id = newId('job', now);
  const job: NewJob = [id, definition.kind, JSON.stringify(payload), options.runAt ?? now, definition.maxAttempts, definition.lane ?? 'default', now];
  const { dedupeKey } = options;
  const write: Write = (db) => (dedupeKey === undefined ? newJobRow(db, job, null) : onDedupeKey(newJobRow(db, job, dedupeKey)));
  return { id, write, notify: JOBS_CHANNEL };
}

/**
 * PostgreSQL: a job for each row of a CTE of the same statement, its id and payload made by the
 * statement from that row (`source`); a given id for a CTE of at most one row. For a job whose
 * payload names something the statement itself finds (release.ts, closing.ts).
 */
export function jobForRowOf<K extends JobKind>(qc: Kysely<Database>, definition: K, id: string | RawBuilder<string>, runAt: number, now: number, source: string, payload: RawBuilder<string>) {
  return qc
    .insertInto('jobs')
    .columns(['id', 'kind', 'payload', 'status', 'run_at', 'max_attempts', 'lane', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom(sql.table(source).as('source'))
        .select([
          (typeof id === 'string' ? sql.val(id) : id).as('id'),
          sql.val(definition.kind).as('kind'),
          payload.as('payload'),
          sql.lit('pending').as('status'),
          sql`cast(${runAt} as bigint)`.as('run_at'),
          sql`cast(${definition.maxAttempts} as integer)`.as('max_attempts'),
          sql.val(definition.lane ?? 'default').as('lane'),
          sql`cast(${now} as bigint)`.as('created_at'),
          sql`cast(${now} as bigint)`.as('updated_at'),
        ]),
    )
    .returning('id');
}

const DAY_MS = 86_400_000;

/**
 * Queues a daily sweep of `definition` at `runAt` (a UTC midnight), under a dedupe key naming
 * that day, so however many callers ask, the day gets one job. Null when it was queued already.
 */
export function enqueueDailySweep(
  db: Kysely<Database>,
  store: Pick<Store, 'caps'>,
  now: number,
  definition: JobKind<TObject<Record<never, never>>>,
  runAt: number,
): Promise<string | null> {
  const day = new Date(runAt).toISOString().slice(0, 10);
  return enqueue(db, store, now, definition, {}, { runAt, dedupeKey: `${definition.kind}:${day}` });
}

/** The first UTC midnight at or after `at`. */
export const midnightAfter = (at: number): number => Math.ceil(at / DAY_MS) * DAY_MS;

/**
 * Leases up to `limit` due jobs to `workerId` in one statement. On PostgreSQL the inner select
 * skips rows another worker is claiming at this moment (SKIP LOCKED), so no job is handed out
 * twice and claimers never wait on each other; on SQLite the statement holds the write lock.
 */
export async function claimDue(store: Store, workerId: string, now: number, leaseMs: number, limit: number, lane: string): Promise<JobRow[]> {
  if (store.caps.skipLocked) return (await claimSkippingLocked.execute(store.db, workerId, now + leaseMs, now, lane, limit)).rows;
  // SQLite: an UPDATE opens (or joins) a write group even when it changes no row, and so costs a
  // commit; a read outside a group costs none. Nothing due: no UPDATE. (On PostgreSQL the read
  // would be a round trip of its own, as dear as the claim.)
  if ((await anyDue.execute(store.db, lane, now)).rows.length === 0) return [];
  return (await claimInOrder.execute(store.db, workerId, now + leaseMs, now, lane, limit)).rows;
}

const anyDue = prepare((db, lane: string, now: number) =>
  db.selectFrom('jobs').select('id').where('status', '=', PENDING).where('lane', '=', lane).where('run_at', '<=', now).limit(1),
);

const claimQuery = (db: Kysely<Database>, workerId: string, lockedUntil: number, now: number, lane: string, limit: number, skipLocked: boolean) =>
  db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      locked_by: workerId,
      locked_until: lockedUntil,
      updated_at: now,
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', PENDING)
        .where('lane', '=', lane)
        .where('run_at', '<=', now)
        .orderBy('run_at')
        .limit(limit)
        .$if(skipLocked, (qb) => qb.forUpdate().skipLocked()),
    )
    .returningAll();
// Compiled once (db/prepared.ts): a busy worker claims many times a second.
const claimInOrder = prepare((db, workerId: string, lockedUntil: number, now: number, lane: string, limit: number) => claimQuery(db, workerId, lockedUntil, now, lane, limit, false));
const claimSkippingLocked = prepare((db, workerId: string, lockedUntil: number, now: number, lane: string, limit: number) => claimQuery(db, workerId, lockedUntil, now, lane, limit, true));

/**
 * Returns jobs whose lease has passed (their worker died or hung) to pending, in one statement.
 * The attempt they were on stays counted, so a job that kills every worker that runs it ends up
 * failed: one whose lease expired on its last attempt is failed here, with attempts ==
 * max_attempts, rather than claimed once more past its limit.
 */
// Compiled once (db/prepared.ts). The worker runs it only once a lease may have expired. run_at
// is kept: the job was due when it was claimed, so it goes back to its place at the head of the
// queue instead of behind everything queued while its worker was dying.
const reapLeases = prepare((db, now: number) =>
  db
    .updateTable('jobs')
    .set((eb) => {
      const exhausted = eb('attempts', '>=', eb.ref('max_attempts'));
      return {
        status: eb.case().when(exhausted).then(sql.lit<JobStatus>('failed')).else(PENDING).end(),
        last_error: eb.case().when(exhausted).then('lease expired on the last attempt (the worker running it died or hung)').else('lease expired').end(),
        locked_by: null,
        locked_until: null,
        updated_at: now,
      };
    })
    .where('status', '=', RUNNING)
    .where('locked_until', '<=', now),
);

export async function reapExpiredLeases(db: Kysely<Database>, now: number): Promise<number> {
  const result = await reapLeases.execute(db, now);
  return Number(result.numAffectedRows ?? 0n);
}

const owned = (db: Kysely<Database>, jobId: string, workerId: string) =>
  db.updateTable('jobs').where('id', '=', jobId).where('locked_by', '=', workerId).where('status', '=', RUNNING);

/** The most jobs one completeJobs statement deletes. */
export const COMPLETION_BATCH = 64;

// One compiled delete per list length, and only lengths that are powers of two (the list is
// padded by repeating its last id), so at most 7 texts: each is prepared once per connection.
const deleteJobs = new Map<number, ReturnType<typeof deleteJobsOf>>();
const deleteJobsOf = (length: number) =>
  prepare((db, workerId: string, ...jobIds: string[]) => db.deleteFrom('jobs').where('locked_by', '=', workerId).where('id', 'in', jobIds.slice(0, length)));

/**
 * Deletes several finished jobs of one worker in one statement, only while
 * the worker still holds each lease (`locked_by`): a job reaped meanwhile, and perhaps claimed by
 * another worker, is left alone.
 */
export async function completeJobs(db: Kysely<Database>, workerId: string, jobIds: readonly string[]): Promise<void> {
  for (let from = 0; from < jobIds.length; from += COMPLETION_BATCH) {
    const batch = jobIds.slice(from, from + COMPLETION_BATCH);
    const length = 2 ** Math.ceil(Math.log2(batch.length));
    const padded = [...batch, ...Array.from({ length: length - batch.length }, () => batch[batch.length - 1] ?? '')];
    let query = deleteJobs.get(length);
    if (!query) {
      query = deleteJobsOf(length);
      deleteJobs.set(length, query);
    }
    await query.execute(db, workerId, ...padded);
  }
}

/** Deletes a running job of this worker's in the caller's transaction; false when it is not this worker's any more. */
export async function completeJobIn(trx: Kysely<Database>, workerId: string, jobId: string): Promise<boolean> {
  const result = await completeOne.execute(trx, workerId, jobId);
  return (result.numAffectedRows ?? 0n) > 0n;
}
const completeOne = prepare((db, workerId: string, jobId: string) => db.deleteFrom('jobs').where('id', '=', jobId).where('locked_by', '=', workerId));

export async function retryJob(db: Kysely<Database>, jobId: string, workerId: string, now: number, runAt: number, error: string): Promise<void> {
  await owned(db, jobId, workerId)
    .set({ status: 'pending', run_at: runAt, locked_by: null, locked_until: null, last_error: error, updated_at: now })
    .execute();
}

export async function failJob(db: Kysely<Database>, jobId: string, workerId: string | null, now: number, error: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'failed', locked_by: null, locked_until: null, last_error: error, updated_at: now })
    .where('id', '=', jobId)
    .$if(workerId !== null, (qb) => qb.where('locked_by', '=', workerId))
    .execute();
}

/**
 * Gives a worker's unfinished jobs back at shutdown (all of them, or only `jobIds`), without
 * counting the interrupted attempt.
 */
export async function releaseJobs(db: Kysely<Database>, workerId: string, now: number, jobIds?: readonly string[]): Promise<number> {
  if (jobIds?.length === 0) return 0;
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({ status: 'pending', attempts: eb('attempts', '-', 1), locked_by: null, locked_until: null, run_at: now, updated_at: now }))
    .where('locked_by', '=', workerId)
    .where('status', '=', RUNNING)
    .$if(jobIds !== undefined, (qb) => qb.where('id', 'in', jobIds ?? []))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface NextTimes {
  /** Per lane asked, in the order asked: its earliest pending run_at, null when none is pending. */
  dueAt: Array<number | null>;
  /** The earliest lease expiry of any worker's running job: no reap is needed before it. */
  leaseExpiresAt: number | null;
}

// One scalar subquery per lane, not a GROUP BY: each is a min() on the (lane, run_at) index,
// which both stores answer from the index's first entry, where a grouped min reads every pending
// row of a backlog. One compiled query per number of lanes (a worker always asks all its lanes).
const laneTimes = new Map<number, ReturnType<typeof laneTimesOf>>();
const laneTimesOf = (count: number) =>
  prepare((db, ...lanes: string[]) =>
    db.selectNoFrom((eb) => [
      ...lanes
        .slice(0, count)
        .map((lane, i) => eb.selectFrom('jobs').select((e) => e.fn.min('run_at').as('t')).where('status', '=', PENDING).where('lane', '=', lane).as(`lane${i}`)),
      eb.selectFrom('jobs').select((e) => e.fn.min('locked_until').as('t')).where('status', '=', RUNNING).as('leased'),
    ]),
  );

export async function nextTimes(db: Kysely<Database>, lanes: readonly string[]): Promise<NextTimes> {
  let query = laneTimes.get(lanes.length);
  if (!query) {
    query = laneTimesOf(lanes.length);
    laneTimes.set(lanes.length, query);
  }
  const row = (await query.execute(db, ...lanes)).rows[0] as Record<string, unknown> | undefined;
  const time = (t: unknown) => (typeof t === 'number' || (typeof t === 'string' && t !== '') ? Number(t) : null);
  return { dueAt: lanes.map((_, i) => time(row?.[`lane${i}`])), leaseExpiresAt: time(row?.leased) };
}
