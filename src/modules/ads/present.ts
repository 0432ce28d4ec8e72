// Platform ad objects as the API shows them: money as decimals of the ad account's currency,
// times as ISO 8601, the facebook account it was read through beside Meta's ids.
import type { PlatformAd, PlatformAdAccount, PlatformAdSet, PlatformAudience, PlatformCampaign, PlatformCreative } from '../../platforms/types.ts';
import { currencyOffset, fromMinor } from './money.ts';
import type { AdAccountView, AdSetView, AdView, AudienceView, CampaignView, CreativeView } from './schemas.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const presentAdAccount = (a: PlatformAdAccount, accountId: string): AdAccountView => ({
  id: a.id,
  accountId,
  name: a.name,
  currency: a.currency,
  currencyOffset: currencyOffset(a.currency),
  accountStatus: a.accountStatus,
  timezone: a.timezone,
  amountSpent: fromMinor(a.amountSpent, a.currency),
});

export const presentCampaign = (c: PlatformCampaign, accountId: string, currency: string): CampaignView => ({
  id: c.id,
  accountId,
  adAccountId: c.adAccountId,
  name: c.name,
  objective: c.objective,
  status: c.status,
  effectiveStatus: c.effectiveStatus,
  currency,
  dailyBudget: fromMinor(c.dailyBudget, currency),
  lifetimeBudget: fromMinor(c.lifetimeBudget, currency),
  createdAt: iso(c.createdAt),
});

export const presentAdSet = (s: PlatformAdSet, accountId: string, currency: string): AdSetView => ({
  id: s.id,
  accountId,
  adAccountId: s.adAccountId,
  name: s.name,
  campaignId: s.campaignId,
  status: s.status,
  effectiveStatus: s.effectiveStatus,
  currency,
  dailyBudget: fromMinor(s.dailyBudget, currency),
  lifetimeBudget: fromMinor(s.lifetimeBudget, currency),
  optimizationGoal: s.optimizationGoal,
  billingEvent: s.billingEvent,
  targeting: s.targeting,
  startTime: iso(s.startTime),
  endTime: iso(s.endTime),
});

export const presentCreative = (c: PlatformCreative, accountId: string): CreativeView => ({
  id: c.id,
  accountId,
  adAccountId: c.adAccountId,
  name: c.name,
  objectStoryId: c.objectStoryId,
  instagramMediaId: c.instagramMediaId,
  link: c.link,
  callToActionType: c.callToActionType,
});

export const presentAd = (a: PlatformAd, accountId: string): AdView => ({
  id: a.id,
  accountId,
  adAccountId: a.adAccountId,
  name: a.name,
  campaignId: a.campaignId,
  adSetId: a.adSetId,
  creativeId: a.creativeId,
  status: a.status,
  effectiveStatus: a.effectiveStatus,
});

export const presentAudience = (a: PlatformAudience, accountId: string): AudienceView => ({
  id: a.id,
  accountId,
  adAccountId: a.adAccountId,
  name: a.name,
  description: a.description,
  subtype: a.subtype,
  approximateCountLower: a.approximateCountLower,
  approximateCountUpper: a.approximateCountUpper,
  deliveryStatus: a.deliveryStatus,
});
