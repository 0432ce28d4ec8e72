// `inbox.mention_poll`: platforms that send no mention webhooks (a definition's `pollMentions`:
// Bluesky, whose mentions and quotes are notifications, and x with X_READS=1) have each active
// account's mentions read on every tick (COMMENT_POLL_MS, as the comment poll), on from the newest
// one the last tick read (the platform's mark), and each mention made since the account was first
// connected is recorded through recordInboundComment: its unique inbox row makes it emit
// mention.received once, whatever the number of polls, restarts or workers. A failure stays with
// its account: `auth` marks it needs_reconnect (then it is not polled until reconnected),
// `rate_limited` waits as long as the platform asked; other accounts go on. Every run queues the
// next tick, and one that filled its batch queues a run at once.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { defineJob, jobKind, type JobContext } from '../../jobs/catalog.ts';
import { enqueue } from '../../jobs/queue.ts';
import { CLOCK_SKEW_MS } from '../../platforms/create-once.ts';
import { PlatformError } from '../../platforms/errors.ts';
import type { AccountCredentials, MentionReader, MentionsSince } from '../../platforms/types.ts';
import { credentialsOf } from '../accounts/credentials.ts';
import { markNeedsReconnect } from '../accounts/disconnect.ts';
import { pollBatchThenQueue, tickAfter } from './comment-poll-schedule.ts';
import { claimDueAccounts, setNextMentionPoll, type ClaimedAccount } from './mention-poll-accounts.ts';
import { recordInboundComment } from './record.ts';

type PollDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms' | 'config'>;

export const mentionPoll = jobKind('inbox.mention_poll', Type.Object({}), { maxAttempts: 3 });

/** Accounts per run. */
export const MENTION_POLL_BATCH = 50;
/**
 * The most mentions one poll of an account reads on from its mark (x serves at most the newest
 * 800 by paging); a platform read without a mark gets its newest page of this many.
 */
export const MENTIONS_READ_MAX = 800;
const MENTIONS_PAGE = 100;
const RUN_TIMEOUT_MS = 5 * 60_000;
const CLAIM_MS = 2 * RUN_TIMEOUT_MS;

/** Queues a run at `runAt` (default: the next tick), one per tick however many workers ask. */
export function queueMentionPoll(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number, intervalMs: number, runAt = tickAfter(now, intervalMs)): Promise<string | null> {
  return enqueue(db, store, now, mentionPoll, {}, { runAt, dedupeKey: `${mentionPoll.kind}:${runAt}` });
}

export function mentionPollJob(deps: PollDeps) {
  return defineJob(mentionPoll, {
    timeoutMs: RUN_TIMEOUT_MS,
    run: (_payload, context) =>
      pollBatchThenQueue({
        batch: MENTION_POLL_BATCH,
        signal: context.signal,
        now: () => deps.clock.now(),
        poll: () => pollDueAccounts(deps, context),
        queue: (now, runAt) => queueMentionPoll(deps.store.db, deps.store, now, deps.config.commentPollMs, runAt),
      }),
  });
}

/** One batch; answers how many accounts it claimed. */
export async function pollDueAccounts(deps: PollDeps, context: Pick<JobContext, 'signal' | 'log'>): Promise<number> {
  const now = deps.clock.now();
  const claimed = await claimDueAccounts(deps.store.db, now, MENTION_POLL_BATCH, now + CLAIM_MS);
  for (const item of claimed) {
    if (context.signal.aborted) break;
    await pollAccount(deps, context, item);
  }
  return claimed.length;
}

async function pollAccount(deps: PollDeps, context: Pick<JobContext, 'log'>, { account, since, mark }: ClaimedAccount): Promise<void> {
  const { db } = deps.store;
  const now = deps.clock.now();
  const next = tickAfter(now, deps.config.commentPollMs);
  const reader = deps.platforms.of(account.platform)?.mentionReader;
  if (!reader) return setNextMentionPoll(db, account.id, next);
  // Made since the account was first connected, with a clock skew's margin.
  const from = since - CLOCK_SKEW_MS;
  let read: MentionsSince;
  try {
    read = await readSince(reader, credentialsOf(account, deps.sealer), { mark, time: from });
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    // not_supported: the reads are off here (X_READS), refused before any call; nothing to warn about each tick.
    context.log[error.kind === 'not_supported' ? 'debug' : 'warn']({ accountId: account.id, kind: error.kind, status: error.details.status, error: error.message }, 'mention poll failed');
    if (error.kind === 'auth') await markNeedsReconnect(deps, account.id, 'token_invalid', error.message);
    const wait = error.kind === 'rate_limited' ? (error.details.retryAfterMs ?? 0) : 0;
    return setNextMentionPoll(db, account.id, Math.max(next, now + wait));
  }
  if (read.truncated) context.log.warn({ accountId: account.id, read: read.mentions.length }, 'more mentions came between two polls than one poll reads: the oldest of them were not read');
  // One without a time cannot be placed, so it is not announced. Oldest first, so the events come
  // in their order.
  const fresh = read.mentions.filter((m) => m.createdAt !== null && m.createdAt >= from).reverse();
  await db.transaction().execute(async (trx) => {
    for (const m of fresh) {
      const item = { kind: 'mention' as const, dedupeKey: m.mediaId, platformPostId: m.mediaId, comment: { id: m.mediaId, text: m.caption ?? '', username: m.username, parentId: null } };
      await recordInboundComment({ db: trx, store: deps.store, now }, account, item, now);
    }
    await setNextMentionPoll(trx, account.id, next, read.mark);
  });
}

/** On from the mark where the platform reads so; otherwise its newest page, which keeps no mark. */
async function readSince(reader: MentionReader, credentials: AccountCredentials, from: { mark: string | null; time: number }): Promise<MentionsSince> {
  if (reader.mentionsSince) return reader.mentionsSince(credentials, from, MENTIONS_READ_MAX);
  return { mentions: await reader.mentions(credentials, MENTIONS_PAGE), mark: null, truncated: false };
}
