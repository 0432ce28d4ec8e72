// GET /ads/insights (contract "Ads"; platforms.md §9.6): an ad account's, campaign's, ad set's
// or ad's numbers for a preset or a date range, per level, broken down and cut in time. Meta's
// strings become numbers; spend and costs are in the ad account's currency.
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import type { InsightsRow } from '../../platforms/types.ts';
import { accountOf, adAccountScope, adsCall, type AdsDeps, type AdScope } from './access.ts';
import { findRecord } from './records.ts';

export const DATE_PRESETS = ['today', 'yesterday', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'last_3d', 'last_7d', 'last_14d', 'last_28d', 'last_30d', 'last_90d', 'last_week_mon_sun', 'last_week_sun_sat', 'this_week_mon_today', 'this_week_sun_today', 'maximum'];
export const LEVELS = ['account', 'campaign', 'adset', 'ad'];
export const BREAKDOWNS = ['age', 'gender', 'country', 'region', 'dma', 'publisher_platform', 'platform_position', 'device_platform', 'impression_device'];

export interface InsightsQuery {
  accountId?: string | undefined;
  objectId?: string | undefined;
  datePreset?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  level?: string | undefined;
  breakdowns?: string | undefined;
  timeIncrement?: string | undefined;
}

const INTEGERS = ['impressions', 'reach', 'clicks', 'inline_link_clicks'];
const DECIMALS = ['spend', 'cpc', 'cpm', 'ctr', 'frequency'];
const NAMES: Record<string, string> = { inline_link_clicks: 'linkClicks', account_currency: 'currency', campaign_id: 'campaignId', campaign_name: 'campaignName', adset_id: 'adSetId', adset_name: 'adSetName', ad_id: 'adId', ad_name: 'adName', date_start: 'dateStart', date_stop: 'dateStop' };

function presentRow(row: InsightsRow, breakdowns: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const split: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (breakdowns.includes(key)) split[key] = value;
    else if (INTEGERS.includes(key) || DECIMALS.includes(key)) out[NAMES[key] ?? key] = Number(value);
    else if (key === 'actions' && Array.isArray(value)) out.actions = value.map((a: { action_type?: unknown; value?: unknown }) => ({ type: a.action_type, value: Number(a.value) }));
    else out[NAMES[key] ?? key] = value;
  }
  if (breakdowns.length) out.breakdowns = split;
  return out;
}

async function subject(deps: AdsDeps, tenant: Tenant, query: InsightsQuery): Promise<AdScope & { objectId: string }> {
  if (query.objectId === undefined || query.objectId.startsWith('act_')) {
    const scope = await adAccountScope(deps, tenant, { accountId: query.accountId, adAccountId: query.objectId }, { field: query.objectId === undefined ? 'adAccountId' : 'objectId' });
    return { ...scope, objectId: scope.adAccountId };
  }
  const record = await findRecord(tenant, query.objectId, ['campaign', 'adset', 'ad']);
  if (!record) throw errors.notFound('Ad object');
  return { account: await accountOf(tenant, record, query.accountId), adAccountId: record.ad_account_id, objectId: record.platform_id };
}

export async function readInsights(deps: AdsDeps, tenant: Tenant, query: InsightsQuery) {
  const breakdowns = query.breakdowns?.split(',').map((b) => b.trim()).filter(Boolean) ?? [];
  for (const b of breakdowns) if (!BREAKDOWNS.includes(b)) throw errors.invalid('breakdowns', `must be a comma list of ${BREAKDOWNS.join(', ')}`);
  if ((query.since === undefined) !== (query.until === undefined)) throw errors.invalid(query.since === undefined ? 'since' : 'until', 'since and until go together');
  if (query.since !== undefined && query.datePreset !== undefined) throw errors.invalid('datePreset', 'give datePreset or since/until, not both');
  if (query.since !== undefined && query.until !== undefined && query.since > query.until) throw errors.invalid('until', 'must not be before since');
  const target = await subject(deps, tenant, query);
  const rows = await adsCall(deps, target.account, (ads, credentials) =>
    ads.insights(credentials, target.objectId, {
      datePreset: query.datePreset ?? null,
      since: query.since ?? null,
      until: query.until ?? null,
      level: query.level ?? null,
      breakdowns,
      timeIncrement: query.timeIncrement ?? null,
    }),
  );
  return { objectId: target.objectId, rows: rows.map((r) => presentRow(r, breakdowns)) };
}
