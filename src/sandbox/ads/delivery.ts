// effective_status of campaigns, ad sets and ads (platforms.md §9.4), and the delivery periods
// insights are computed from: an ad delivers while it and its parents are ACTIVE, it has passed
// review (settings.ads.reviewMs), the ad set's schedule has started and not ended, and the
// account is active. Periods are re-evaluated after every change and when insights are read.
import type { SandboxState } from '../core/state.ts';
import type { Ad, AdSet, Campaign } from './store.ts';

export function campaignEffective(c: Campaign): string {
  return c.status;
}

export function adsetEffective(state: SandboxState, s: AdSet): string {
  const campaign = state.ads.campaigns.get(s.campaignId);
  if (s.status !== 'ACTIVE') return s.status;
  if (campaign && campaign.status !== 'ACTIVE') return campaign.status === 'PAUSED' ? 'CAMPAIGN_PAUSED' : campaign.status;
  return 'ACTIVE';
}

export function adEffective(state: SandboxState, ad: Ad): string {
  const adset = state.ads.adsets.get(ad.adsetId);
  const campaign = state.ads.campaigns.get(ad.campaignId);
  if (ad.status !== 'ACTIVE') return ad.status;
  if (campaign && campaign.status !== 'ACTIVE') return campaign.status === 'PAUSED' ? 'CAMPAIGN_PAUSED' : campaign.status;
  if (adset && adset.status !== 'ACTIVE') return adset.status === 'PAUSED' ? 'ADSET_PAUSED' : adset.status;
  if (ad.activatedAt !== null && state.clock.now() < ad.activatedAt + state.settings.ads.reviewMs) return 'PENDING_REVIEW';
  return 'ACTIVE';
}

function delivering(state: SandboxState, ad: Ad, now: number): boolean {
  const adset = state.ads.adsets.get(ad.adsetId);
  const account = state.ads.accounts.get(ad.accountId);
  if (!adset || account?.accountStatus !== 1 || adEffective(state, ad) !== 'ACTIVE') return false;
  return adset.startTime <= now && (adset.endTime === null || adset.endTime > now);
}

/** Opens or closes each ad's current delivery period; call after any change of status or time. */
export function refreshDelivery(state: SandboxState): void {
  const now = state.clock.now();
  for (const ad of state.ads.ads.values()) {
    const open = ad.delivery.at(-1)?.to === null ? ad.delivery.at(-1) : undefined;
    const on = delivering(state, ad, now);
    if (on && !open) {
      // Delivery began at the latest of: review over, schedule start, the last change of the ad
      // or its parents (a status change is what turned it on, unless time did).
      const adset = state.ads.adsets.get(ad.adsetId);
      const campaign = state.ads.campaigns.get(ad.campaignId);
      const reviewed = (ad.activatedAt ?? now) + state.settings.ads.reviewMs;
      ad.delivery.push({ from: Math.max(reviewed, adset?.startTime ?? now, ad.updatedAt, adset?.updatedAt ?? 0, campaign?.updatedAt ?? 0), to: null });
    } else if (!on && open) {
      const adset = state.ads.adsets.get(ad.adsetId);
      open.to = adset?.endTime !== null && adset?.endTime !== undefined && adset.endTime < now ? adset.endTime : now;
    }
  }
}

/** Milliseconds of delivery of an ad inside [from, to). */
export function deliveredMs(ad: Ad, from: number, to: number, now: number): number {
  let total = 0;
  for (const period of ad.delivery) {
    const start = Math.max(period.from, from);
    const end = Math.min(period.to ?? now, to);
    if (end > start) total += end - start;
  }
  return total;
}
