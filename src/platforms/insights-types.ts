// The insights capabilities (contract "Analytics", DESIGN §2): one vocabulary of metric names,
// ours and the same on every platform, which each platform's insights.ts maps onto its own
// current names and periods in one table. A metric a platform lacks is `unsupported`, not an
// error; a metric the platform refuses (a renamed or retired one, too few viewers) is a failure
// of that metric alone, beside the values of the others. Re-exported by types.ts.
//
// Like the other capabilities these are pure platform knowledge: no database, no clock, no
// retries. A call that fails as a whole throws PlatformError.
import type { PlatformError } from './errors.ts';
import type { AccountCredentials } from './types.ts';

/** Our metric names: post and account metrics share one list. */
export const METRICS = [
  'views', 'reach', 'likes', 'comments', 'shares', 'saves', 'replies', 'reposts', 'quotes', 'clicks',
  'interactions', 'profileVisits', 'follows', 'videoViews', 'score', 'upvoteRatio',
  'followers', 'newFollowers', 'unfollows', 'profileViews', 'websiteClicks', 'accountsEngaged', 'videos',
  'watchTimeMinutes', 'subscribersGained',
] as const;
export type MetricName = (typeof METRICS)[number];

export const isMetric = (name: string): name is MetricName => (METRICS as readonly string[]).includes(name);

/** What engagement is made of, where a platform has them (best time sums these). */
export const ENGAGEMENT_METRICS: readonly MetricName[] = ['likes', 'comments', 'shares', 'saves', 'replies', 'reposts', 'quotes'];

/** A metric the platform refused while the others of the same request were read. */
export interface MetricFailure {
  metric: MetricName;
  error: PlatformError;
}

/** What one read of a platform's insights gave. */
export interface MetricReadout<V> {
  values: Partial<Record<MetricName, V>>;
  /** Asked for, but the platform (or this kind of post) has no such metric. */
  unsupported: MetricName[];
  failures: MetricFailure[];
}

export interface PostInsightsReader {
  /** Our names the platform offers for a post (some only for some kinds of post). */
  readonly metrics: readonly MetricName[];
  post(account: AccountCredentials, platformPostId: string, metrics: readonly MetricName[]): Promise<MetricReadout<number>>;
}

export type MetricType = 'time_series' | 'total_value';
export type InsightsPeriod = 'day' | 'week' | 'days_28' | 'lifetime';

export interface AccountInsightsQuery {
  metrics: readonly MetricName[];
  period: InsightsPeriod;
  /** Epoch milliseconds; null: the platform's default range. */
  since: number | null;
  until: number | null;
  metricType: MetricType;
  /** The platform's own breakdown name (media_product_type …); null: none. */
  breakdown: string | null;
  timeframe: string | null;
}

/** One account metric as read: a total, a series of values, or both, with any breakdown. */
export interface AccountMetric {
  /** The period the platform answered for. */
  period: string;
  total: number | null;
  values: Array<{ endTime: number; value: number }>;
  breakdown: Array<{ key: string; value: number }>;
}

export interface AccountInsightsReader {
  readonly metrics: readonly MetricName[];
  account(account: AccountCredentials, query: AccountInsightsQuery): Promise<MetricReadout<AccountMetric>>;
}

export const DEMOGRAPHIC_BREAKDOWNS = ['age', 'city', 'country', 'gender'] as const;
export type DemographicBreakdown = (typeof DEMOGRAPHIC_BREAKDOWNS)[number];
/** Whose demographics: the followers, the people who engaged, the people reached. */
export const AUDIENCES = ['followers', 'engaged', 'reached'] as const;
export type Audience = (typeof AUDIENCES)[number];

export interface DemographicsQuery {
  audience: Audience;
  breakdown: DemographicBreakdown;
  timeframe: string | null;
}

export interface Demographics {
  total: number;
  values: Array<{ key: string; value: number }>;
}

export interface DemographicsReader {
  readonly breakdowns: readonly DemographicBreakdown[];
  readonly audiences: readonly Audience[];
  /** The platform's timeframes (the first is the default); empty: it takes none. */
  readonly timeframes: readonly string[];
  /** The least followers the platform gives demographics for (0: no floor). */
  readonly minFollowers: number;
  followers(account: AccountCredentials): Promise<number>;
  demographics(account: AccountCredentials, query: DemographicsQuery): Promise<Demographics>;
}

/** Followers online per hour of one day (hours 0–23 as the platform counts them). */
export interface OnlineDay {
  /** The end of the day the counts are for, epoch milliseconds. */
  endTime: number;
  hours: number[];
}

export interface OnlineFollowersReader {
  onlineFollowers(account: AccountCredentials): Promise<OnlineDay[]>;
}
