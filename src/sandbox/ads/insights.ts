// GET /{act_id|campaign|adset|ad}/insights (platforms.md §9.6): date_preset or time_range,
// time_increment, level, breakdowns and fields over the deterministic numbers of metrics.ts.
// Numbers are strings; spend is in major units ("12.34"); rows without impressions are left out.
import type { RouteContext } from '../core/router.ts';
import { graphError } from '../meta/graph-error.ts';
import { pageOf } from '../meta/paging.ts';
import { list, str, type GraphInput } from '../meta/params.ts';
import { refreshDelivery } from './delivery.ts';
import { DAY_MS, dayNumbers, unit, type DayNumbers } from './metrics.ts';
import { dateRange, buckets, type Bucket } from './periods.ts';
import type { Ad } from './store.ts';
import { currencyOffset } from './catalog.ts';

export type Level = 'account' | 'campaign' | 'adset' | 'ad';
const LEVELS: Level[] = ['account', 'campaign', 'adset', 'ad'];

const DIMENSIONS: Record<string, string[]> = {
  age: ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'],
  gender: ['female', 'male', 'unknown'],
  publisher_platform: ['facebook', 'instagram', 'audience_network', 'messenger'],
  platform_position: ['feed', 'story', 'facebook_reels', 'instagram_reels'],
  device_platform: ['mobile_app', 'mobile_web', 'desktop'],
  impression_device: ['iphone', 'android_smartphone', 'desktop', 'ipad'],
  country: [],
  region: ['California', 'New York', 'Texas', 'Florida'],
  dma: ['New York', 'Los Angeles', 'Chicago', 'San Francisco-Oakland-San Jose'],
};
const COMBINATIONS = [['age', 'gender'], ['publisher_platform', 'platform_position'], ['publisher_platform', 'device_platform'], ['country', 'age']];

const METRIC_FIELDS = ['impressions', 'reach', 'frequency', 'spend', 'clicks', 'cpc', 'cpm', 'ctr', 'inline_link_clicks', 'actions', 'cost_per_action_type'];
const NAME_FIELDS = ['account_id', 'account_name', 'account_currency', 'campaign_id', 'campaign_name', 'adset_id', 'adset_name', 'ad_id', 'ad_name', 'objective'];

export interface InsightsScope {
  /** The node's own level, the default `level`. */
  level: Level;
  ads: Ad[];
}

export function insights(ctx: RouteContext, input: GraphInput, scope: InsightsScope): unknown {
  const state = ctx.state;
  refreshDelivery(state);
  const level = (str(input, 'level') ?? scope.level) as Level;
  if (!LEVELS.includes(level) || LEVELS.indexOf(level) < LEVELS.indexOf(scope.level)) throw graphError({ code: 100, message: `(#100) Param level must be one of {${LEVELS.slice(LEVELS.indexOf(scope.level)).join(', ')}}` });
  const fields = list(input, 'fields') ?? ['impressions', 'spend'];
  for (const f of fields) if (!METRIC_FIELDS.includes(f) && !NAME_FIELDS.includes(f) && f !== 'date_start' && f !== 'date_stop') throw graphError({ code: 100, message: `(#100) ${f} is not valid for fields param.` });
  const breakdowns = list(input, 'breakdowns') ?? [];
  for (const b of breakdowns) if (!(b in DIMENSIONS)) throw graphError({ code: 100, message: `(#100) breakdowns[0] must be one of the following values: ${Object.keys(DIMENSIONS).join(', ')}` });
  if (breakdowns.length > 1 && !COMBINATIONS.some((c) => c.length === breakdowns.length && c.every((d) => breakdowns.includes(d)))) {
    throw graphError({ code: 100, message: `(#100) Current combination of data breakdown columns (action_type, ${breakdowns.join(', ')}) is invalid ` });
  }
  const range = dateRange(state, input);
  const rows: Array<Record<string, unknown>> = [];
  const groups = new Map<string, Ad[]>();
  for (const ad of scope.ads) {
    const key = level === 'account' ? ad.accountId : level === 'campaign' ? ad.campaignId : level === 'adset' ? ad.adsetId : ad.id;
    groups.set(key, [...(groups.get(key) ?? []), ad]);
  }
  for (const bucket of buckets(range, str(input, 'time_increment') ?? 'all_days')) {
    for (const [groupId, ads] of groups) {
      const total = sum(ads.map((ad) => sumDays(state, ad, bucket)));
      if (!total.impressions) continue;
      for (const part of split(total, `${groupId}:${bucket.since}`, breakdowns, countriesOf(ctx, ads))) {
        rows.push({ ...row(ctx, fields, part.numbers, ads[0], level), ...part.columns, date_start: bucket.sinceText, date_stop: bucket.untilText });
      }
    }
  }
  return pageOf(ctx, input, rows, 25);
}

