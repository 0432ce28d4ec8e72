// Deterministic delivery numbers (platforms.md §9.6): for each ad and UTC day, impressions,
// reach, clicks and spend derived from a hash of (ad id, day) and scaled by the share of the day
// the ad actually delivered (delivery.ts). Spend never exceeds the budget share of the ad, so
// the numbers are plausible and the same on every run for the same seed and clock.
import { createHash } from 'node:crypto';
import type { SandboxState } from '../core/state.ts';
import { deliveredMs, refreshDelivery } from './delivery.ts';
import type { Ad } from './store.ts';

export const DAY_MS = 86_400_000;

export interface DayNumbers {
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  postEngagement: number;
  /** Minor units of the account currency. */
  spend: number;
}

/** A stable fraction in [0, 1) for a key. */
export function unit(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/** The ad's budget share for one day, in minor units. */
function dailyBudgetShare(state: SandboxState, ad: Ad): number {
  const adset = state.ads.adsets.get(ad.adsetId);
  const campaign = state.ads.campaigns.get(ad.campaignId);
  if (!adset || !campaign) return 0;
  const siblings = [...state.ads.ads.values()].filter((a) => a.adsetId === ad.adsetId && a.status !== 'DELETED').length || 1;
  const perDay = (daily: number | null, lifetime: number | null, days: number) => daily ?? (lifetime !== null ? lifetime / Math.max(1, days) : 0);
  const scheduleDays = adset.endTime !== null ? Math.ceil((adset.endTime - adset.startTime) / DAY_MS) : 30;
  if (campaign.dailyBudget !== null || campaign.lifetimeBudget !== null) {
    const adsets = [...state.ads.adsets.values()].filter((s) => s.campaignId === campaign.id && s.status !== 'DELETED').length || 1;
    return perDay(campaign.dailyBudget, campaign.lifetimeBudget, scheduleDays) / adsets / siblings;
  }
  return perDay(adset.dailyBudget, adset.lifetimeBudget, scheduleDays) / siblings;
}

export function dayNumbers(state: SandboxState, ad: Ad, dayStart: number): DayNumbers | null {
  const now = state.clock.now();
  const share = deliveredMs(ad, dayStart, dayStart + DAY_MS, now) / DAY_MS;
  if (share <= 0) return null;
  const key = `${ad.id}:${dayStart}`;
  const impressions = Math.round((1500 + unit(`${key}:i`) * 6000) * share);
  if (impressions === 0) return null;
  const reach = Math.max(1, Math.round(impressions / (1.1 + unit(`${key}:f`) * 0.5)));
  const clicks = Math.round(impressions * (0.008 + unit(`${key}:c`) * 0.02));
  const cpm = 400 + unit(`${key}:m`) * 1100;
  const spend = Math.round(Math.min((impressions * cpm) / 1000, dailyBudgetShare(state, ad) * 0.95 * share));
  return { impressions, reach, clicks, linkClicks: Math.round(clicks * 0.8), postEngagement: clicks + Math.round(impressions * 0.012), spend };
}

/** Total spend up to now of the ads that match, in minor units. */
export function spentMinor(state: SandboxState, match: (ad: Ad) => boolean): number {
  refreshDelivery(state);
  let total = 0;
  for (const ad of state.ads.ads.values()) {
    if (!match(ad) || !ad.delivery.length) continue;
    const first = Math.floor((ad.delivery[0]?.from ?? 0) / DAY_MS) * DAY_MS;
    for (let day = first; day <= state.clock.now(); day += DAY_MS) total += dayNumbers(state, ad, day)?.spend ?? 0;
  }
  return total;
}
