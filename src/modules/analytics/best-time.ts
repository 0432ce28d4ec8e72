// GET /analytics/best-time: the best UTC (weekday, hour) slots to post from the account's own
// published targets of the last `days`: each slot's score is the average engagement (likes,
// comments, shares, saves, replies, reposts, quotes of the newest snapshot; a target without one
// yet counts 0) of the posts published in it, and says how many posts it rests on. Under
// MIN_POSTS posts the answer falls back to the followers online (instagram), then to the
// platform-wide defaults, and says which it rests on (DESIGN §2 Analytics).
import { sql } from 'kysely';
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

/** Average engagement per slot of the posts published in it. */
export function slotsFromPosts(posts: ReadonlyArray<{ publishedAt: number; engagement: number }>): Slot[] {
  const sums = new Map<number, { total: number; posts: number }>();
  for (const post of posts) {
    const key = weekdayOf(post.publishedAt) * 24 + new Date(post.publishedAt).getUTCHours();
    const slot = sums.get(key) ?? { total: 0, posts: 0 };
    slot.total += post.engagement;
    slot.posts += 1;
    sums.set(key, slot);
  }
  return [...sums].map(([key, s]) => ({ weekday: Math.floor(key / 24), hour: key % 24, score: round(s.total / s.posts), posts: s.posts })).sort(byScore);
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
  const rows = await tenant
    .selectFrom('post_targets')
    .leftJoin('analytics_snapshots as s', (join) => join.onRef('s.target_id', '=', 'post_targets.id').on('s.latest', '=', sql.lit(1)))
    .select(['post_targets.published_at as publishedAt', 's.engagement as engagement'])
    .where('post_targets.account_id', '=', account.id)
    .where('post_targets.status', '=', sql.lit('published'))
    .where('post_targets.published_at', '>=', since)
    .execute();
  const posts = rows.flatMap((r) => (r.publishedAt === null ? [] : [{ publishedAt: Number(r.publishedAt), engagement: Number(r.engagement ?? 0) }]));
  const answer = (basis: Basis, slots: Slot[]) => ({ accountId: account.id, days, basis, posts: posts.length, slots });
  if (posts.length >= MIN_POSTS) return answer('posts', slotsFromPosts(posts));
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