function sumDays(state: RouteContext['state'], ad: Ad, bucket: Bucket): DayNumbers {
  const days: DayNumbers[] = [];
  for (let day = bucket.since; day <= bucket.until; day += DAY_MS) {
    const n = dayNumbers(state, ad, day);
    if (n) days.push(n);
  }
  return sum(days);
}

function sum(list: DayNumbers[]): DayNumbers {
  const out: DayNumbers = { impressions: 0, reach: 0, clicks: 0, linkClicks: 0, postEngagement: 0, spend: 0 };
  for (const n of list) for (const k of Object.keys(out) as Array<keyof DayNumbers>) out[k] += n[k];
  return out;
}

function countriesOf(ctx: RouteContext, ads: Ad[]): string[] {
  const set = new Set<string>();
  for (const ad of ads) {
    const geo = ctx.state.ads.adsets.get(ad.adsetId)?.targeting.geo_locations as { countries?: unknown } | undefined;
    if (Array.isArray(geo?.countries)) for (const c of geo.countries) set.add(String(c));
  }
  return set.size ? [...set] : ['US'];
}

/** Splits integer totals over the breakdown values with stable weights (largest remainder). */
function split(total: DayNumbers, key: string, breakdowns: string[], countries: string[]): Array<{ numbers: DayNumbers; columns: Record<string, string> }> {
  let combos: Array<Record<string, string>> = [{}];
  for (const dim of breakdowns) {
    const values = dim === 'country' ? countries : (DIMENSIONS[dim] ?? []);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [dim]: v })));
  }
  const weights = combos.map((c) => 0.2 + unit(`${key}:${JSON.stringify(c)}`));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const parts = combos.map((columns) => ({ numbers: { impressions: 0, reach: 0, clicks: 0, linkClicks: 0, postEngagement: 0, spend: 0 }, columns }));
  for (const metric of Object.keys(total) as Array<keyof DayNumbers>) {
    const exact = weights.map((w) => (total[metric] * w) / totalWeight);
    const floors = exact.map(Math.floor);
    let left = total[metric] - floors.reduce((a, b) => a + b, 0);
    const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
    for (const [, i] of order) if (left-- > 0) floors[i] = (floors[i] ?? 0) + 1;
    floors.forEach((value, i) => {
      const part = parts[i];
      if (part) part.numbers[metric] = value;
    });
  }
  return parts.filter((p) => p.numbers.impressions > 0);
}

function row(ctx: RouteContext, fields: string[], n: DayNumbers, ad: Ad | undefined, level: Level): Record<string, unknown> {
  const ads = ctx.state.ads;
  const account = ad ? ads.accounts.get(ad.accountId) : undefined;
  const campaign = ad ? ads.campaigns.get(ad.campaignId) : undefined;
  const adset = ad ? ads.adsets.get(ad.adsetId) : undefined;
  const offset = currencyOffset(account?.currency ?? 'USD');
  const money = (minor: number) => (minor / offset).toFixed(offset === 1 ? 0 : 2);
  const ratio = (a: number, b: number, digits = 6) => (b ? (a / b).toFixed(digits) : '0');
  const depth = LEVELS.indexOf(level);
  const values: Record<string, unknown> = {
    impressions: String(n.impressions),
    reach: String(n.reach),
    frequency: ratio(n.impressions, n.reach),
    spend: money(n.spend),
    clicks: String(n.clicks),
    cpc: n.clicks ? ratio(n.spend / offset, n.clicks) : undefined,
    cpm: ratio((n.spend / offset) * 1000, n.impressions),
    ctr: ratio(n.clicks * 100, n.impressions),
    inline_link_clicks: String(n.linkClicks),
    actions: [{ action_type: 'link_click', value: String(n.linkClicks) }, { action_type: 'post_engagement', value: String(n.postEngagement) }],
    cost_per_action_type: n.linkClicks ? [{ action_type: 'link_click', value: ratio(n.spend / offset, n.linkClicks) }] : [],
    account_id: account?.accountId,
    account_name: account?.name,
    account_currency: account?.currency,
    campaign_id: depth >= 1 ? campaign?.id : undefined,
    campaign_name: depth >= 1 ? campaign?.name : undefined,
    adset_id: depth >= 2 ? adset?.id : undefined,
    adset_name: depth >= 2 ? adset?.name : undefined,
    ad_id: depth >= 3 ? ad?.id : undefined,
    ad_name: depth >= 3 ? ad?.name : undefined,
    objective: campaign?.objective,
  };
  const out: Record<string, unknown> = {};
  for (const f of fields) if (values[f] !== undefined) out[f] = values[f];
  return out;
}
