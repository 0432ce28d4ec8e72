// Analytics answers as the API shows them (DESIGN §2 "Analytics"): values under our metric
// names, the metrics the platform lacks in `unsupported`, and failures beside the values.
import { Type, type Static } from 'typebox';
import { NullableTimestamp, Timestamp } from '../../http/schemas.ts';
import { METRICS } from '../../platforms/insights-types.ts';

const Failure = Type.Object(
  {
    metric: Type.Union([Type.String(), Type.Null()], { description: 'The metric that failed; null when the whole read failed.' }),
    message: Type.String(),
    code: Type.Optional(Type.String()),
  },
  { $id: 'AnalyticsError', title: 'AnalyticsError' },
);
export type FailureView = Static<typeof Failure>;

const MetricNames = Type.Array(Type.String(), { description: `Asked for, but the platform (or this kind of post) has no such metric. Our names: ${METRICS.join(', ')}.` });

export const TargetInsights = Type.Object(
  {
    targetId: Type.String(),
    accountId: Type.String(),
    platform: Type.String(),
    platformPostId: Type.String(),
    publishedAt: NullableTimestamp(),
    takenAt: NullableTimestamp('When the values were read from the platform; null when nothing could be read.'),
    source: Type.Union([Type.Literal('snapshot'), Type.Literal('live')], { description: 'snapshot: the newest stored snapshot; live: read now (refresh=1, or no snapshot yet).' }),
    stage: Type.Union([Type.String(), Type.Null()], { description: 'The snapshot stage: 1h, 24h, 7d after publishing, or refresh; null for a live read.' }),
    metrics: Type.Record(Type.String(), Type.Number(), { description: 'Our metric name → value.' }),
    unsupported: MetricNames,
    errors: Type.Array(Type.Ref('AnalyticsError')),
  },
  { $id: 'TargetInsights', title: 'TargetInsights' },
);
export type TargetInsightsView = Static<typeof TargetInsights>;

export const AccountMetric = Type.Object(
  {
    metric: Type.String(),
    period: Type.String({ description: 'The period the platform answered for.' }),
    total: Type.Union([Type.Number(), Type.Null()]),
    values: Type.Array(Type.Object({ endTime: Timestamp(), value: Type.Number() })),
    breakdown: Type.Array(Type.Object({ key: Type.String(), value: Type.Number() })),
  },
  { $id: 'AccountMetric', title: 'AccountMetric' },
);
export type AccountMetricView = Static<typeof AccountMetric>;

export const AccountInsights = Type.Object(
  {
    accountId: Type.String(),
    platform: Type.String(),
    metrics: Type.Array(Type.Ref('AccountMetric')),
    unsupported: MetricNames,
    errors: Type.Array(Type.Ref('AnalyticsError')),
  },
  { $id: 'AccountInsights', title: 'AccountInsights' },
);

export const Demographics = Type.Object(
  {
    accountId: Type.String(),
    platform: Type.String(),
    metric: Type.String({ description: 'Whose: followers, engaged or reached.' }),
    breakdown: Type.String(),
    timeframe: Type.Union([Type.String(), Type.Null()]),
    total: Type.Number(),
    values: Type.Array(Type.Object({ key: Type.String(), value: Type.Number() }), { description: 'Largest first.' }),
  },
  { $id: 'Demographics', title: 'Demographics' },
);

export const OnlineFollowers = Type.Object(
  {
    accountId: Type.String(),
    platform: Type.String(),
    days: Type.Array(Type.Object({ endTime: Timestamp(), hours: Type.Array(Type.Number(), { description: 'Followers online in each hour 0–23.' }) })),
    hours: Type.Array(Type.Object({ hour: Type.Integer(), value: Type.Number() }), { description: 'The average over the days, per hour 0–23.' }),
  },
  { $id: 'OnlineFollowers', title: 'OnlineFollowers' },
);

export const BestTime = Type.Object(
  {
    accountId: Type.String(),
    days: Type.Integer(),
    basis: Type.Union([Type.Literal('posts'), Type.Literal('online_followers'), Type.Literal('default')], {
      description: 'posts: the account\'s own published posts of the last `days`; online_followers: too few posts, the instagram followers online; default: the platform-wide defaults.',
    }),
    posts: Type.Integer({ description: 'Published posts of the last `days` the answer could rest on.' }),
    slots: Type.Array(
      Type.Object({
        weekday: Type.Integer({ minimum: 0, maximum: 6, description: '0 = Monday, UTC.' }),
        hour: Type.Integer({ minimum: 0, maximum: 23, description: 'UTC.' }),
        score: Type.Number({ description: 'posts: the average engagement of the slot\'s posts; online_followers: the average followers online; default: a relative weight.' }),
        posts: Type.Integer({ description: 'How many posts the slot rests on.' }),
      }),
      { description: 'Best first.' },
    ),
  },
  { $id: 'BestTime', title: 'BestTime' },
);

export const analyticsSchemas = [Failure, TargetInsights, AccountMetric, AccountInsights, Demographics, OnlineFollowers, BestTime];
