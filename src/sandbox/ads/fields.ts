// The readable fields of ad objects (platforms.md §9.1–9.4), as Graph field getters. Budgets
// and amounts are strings of minor units, times are Graph's `2025-01-01T10:00:00+0000`.
import type { SandboxState } from '../core/state.ts';
import { adEffective, adsetEffective, campaignEffective } from './delivery.ts';
import type { Ad, AdAccount, AdCreative, AdSet, Campaign } from './store.ts';
import { spentMinor } from './metrics.ts';

export const graphTime = (ms: number | null): string | undefined => (ms === null ? undefined : new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000'));
const minor = (n: number | null): string | undefined => (n === null ? undefined : String(n));
const numericId = (accountId: string) => accountId.replace(/^act_/, '');

export function accountFields(state: SandboxState, a: AdAccount) {
  return {
    id: () => a.id,
    account_id: () => a.accountId,
    name: () => a.name,
    currency: () => a.currency,
    account_status: () => a.accountStatus,
    disable_reason: () => (a.accountStatus === 2 ? 1 : 0),
    timezone_name: () => a.timezoneName,
    timezone_offset_hours_utc: () => 0,
    amount_spent: () => String(spentMinor(state, (ad) => ad.accountId === a.id)),
    spend_cap: () => (a.spendCap === null ? '0' : String(a.spendCap)),
    balance: () => '0',
    business_name: () => a.businessName,
    min_daily_budget: () => state.settings.ads.minDailyBudget,
    owner: () => a.ownerUserId,
  };
}

export function campaignFields(state: SandboxState, c: Campaign) {
  return {
    id: () => c.id,
    account_id: () => numericId(c.accountId),
    name: () => c.name,
    objective: () => c.objective,
    status: () => c.status,
    configured_status: () => c.status,
    effective_status: () => campaignEffective(c),
    special_ad_categories: () => c.specialAdCategories,
    buying_type: () => c.buyingType,
    daily_budget: () => minor(c.dailyBudget),
    lifetime_budget: () => minor(c.lifetimeBudget),
    bid_strategy: () => c.bidStrategy ?? undefined,
    spend_cap: () => minor(c.spendCap),
    created_time: () => graphTime(c.createdAt),
    updated_time: () => graphTime(c.updatedAt),
    start_time: () => graphTime(c.createdAt),
    budget_remaining: () => String(Math.max(0, (c.lifetimeBudget ?? c.dailyBudget ?? 0) - spentMinor(state, (ad) => ad.campaignId === c.id))),
  };
}

export function adsetFields(state: SandboxState, s: AdSet) {
  return {
    id: () => s.id,
    account_id: () => numericId(s.accountId),
    campaign_id: () => s.campaignId,
    campaign: () => ({ id: s.campaignId }),
    name: () => s.name,
    status: () => s.status,
    configured_status: () => s.status,
    effective_status: () => adsetEffective(state, s),
    daily_budget: () => minor(s.dailyBudget),
    lifetime_budget: () => minor(s.lifetimeBudget),
    billing_event: () => s.billingEvent,
    optimization_goal: () => s.optimizationGoal,
    bid_amount: () => s.bidAmount ?? undefined,
    bid_strategy: () => s.bidStrategy ?? undefined,
    start_time: () => graphTime(s.startTime),
    end_time: () => graphTime(s.endTime),
    targeting: () => s.targeting,
    promoted_object: () => s.promotedObject ?? undefined,
    destination_type: () => s.destinationType ?? undefined,
    created_time: () => graphTime(s.createdAt),
    updated_time: () => graphTime(s.updatedAt),
  };
}

export function creativeFields(c: AdCreative) {
  return {
    id: () => c.id,
    account_id: () => numericId(c.accountId),
    name: () => c.name,
    status: () => 'ACTIVE',
    object_story_id: () => c.objectStoryId ?? undefined,
    effective_object_story_id: () => c.objectStoryId ?? undefined,
    object_story_spec: () => c.objectStorySpec ?? undefined,
    source_instagram_media_id: () => c.sourceInstagramMediaId ?? undefined,
    instagram_user_id: () => c.instagramUserId ?? undefined,
    call_to_action_type: () => (typeof c.callToAction?.type === 'string' ? c.callToAction.type : undefined),
    url_tags: () => c.urlTags ?? undefined,
  };
}

export function adFields(state: SandboxState, ad: Ad) {
  return {
    id: () => ad.id,
    account_id: () => numericId(ad.accountId),
    campaign_id: () => ad.campaignId,
    adset_id: () => ad.adsetId,
    name: () => ad.name,
    status: () => ad.status,
    configured_status: () => ad.status,
    effective_status: () => adEffective(state, ad),
    creative: () => ({ id: ad.creativeId }),
    created_time: () => graphTime(ad.createdAt),
    updated_time: () => graphTime(ad.updatedAt),
    ad_review_feedback: () => ({}),
    issues_info: () => [],
  };
}
