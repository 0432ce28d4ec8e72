// The job kinds of delivery, declared apart from their handlers so services can enqueue them
// without pulling in the platform adapters. Payloads carry ids and the due time the domain row
// expects: a job whose dueAt no longer matches the row is stale and does nothing.
// Delivery steps mostly wait on platforms (and on their processing), so they run in a lane of
// their own with many slots (POST_DELIVERY_CONCURRENCY), apart from the default lane. Dispatches
// (a scheduled post falling due) run there too: hundreds may fall due in the same second, and
// each is the first step of a delivery, not background work.
import { Type } from 'typebox';
import { jobKind } from '../../../jobs/catalog.ts';

export const postDispatch = jobKind(
  'post.dispatch',
  Type.Object({
    postId: Type.String(),
    /** The post's scheduled_for when queued. */
    dueAt: Type.Number(),
  }),
  { maxAttempts: 10, lane: 'posts' },
);

export const postDeliver = jobKind(
  'post.deliver',
  Type.Object({
    targetId: Type.String(),
    /** The target's next_attempt_at when queued. */
    dueAt: Type.Number(),
  }),
  { maxAttempts: 10, lane: 'posts' },
);

/** Retries after transient failures: 6 attempts in all (DESIGN §2 Posts). */
export const MAX_TARGET_ATTEMPTS = 6;
/** About 30 s, 2 min, 8 min, 30 min, 2 h, ±20%. */
export const DELIVERY_BACKOFF = { baseMs: 30_000, factor: 4, maxMs: 7_200_000, jitter: 0.2 };
