// GET /analytics/best-time: the best UTC (weekday, hour) slots to post from the account's own
// published targets of the last `days`: each slot's score is the average engagement (likes,
// comments, shares, saves, replies, reposts, quotes of the newest snapshot; a target without one
// yet counts 0) of the posts published in it, and says how many posts it rests on. Under
// MIN_POSTS posts the answer falls back to the followers online (instagram), then to the
// platform-wide defaults, and says which it rests on (DESIGN §2 Analytics).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { ApiError } from '../../http/errors.ts';
import type { OnlineDay } from '../../platforms/insights-types.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { defaultSlots } from './best-time-defaults.ts';
import { findAccount, type AnalyticsDeps } from './common.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Fewer published posts than this, and the account's own results say too little. */
export const MIN_POSTS = 10;

export interface Slot {
  weekday: number;
  hour: number;
  score: number;
  posts: number;
}

export type Basis = 'posts' | 'online_followers' | 'default';

/** 0 = Monday, as the answer counts weekdays. */
const weekdayOf = (ms: number): number => (new Date(ms).getUTCDay() + 6) % 7;
const round = (n: number): number => Math.round(n * 100) / 100;

/** Best first: higher score, then more posts, then the earlier slot of the week. */
const byScore = (a: Slot, b: Slot) => b.score - a.score || b.posts - a.posts || a.weekday - b.weekday || a.hour - b.hour;

/** A row's slot, weekday × 24 + hour (UTC; the epoch began on a Thursday, weekday 3). */
const slotOf = (column: string) => sql<number>`((${sql.ref(column)} / ${sql.lit(DAY_MS)} + 3) % 7) * 24 + (${sql.ref(column)} / ${sql.lit(HOUR_MS)}) % 24`;

/**
 * Average engagement per slot of the account's targets published since `since`: the targets are
 * counted per slot and the newest snapshots' engagement summed per slot, each in the database
 * over a covering index (the snapshot keeps its target's publishing time), so an account with
 * tens of thousands of posts is two index range scans returning at most 168 rows each.
 */
export async function postSlots(db: Kysely<Database>, accountId: string, since: number): Promise<Slot[]> {
  const counts = await db
    .selectFrom('post_targets')
    .select([slotOf('published_at').as('slot'), (eb) => eb.fn.countAll().as('posts')])
    .where('account_id', '=', accountId)
    // The literal matches the partial index post_targets_account_published.
    .where('status', '=', sql.lit('published'))
    .where('published_at', '>=', since)
    .groupBy(slotOf('published_at'))
    .execute();
  const sums = await db
    .selectFrom('analytics_snapshots')
    .select([slotOf('published_at').as('slot'), (eb) => eb.fn.sum('engagement').as('engagement')])
    .where('account_id', '=', accountId)
    .where('latest', '=', sql.lit(1))
    .where('published_at', '>=', since)
    .groupBy(slotOf('published_at'))
    .execute();
  const engagement = new Map(sums.map((s) => [Number(s.slot), Number(s.engagement ?? 0)]));
  return counts
    .map((c) => {
      const slot = Number(c.slot);
      const posts = Number(c.posts);
      return { weekday: Math.floor(slot / 24), hour: slot % 24, score: round((engagement.get(slot) ?? 0) / posts), posts };
    })
    .sort(byScore);
}

/** Average followers online per slot; a day's counts are for the day that ends at its end time. */
export function slotsFromOnline(days: readonly OnlineDay[]): Slot[] {
  const sums = new Map<number, { total: number; days: number }>();
  for (const day of days) {
    const weekday = weekdayOf(day.endTime - 12 * HOUR_MS);
    day.hours.forEach((value, hour) => {
      const key = weekday * 24 + hour;
      const slot = sums.get(key) ?? { total: 0, days: 0 };
      slot.total += value;
      slot.days += 1;
      sums.set(key, slot);
    });
  }
  return [...sums].map(([key, s]) => ({ weekday: Math.floor(key / 24), hour: key % 24, score: round(s.total / s.days), posts: 0 })).sort(byScore);
}

export async function bestTime(deps: AnalyticsDeps, tenant: Tenant, accountId: string, days: number) {
  const account = await findAccount(tenant, accountId);
  const since = deps.clock.now() - days * DAY_MS;
  const slots = await postSlots(deps.store.db, account.id, since);
  const posts = slots.reduce((n, s) => n + s.posts, 0);
  const answer = (basis: Basis, shown: Slot[]) => ({ accountId: account.id, days, basis, posts, slots: shown });
  if (posts >= MIN_POSTS) return answer('posts', slots);
  const online = deps.platforms.of(account.platform)?.onlineFollowers;
  if (online && account.status === 'active') {
    try {
      const read = await callPlatform(deps, account, (credentials) => online.onlineFollowers(credentials));
      const slots = slotsFromOnline(read);
      if (slots.some((s) => s.score > 0)) return answer('online_followers', slots);
    } catch (error) {
      // A fallback that fails (too few followers, a permission) leaves the defaults.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return answer('default', defaultSlots(account.platform).map(([weekday, hour, score]) => ({ weekday, hour, score, posts: 0 })).sort(byScore));
}
