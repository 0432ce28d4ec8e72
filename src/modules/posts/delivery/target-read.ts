// A `post.deliver` run's view of its target: the target with its post and account, read by the
// run's start (delivery-store.ts), and what that read tells the run: go on, settle the post a
// run before it left unsettled, or stop.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** The progress of a target that has made no call. */
export const FRESH = '{}';

export const TARGET_COLUMNS = ['t.id', 't.post_id', 't.position', 't.status', 't.attempts', 't.released_next', 't.next_attempt_at', 't.options', 't.progress', 't.platform', 'p.content', 'p.organization_id', 'p.status as postStatus'] as const;
export const ACCOUNT_COLUMNS = ['a.id as accountId', 'a.status as accountStatus', 'a.platform_user_id', 'a.username', 'a.access_token_enc', 'a.metadata'] as const;

export const targetOf = (db: Kysely<Database>) =>
  db.selectFrom('post_targets as t').innerJoin('posts as p', 'p.id', 't.post_id').leftJoin('accounts as a', 'a.id', 't.account_id').select(TARGET_COLUMNS).select(ACCOUNT_COLUMNS);

export type TargetRead = Awaited<ReturnType<ReturnType<typeof targetOf>['executeTakeFirstOrThrow']>>;

export interface StartedTarget {
  /** The target as read (its status as it was: pending for a target claimed by this run). */
  row: TargetRead;
  /** Whether this run claimed a pending target (a new attempt), rather than resuming one already publishing. */
  claimed: boolean;
  /** A later target of the post waits for this one's first attempt (the portable store does not read it: false). */
  nextWaiting: boolean;
  /** When the claim stored the marker of the attempt's first call (premarkedProgress), if it did. */
  premarkedAt: number | null;
}

/** A target that is over (published or failed) while its post is not: a run that ended before settling it. */
export interface UnsettledPost {
  unsettled: Pick<TargetRead, 'post_id' | 'organization_id'>;
}

/**
 * What a run does with its target as read (before any claim): settle the post a run before it
 * left unsettled (the target is over, its post is not); stop (gone, settled, or no longer due at
 * `dueAt`); resume the attempt already publishing; or claim the pending target, a new attempt.
 */
export function startStepOf(row: TargetRead | undefined, dueAt: number): 'settle_post' | 'stop' | 'resume' | 'claim' {
  if (!row) return 'stop';
  if ((row.status === 'published' || row.status === 'failed') && (row.postStatus === 'queued' || row.postStatus === 'publishing')) return 'settle_post';
  if (row.next_attempt_at !== dueAt) return 'stop';
  if (row.status === 'pending') return 'claim';
  return row.status === 'publishing' ? 'resume' : 'stop';
}
