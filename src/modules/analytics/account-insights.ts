// GET /analytics/accounts/{id}: an account's insights under our metric names, read live. The
// period, range, metric type, breakdown and timeframe go to the platform as it names them; a
// metric the platform lacks is unsupported, one it refuses is an error beside the others. A
// refusal of the whole read answers as the contract says (403 missing_permission, 409
// reconnect_required, 429, 502).
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import type { InsightsPeriod, MetricType } from '../../platforms/insights-types.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { capabilityOf, findAccount, iso, metricFailure, parseMetrics, type AnalyticsDeps } from './common.ts';
import type { AccountMetricView, FailureView } from './schemas.ts';

export interface AccountAnalyticsQuery {
  metrics?: string | undefined;
  period?: InsightsPeriod | undefined;
  since?: string | undefined;
  until?: string | undefined;
  metricType?: MetricType | undefined;
  breakdown?: string | undefined;
  timeframe?: string | undefined;
}

/** A date-time or a date (midnight UTC), as epoch milliseconds. */
export function parseInstant(field: string, value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const ms = /^\d{4}-\d\d-\d\d$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw errors.invalid(field, 'a date-time (ISO 8601) or a date');
  return ms;
}

export async function accountAnalytics(deps: AnalyticsDeps, tenant: Tenant, accountId: string, query: AccountAnalyticsQuery) {
  const account = await findAccount(tenant, accountId);
  const reader = capabilityOf(deps, account.platform, 'accountInsights');
  const metrics = parseMetrics(query.metrics, reader.metrics);
  const since = parseInstant('since', query.since);
  const until = parseInstant('until', query.until);
  if (since !== null && until !== null && since >= until) throw errors.invalid('since', 'must be before until');
  const readout = await callPlatform(deps, account, (credentials) =>
    reader.account(credentials, {
      metrics,
      period: query.period ?? 'day',
      since,
      until,
      metricType: query.metricType ?? 'total_value',
      breakdown: query.breakdown ?? null,
      timeframe: query.timeframe ?? null,
    }),
  );
  const shown: AccountMetricView[] = metrics.flatMap((metric) => {
    const value = readout.values[metric];
    if (!value) return [];
    return [{ metric, period: value.period, total: value.total, values: value.values.map((v) => ({ endTime: iso(v.endTime) ?? '', value: v.value })), breakdown: value.breakdown }];
  });
  const failures: FailureView[] = readout.failures.map(metricFailure);
  return { accountId: account.id, platform: account.platform, metrics: shown, unsupported: readout.unsupported, errors: failures };
}
