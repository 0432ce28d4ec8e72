// What every analytics operation shares: the account (404 when unknown or another
// organization's), the platform's insights capability (400 not_supported without a platform
// call), our metric names from a comma list (400 naming `metrics`), and failures as the answer
// shows them. A failure of one metric is the contract's error of its kind, beside the values.
import type { AppDeps } from '../../deps.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { PlatformError, toApiError } from '../../platforms/errors.ts';
import { isMetric, METRICS, type MetricFailure, type MetricName } from '../../platforms/insights-types.ts';
import type { PlatformAdapter } from '../../platforms/types.ts';
import type { FailureView } from './schemas.ts';

export type AnalyticsDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;

export type InsightsCapability = 'postInsights' | 'accountInsights' | 'demographics' | 'onlineFollowers';

const WHAT: Record<InsightsCapability, string> = {
  postInsights: 'post analytics',
  accountInsights: 'account analytics',
  demographics: 'demographics',
  onlineFollowers: 'online followers',
};

export { findAccount } from '../accounts/find-account.ts';

/** The adapter's capability, or 400 not_supported naming the platforms that have it. */
export function capabilityOf<C extends InsightsCapability>(deps: AnalyticsDeps, platform: string, capability: C): NonNullable<PlatformAdapter[C]> {
  const member = deps.platforms.of(platform)?.[capability];
  if (member) return member;
  const offered = Object.entries(deps.platforms.adapters).filter(([, adapter]) => adapter[capability]).map(([name]) => name);
  throw errors.notSupported(`${platform} does not offer ${WHAT[capability]} (only ${offered.join(', ')})`);
}

/** `metrics` (a comma list of our names) → the names; absent: `fallback`. */
export function parseMetrics(value: string | undefined, fallback: readonly MetricName[]): MetricName[] {
  if (value === undefined || value.trim() === '') return [...fallback];
  const names = [...new Set(value.split(',').map((m) => m.trim()).filter(Boolean))];
  // Named by position, not echoed: the input is the caller's, and answers never repeat it.
  const unknown = names.flatMap((m, i) => (isMetric(m) ? [] : [i + 1]));
  if (unknown.length) throw errors.invalid('metrics', `item ${unknown.join(', ')} is not one of our metric names (${METRICS.join(', ')})`);
  return names.filter(isMetric);
}

export function failureOf(metric: string | null, error: ApiError): FailureView {
  return { metric, message: error.message, ...(error.code ? { code: error.code } : {}) };
}

export const metricFailure = (failure: MetricFailure): FailureView => failureOf(failure.metric, toApiError(failure.error));

/** A platform or API error as a failure beside the values; anything else is a bug and is thrown. */
export function asFailure(error: unknown, metric: string | null = null): FailureView {
  if (error instanceof PlatformError) return failureOf(metric, toApiError(error));
  if (error instanceof ApiError) return failureOf(metric, error);
  throw error;
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
