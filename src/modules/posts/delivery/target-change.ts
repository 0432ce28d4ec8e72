// What one delivery step does to its target: the outcome a platform step ends with, the
// target's new state, and that change as one update statement for every outcome.
import type { Kysely } from 'kysely';
import type { Database, PostTargetRow, TargetStatus } from '../../../db/schema.ts';
import { exponentialBackoff } from '../../../jobs/backoff.ts';
import { DELIVERY_BACKOFF, MAX_TARGET_ATTEMPTS } from './kinds.ts';

export type StepOutcome =
  | { kind: 'published'; platformPostId: string | null; url: string | null }
  | { kind: 'processing'; checkAfterMs: number }
  | { kind: 'failed'; message: string; retryable: boolean; retryAfterMs?: number | undefined };

export type Target = Pick<PostTargetRow, 'id' | 'post_id' | 'position' | 'attempts' | 'released_next'>;

/** A platform's reset further off than this is not waited for: the target fails (DESIGN "More platforms", rate limits). */
export const MAX_PLATFORM_WAIT_MS = 86_400_000;

/**
 * Delay before retry `attempts + 1`, or null when no attempts are left. When the platform said
 * when its limit resets (`retryAfterMs`: LinkedIn's next 00:00 UTC, X's reset header), the retry
 * waits for that, beyond the backoff's cap, unless it is more than a day away.
 */
export function retryDelay(attempts: number, retryAfterMs?: number, random: () => number = Math.random): number | null {
  if (attempts >= MAX_TARGET_ATTEMPTS) return null;
  const delay = exponentialBackoff(attempts, DELIVERY_BACKOFF, random);
  if (retryAfterMs === undefined) return delay;
  return retryAfterMs > MAX_PLATFORM_WAIT_MS ? null : Math.max(delay, retryAfterMs);
}

export interface TargetChange {
  kind: StepOutcome['kind'];
  status: TargetStatus;
  /** When the target's next step is due, if it has one (a retry, a processing check). */
  nextStepAt: number | null;
}

export function changeOf(target: Target, outcome: StepOutcome, now: number): TargetChange {
  switch (outcome.kind) {
    case 'published':
      return { kind: 'published', status: 'published', nextStepAt: null };
    case 'processing':
      return { kind: 'processing', status: 'publishing', nextStepAt: now + outcome.checkAfterMs };
    case 'failed': {
      const delay = outcome.retryable ? retryDelay(target.attempts, outcome.retryAfterMs) : null;
      const at = delay === null ? null : now + delay;
      return { kind: 'failed', status: at === null ? 'failed' : 'pending', nextStepAt: at };
    }
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown outcome ${String(unreachable)}`);
    }
  }
}

export const isOpen = (status: string) => status === 'pending' || status === 'publishing';

// A target's change in one shape for every outcome (so that its statements are compiled once,
// db/prepared.ts), each column the outcome leaves alone written back as it was. Every outcome
// ends an attempt, after which the next target is released (`released_next`).
export const changeTarget = (qc: Pick<Kysely<Database>, 'updateTable'>, targetId: string, kind: string, status: TargetStatus, platformPostId: string | null, url: string | null, error: string | null, nextAt: number | null, now: number) =>
  qc
    .updateTable('post_targets')
    .set((eb) => ({
      status,
      platform_post_id: eb.case().when(eb.val(kind), '=', 'published').then(eb.val(platformPostId)).else(eb.ref('platform_post_id')).end(),
      url: eb.case().when(eb.val(kind), '=', 'published').then(eb.val(url)).else(eb.ref('url')).end(),
      published_at: eb.case().when(eb.val(kind), '=', 'published').then(eb.val(now)).else(eb.ref('published_at')).end(),
      error: eb.case().when(eb.val(kind), '=', 'processing').then(eb.ref('error')).else(eb.val(error)).end(),
      next_attempt_at: nextAt,
      released_next: 1,
      updated_at: now,
    }))
    .where('id', '=', targetId);

export type ChangeArgs = [targetId: string, kind: string, status: TargetStatus, platformPostId: string | null, url: string | null, error: string | null, nextAt: number | null, now: number];

export const changeArgs = (target: Target, change: TargetChange, outcome: StepOutcome, now: number): ChangeArgs => [
  target.id,
  change.kind,
  change.status,
  outcome.kind === 'published' ? outcome.platformPostId : null,
  outcome.kind === 'published' ? outcome.url : null,
  outcome.kind === 'failed' ? outcome.message : null,
  change.nextStepAt,
  now,
];

