// `inbox.comment_poll`: some platforms send no comment webhooks (reddit; DESIGN "Comments and
// inbox"; a definition's `pollComments`), so each run claims a batch of due targets of those
// platforms (comment-poll-targets.ts), reads each one's comments
// through the adapter, and records every comment the account did not write itself through
// recordInboundComment: its unique inbox row makes each comment emit comment.received once,
// whatever the number of polls, restarts or workers. One target's comments and its next poll time
// are written in one transaction. A failure stays with its account: `auth` marks the account
// needs_reconnect (its targets are then skipped until it is reconnected), `rate_limited` leaves
// the account's other targets for a later run, anything else only that target; other accounts
// go on. Every run queues the next tick, and one that filled its batch queues a run at once.
import type { AppDeps } from '../../deps.ts';
import type { AccountRow } from '../../db/schema.ts';
import { defineJob, type JobContext } from '../../jobs/catalog.ts';
import { PlatformError } from '../../platforms/errors.ts';
import type { AccountCredentials, CommentReader, PlatformComment } from '../../platforms/types.ts';
import { credentialsOf } from '../accounts/credentials.ts';
import { markNeedsReconnect } from '../accounts/disconnect.ts';
import { recordInboundComment } from './record.ts';
import { commentPoll, nextPollAt, pollBatchThenQueue, POLL_WINDOW_MS, queueCommentPoll } from './comment-poll-schedule.ts';
import { claimDueTargets, recordedIds, setNextPoll, type DueTarget } from './comment-poll-targets.ts';

type PollDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms' | 'config'>;

/** Targets per run. */
export const POLL_BATCH = 50;
const RUN_TIMEOUT_MS = 5 * 60_000;
/** A claimed target is due again after this if its run never finished. */
const CLAIM_MS = 2 * RUN_TIMEOUT_MS;
/** Top-level comments per page read, and pages per target per poll. */
const PAGE_LIMIT = 500;
const MAX_PAGES = 4;

export function commentPollJob(deps: PollDeps) {
  return defineJob(commentPoll, {
    timeoutMs: RUN_TIMEOUT_MS,
    run: (_payload, context) =>
      pollBatchThenQueue({
        batch: POLL_BATCH,
        signal: context.signal,
        now: () => deps.clock.now(),
        poll: () => pollDueTargets(deps, context),
        queue: (now, runAt) => queueCommentPoll(deps.store.db, deps.store, now, deps.config.commentPollMs, runAt),
      }),
  });
}

/** One batch; answers how many targets it claimed. */
export async function pollDueTargets(deps: PollDeps, context: Pick<JobContext, 'signal' | 'log'>): Promise<number> {
  const now = deps.clock.now();
  const targets = await claimDueTargets(deps.store, now, POLL_BATCH, now + CLAIM_MS);
  if (!targets.length) return 0;
  const accountIds = [...new Set(targets.map((t) => t.account_id))];
  const accounts = await deps.store.db.selectFrom('accounts').selectAll().where('id', 'in', accountIds).execute();
  // A target whose account is gone has nobody to poll for: it leaves the window's due set for good.
  const found = new Set(accounts.map((a) => a.id));
  for (const target of targets) if (!found.has(target.account_id)) await setNextPoll(deps.store.db, target.id, target.published_at + POLL_WINDOW_MS);
  for (const account of accounts) {
    if (context.signal.aborted) break;
    await pollAccount(deps, context, account, targets.filter((t) => t.account_id === account.id));
  }
  return targets.length;
}

async function pollAccount(deps: PollDeps, context: Pick<JobContext, 'log'>, account: AccountRow, targets: DueTarget[]): Promise<void> {
  const { db } = deps.store;
  const interval = deps.config.commentPollMs;
  const reader = deps.platforms.of(account.platform)?.commentReader;
  // Once the account fails as a whole (token, rate limit), its other targets wait: not before this.
  let heldUntil: number | null = account.status === 'needs_reconnect' || !reader ? 0 : null;
  const credentials = heldUntil === null ? credentialsOf(account, deps.sealer) : null;
  for (const target of targets) {
    const now = deps.clock.now();
    const next = nextPollAt(target.published_at, now, interval);
    if (heldUntil !== null || !reader || !credentials) {
      await setNextPoll(db, target.id, Math.max(next, heldUntil ?? 0));
      continue;
    }
    try {
      const comments = await readAll(reader, credentials, target.platform_post_id);
      await record(deps, account, target, comments, now, next);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      // not_supported: the reads are off here (X_READS), refused before any call; nothing to warn about each tick.
      context.log[error.kind === 'not_supported' ? 'debug' : 'warn']({ accountId: account.id, targetId: target.id, kind: error.kind, status: error.details.status, error: error.message }, 'comment poll failed');
      if (error.kind === 'auth') {
        await markNeedsReconnect(deps, account.id, 'token_invalid', error.message);
        heldUntil = 0;
      } else if (error.kind === 'rate_limited') {
        heldUntil = now + Math.max(error.details.retryAfterMs ?? 0, interval);
      }
      await setNextPoll(db, target.id, Math.max(next, heldUntil ?? 0));
    }
  }
}

/** Every comment of the post, page after page (bounded: a huge thread is read in part). */
async function readAll(reader: CommentReader, credentials: AccountCredentials, platformPostId: string): Promise<PlatformComment[]> {
  const comments: PlatformComment[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await reader.list(credentials, platformPostId, { limit: PAGE_LIMIT, after });
    comments.push(...answer.comments);
    after = answer.after;
    if (after === null) break;
  }
  return comments;
}

/** The new comments as inbox events, and the target's next poll, in one transaction. */
async function record(deps: PollDeps, account: AccountRow, target: DueTarget, comments: PlatformComment[], now: number, next: number): Promise<void> {
  // Not the account's own, and not a deleted comment kept for its replies (nothing to tell).
  const others = comments.filter((c) => !c.isOwn && c.username !== null);
  const known = await recordedIds(deps.store.db, account.id, others.map((c) => c.id));
  await deps.store.db.transaction().execute(async (trx) => {
    for (const c of others) {
      if (known.has(c.id)) continue;
      const item = { kind: c.parentId ? ('reply' as const) : ('comment' as const), dedupeKey: c.id, platformPostId: target.platform_post_id, comment: { id: c.id, text: c.text, username: c.username, parentId: c.parentId } };
      await recordInboundComment({ db: trx, store: deps.store, now }, account, item, now);
    }
    await setNextPoll(trx, target.id, next);
  });
}
