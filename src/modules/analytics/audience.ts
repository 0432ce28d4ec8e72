// GET /analytics/accounts/{id}/demographics and /online-followers: who follows the account, and
// when they are online. Instagram (and Threads) give demographics only from 100 followers: below
// that the answer is 400 not_supported, decided from the followers count before asking for them.
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import { DEMOGRAPHIC_BREAKDOWNS, type Audience, type DemographicBreakdown } from '../../platforms/insights-types.ts';

const isBreakdown = (v: string): v is DemographicBreakdown => (DEMOGRAPHIC_BREAKDOWNS as readonly string[]).includes(v);
import { callPlatform } from '../accounts/platform-call.ts';
import { capabilityOf, findAccount, iso, type AnalyticsDeps } from './common.ts';

export interface DemographicsQuery {
  breakdown: string;
  metric?: Audience | undefined;
  timeframe?: string | undefined;
}

export async function demographics(deps: AnalyticsDeps, tenant: Tenant, accountId: string, query: DemographicsQuery) {
  const account = await findAccount(tenant, accountId);
  const reader = capabilityOf(deps, account.platform, 'demographics');
  const breakdown = query.breakdown;
  if (!isBreakdown(breakdown)) throw errors.invalid('breakdown', `one of ${DEMOGRAPHIC_BREAKDOWNS.join(', ')}`);
  if (!reader.breakdowns.includes(breakdown)) throw errors.notSupported(`${account.platform} demographics have no ${query.breakdown} breakdown (only ${reader.breakdowns.join(', ')})`);
  const audience = query.metric ?? 'followers';
  if (!reader.audiences.includes(audience)) throw errors.notSupported(`${account.platform} demographics are of ${reader.audiences.join(', ')} only`);
  if (query.timeframe !== undefined && !reader.timeframes.includes(query.timeframe)) {
    throw reader.timeframes.length ? errors.invalid('timeframe', `one of ${reader.timeframes.join(', ')}`) : errors.notSupported(`${account.platform} demographics take no timeframe`);
  }
  const timeframe = query.timeframe ?? reader.timeframes[0] ?? null;
  const outcome = await callPlatform(deps, account, async (credentials) => {
    if (reader.minFollowers > 0) {
      const followers = await reader.followers(credentials);
      if (followers < reader.minFollowers) return { kind: 'too_few' as const, followers };
    }
    return { kind: 'read' as const, result: await reader.demographics(credentials, { audience, breakdown, timeframe }) };
  });
  if (outcome.kind === 'too_few') {
    throw errors.notSupported(`${account.platform} gives demographics from ${reader.minFollowers} followers; this account has ${outcome.followers}`);
  }
  const values = [...outcome.result.values].sort((a, b) => b.value - a.value);
  return { accountId: account.id, platform: account.platform, metric: audience, breakdown, timeframe, total: outcome.result.total, values };
}

export async function onlineFollowers(deps: AnalyticsDeps, tenant: Tenant, accountId: string) {
  const account = await findAccount(tenant, accountId);
  const reader = capabilityOf(deps, account.platform, 'onlineFollowers');
  const days = await callPlatform(deps, account, (credentials) => reader.onlineFollowers(credentials));
  const hours = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    value: days.length ? Math.round((days.reduce((s, d) => s + (d.hours[hour] ?? 0), 0) / days.length) * 100) / 100 : 0,
  }));
  return { accountId: account.id, platform: account.platform, days: days.map((d) => ({ endTime: iso(d.endTime) ?? '', hours: d.hours })), hours };
}
