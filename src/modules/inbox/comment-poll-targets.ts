// The statements of the comment poll on post_targets. One due-query claims a bounded batch: the
// published targets of the polled platforms (POLLED_COMMENT_PLATFORMS: no comment webhooks)
// younger than the window whose poll time has come (or that were never polled), oldest due
// first. It reads the partial index of migration 0027, whose WHERE the query repeats as literals
// (see src/jobs/queue.ts for why literals), over each platform's range of the window only. Claiming moves each target's poll time past the run's time limit, so another run (another
// worker) skips it, and a run that dies leaves it due again once that time passes; PostgreSQL also
// skips rows another run is claiming at this moment, and the outer WHERE repeats the due test, so
// a row changed meanwhile is re-checked.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database, TargetStatus } from '../../db/schema.ts';
import { POLLED_COMMENT_PLATFORMS } from '../../platforms/registry.ts';
import { POLL_WINDOW_MS } from './comment-poll-schedule.ts';

const POLLED = POLLED_COMMENT_PLATFORMS.map((name) => sql.lit(name));
const PUBLISHED = sql.lit<TargetStatus>('published');

export interface DueTarget {
  id: string;
  account_id: string;
  platform_post_id: string;
  published_at: number;
}

const dueAt = (now: number) => (eb: ExpressionBuilder<Database, 'post_targets'>) =>
  eb.and([
    eb('platform', 'in', POLLED),
    eb('status', '=', PUBLISHED),
    eb('published_at', '>', now - POLL_WINDOW_MS),
    eb.or([eb('comment_poll_at', 'is', null), eb('comment_poll_at', '<=', now)]),
  ]);

/** Claims up to `limit` due targets until `claimUntil`. */
export async function claimDueTargets(store: Store, now: number, limit: number, claimUntil: number): Promise<DueTarget[]> {
  const rows = await store.db
    .updateTable('post_targets')
    .set({ comment_poll_at: claimUntil })
    .where((eb) =>
      eb(
        'id',
        'in',
        eb
          .selectFrom('post_targets')
          .select('id')
          .where(dueAt(now))
          .orderBy(sql`coalesce(comment_poll_at, published_at)`)
          .limit(limit)
          .$if(store.caps.skipLocked, (qb) => qb.forUpdate().skipLocked()),
      ),
    )
    .where(dueAt(now))
    .returning(['id', 'account_id', 'platform_post_id', 'published_at'])
    .execute();
  return rows.flatMap((r) => (r.platform_post_id !== null && r.published_at !== null ? [{ id: r.id, account_id: r.account_id, platform_post_id: r.platform_post_id, published_at: r.published_at }] : []));
}

export async function setNextPoll(db: Kysely<Database>, targetId: string, at: number): Promise<void> {
  await db.updateTable('post_targets').set({ comment_poll_at: at }).where('id', '=', targetId).execute();
}

/** The comment ids of `ids` the account's inbox holds already (one indexed query per chunk). */
export async function recordedIds(db: Kysely<Database>, accountId: string, ids: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('inbox_events')
      .select('dedupe_key')
      .where('account_id', '=', accountId)
      .where('kind', 'in', ['comment', 'reply'])
      .where('dedupe_key', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) known.add(row.dedupe_key);
  }
  return known;
}
