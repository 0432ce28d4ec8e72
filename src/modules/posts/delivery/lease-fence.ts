// A `post.deliver` run writes only while its job is still its own: running, on the attempt the
// run was claimed for (a reaped job is pending; a claim since counts another attempt). A run
// its worker gave up (lease lost or not renewed in time) goes on in the background until it
// ends; fenced, its saves and its outcome fail, so it sends nothing more and records nothing.
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Store } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';

export interface Lease {
  jobId: string;
  attempt: number;
}

export const LEASE_LOST = 'the job is no longer held by this run (its lease ended)';

/**
 * The job row, if the run still holds it. On PostgreSQL the row is locked for share, so a
 * reaper's update waits for the write it fences instead of passing it; SQLite writes one at a time.
 */
export function leaseHeld(jobs: SelectQueryBuilder<Database, 'jobs', object>, store: Pick<Store, 'caps'>, lease: Lease) {
  return store.caps.skipLocked ? leaseLocked(jobs, lease) : leaseRow(jobs, lease);
}

/** A lease as values, or as columns of the statement (one lease per row of a batch). */
export interface LeaseIn {
  jobId: string | Expression<string>;
  attempt: number | Expression<number>;
}

/** PostgreSQL: the job row, locked for share, if the run still holds it (for statements of PostgreSQL only). */
export const leaseLocked = (jobs: SelectQueryBuilder<Database, 'jobs', object>, lease: LeaseIn) => leaseRow(jobs, lease).forShare();

const leaseRow = (jobs: SelectQueryBuilder<Database, 'jobs', object>, lease: LeaseIn) =>
  jobs.select('jobs.id').where('jobs.id', '=', lease.jobId).where('jobs.status', '=', 'running').where('jobs.attempts', '=', lease.attempt);

/** `where exists (the job is still this run's)`, for an update the lease fences. */
export const whileHeld = (store: Pick<Store, 'caps'>, lease: Lease) => (eb: ExpressionBuilder<Database, 'post_targets'>) =>
  eb.exists(leaseHeld(eb.selectFrom('jobs'), store, lease));

/** In a statement with a `lease` CTE (leaseLocked): whether the run still holds its job. */
export const HELD = sql<boolean>`exists (select 1 from "lease")`;
