// Creating the ad objects on an ad account (platforms.md §9.1–9.4): campaigns, ad sets, ad
// creatives and ads, each answering `{"id"}`. Created ACTIVE unless `status=PAUSED` is asked
// (the service always asks PAUSED first). Boosting a Page post is the four steps with a
// creative whose `object_story_id` is `{page-id}_{post-id}`; there is no one-call shortcut in
// the public Marketing API, so the sandbox has none.
import type { RouteContext } from '../core/router.ts';
import { graphError } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { refreshDelivery } from './delivery.ts';
import type { Ad, AdAccount, AdCreative, AdSet, Campaign, ConfiguredStatus } from './store.ts';
import { adsInvalid, BID_STRATEGIES, BILLING_EVENTS, budget, checkBilling, checkGoal, GOALS_BY_OBJECTIVE, OBJECTIVES, oneOf, requireParam, scalar, SPECIAL_CATEGORIES, time } from './rules.ts';
import { parseTargeting } from './targeting.ts';
import { list } from '../meta/params.ts';

type Json = Record<string, unknown>;
const STATUSES = ['ACTIVE', 'PAUSED'];

const json = (input: GraphInput, key: string): Json | null => {
  const value = input[key];
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  if (typeof value !== 'string') return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Json) : null;
  } catch {
    throw graphError({ code: 100, message: `(#100) Param ${key} must be a JSON object` });
  }
};

export function createCampaign(ctx: RouteContext, input: GraphInput, account: AdAccount): unknown {
  const state = ctx.state;
  const name = requireParam(input, 'name');
  const objective = requireParam(input, 'objective');
  if (!OBJECTIVES.includes(objective)) {
    throw adsInvalid('Invalid objective', `Objective ${objective} is not available for new campaigns. Use one of: ${OBJECTIVES.join(', ')}.`);
  }
  const categories = list(input, 'special_ad_categories');
  if (!categories) throw adsInvalid('Special ad categories required', 'special_ad_categories is required: [] or ["NONE"] when the ads are in no special category.');
  for (const c of categories) if (!SPECIAL_CATEGORIES.includes(c)) throw graphError({ code: 100, message: `(#100) Param special_ad_categories[] must be one of {${SPECIAL_CATEGORIES.join(', ')}}` });
  const daily = budget(input, 'daily_budget', state.settings.ads.minDailyBudget, account.currency);
  const lifetime = budget(input, 'lifetime_budget', state.settings.ads.minDailyBudget, account.currency);
  if (daily !== null && lifetime !== null) throw adsInvalid('Only one budget', 'Set either daily_budget or lifetime_budget, not both.');
  const now = state.clock.now();
  const campaign: Campaign = {
    id: state.ids.numeric('ad-campaign', '120', 18),
    accountId: account.id,
    name,
    objective,
    status: oneOf(input, 'status', STATUSES, 'ACTIVE') as ConfiguredStatus,
    specialAdCategories: categories.filter((c) => c !== 'NONE'),
    buyingType: oneOf(input, 'buying_type', ['AUCTION', 'RESERVED'], 'AUCTION'),
    dailyBudget: daily,
    lifetimeBudget: lifetime,
    bidStrategy: daily !== null || lifetime !== null ? oneOf(input, 'bid_strategy', BID_STRATEGIES, 'LOWEST_COST_WITHOUT_CAP') : null,
    spendCap: str(input, 'spend_cap') ? Number(str(input, 'spend_cap')) : null,
    createdAt: now,
    updatedAt: now,
  };
  state.ads.campaigns.set(campaign.id, campaign);
  return { id: campaign.id };
}

export function createAdSet(ctx: RouteContext, input: GraphInput, account: AdAccount): unknown {
  const state = ctx.state;
  const name = requireParam(input, 'name');
  const campaignId = requireParam(input, 'campaign_id');
  const campaign = state.ads.campaigns.get(campaignId);
  if (!campaign || campaign.accountId !== account.id || campaign.status === 'DELETED') throw adsInvalid('Invalid campaign', `Campaign ${campaignId} does not exist in this ad account.`);
  const hasCampaignBudget = campaign.dailyBudget !== null || campaign.lifetimeBudget !== null;
  const min = state.settings.ads.minDailyBudget;
  const daily = budget(input, 'daily_budget', min, account.currency);
  const lifetime = budget(input, 'lifetime_budget', min, account.currency);
  if (hasCampaignBudget && (daily !== null || lifetime !== null)) throw adsInvalid('Budget set at campaign level', 'This campaign uses a campaign budget: ad sets may not set their own.');
  if (!hasCampaignBudget && daily === null && lifetime === null) throw adsInvalid('Budget required', 'Set daily_budget or lifetime_budget (minor units) on the ad set, or a campaign budget.');
  if (daily !== null && lifetime !== null) throw adsInvalid('Only one budget', 'Set either daily_budget or lifetime_budget, not both.');
  const goal = oneOf(input, 'optimization_goal', Object.values(GOALS_BY_OBJECTIVE).flat().concat(['NONE']).filter((g, i, all) => all.indexOf(g) === i));
  checkGoal(campaign.objective, goal);
  const billing = oneOf(input, 'billing_event', BILLING_EVENTS);
  checkBilling(goal, billing);
  const bidStrategy = str(input, 'bid_strategy') ? oneOf(input, 'bid_strategy', BID_STRATEGIES) : campaign.bidStrategy;
  const bidAmount = str(input, 'bid_amount') ? Number(str(input, 'bid_amount')) : null;
  if ((bidStrategy === 'LOWEST_COST_WITH_BID_CAP' || bidStrategy === 'COST_CAP') && bidAmount === null) throw adsInvalid('Bid amount required', `bid_amount is required with ${bidStrategy}.`);
  const now = state.clock.now();
  const startTime = time(input, 'start_time') ?? now;
  const endTime = time(input, 'end_time') ?? null;
  if (lifetime !== null && endTime === null) throw adsInvalid('End time required', 'An ad set with a lifetime_budget needs an end_time.');
  if (endTime !== null && (endTime <= startTime || endTime <= now)) throw adsInvalid('Invalid end time', 'end_time must be after start_time and in the future.');
  const targeting = parseTargeting(state, account.id, input.targeting, state.settings.ads.requireAdvantageAudienceFlag);
  const adset: AdSet = {
    id: state.ids.numeric('ad-adset', '120', 18),
    accountId: account.id,
    campaignId,
    name,
    status: oneOf(input, 'status', STATUSES, 'ACTIVE') as ConfiguredStatus,
    dailyBudget: daily,
    lifetimeBudget: lifetime,
    billingEvent: billing,
    optimizationGoal: goal,
    bidAmount,
    bidStrategy,
    startTime,
    endTime,
    targeting,
    promotedObject: json(input, 'promoted_object'),
    destinationType: str(input, 'destination_type') ?? null,
    createdAt: now,
    updatedAt: now,
  };
  state.ads.adsets.set(adset.id, adset);
  return { id: adset.id };
}

export function createCreative(ctx: RouteContext, input: GraphInput, account: AdAccount): unknown {
  const state = ctx.state;
  const objectStoryId = str(input, 'object_story_id') ?? null;
  const spec = json(input, 'object_story_spec');
  const igMedia = str(input, 'source_instagram_media_id') ?? null;
  if (!objectStoryId && !spec && !igMedia) throw adsInvalid('Creative is empty', 'Give object_story_id, object_story_spec or source_instagram_media_id.');
  if (objectStoryId) {
    const [pageId = '', postId = ''] = objectStoryId.split('_');
    if (!postId || !state.people.pages.has(pageId)) throw adsInvalid('Invalid object_story_id', `${objectStoryId} is not a post of a Page ({page-id}_{post-id}).`);
    // Boosting needs a live post of that Page: a deleted, scheduled or unknown one is refused.
    const post = state.meta.fbPosts.get(objectStoryId);
    if (!post || post.pageId !== pageId || !post.published) throw adsInvalid('Post not available', `The post ${objectStoryId} does not exist or is not published, so it cannot be used in an ad.`);
  }
  if (spec) {
    const pageId = typeof spec.page_id === 'string' ? spec.page_id : '';
    if (!state.people.pages.has(pageId)) throw adsInvalid('Invalid Page', 'object_story_spec.page_id must be a Page.');
    const link = spec.link_data as Json | undefined;
    if (link && (typeof link.link !== 'string' || !/^https?:\/\//.test(link.link))) throw adsInvalid('Invalid link', 'object_story_spec.link_data.link must be an http(s) URL.');
  }
  if (igMedia && !str(input, 'instagram_user_id')) throw adsInvalid('Instagram account required', 'source_instagram_media_id needs instagram_user_id.');
  const creative: AdCreative = {
    id: state.ids.numeric('ad-creative', '120', 18),
    accountId: account.id,
    name: str(input, 'name') ?? `Creative ${state.ads.creatives.size + 1}`,
    objectStoryId,
    objectStorySpec: spec,
    sourceInstagramMediaId: igMedia,
    instagramUserId: str(input, 'instagram_user_id') ?? null,
    callToAction: json(input, 'call_to_action'),
    urlTags: str(input, 'url_tags') ?? null,
    createdAt: state.clock.now(),
  };
  state.ads.creatives.set(creative.id, creative);
  return { id: creative.id };
}

export function createAd(ctx: RouteContext, input: GraphInput, account: AdAccount): unknown {
  const state = ctx.state;
  const name = requireParam(input, 'name');
  const adsetId = requireParam(input, 'adset_id');
  const adset = state.ads.adsets.get(adsetId);
  if (!adset || adset.accountId !== account.id || adset.status === 'DELETED') throw adsInvalid('Invalid ad set', `Ad set ${adsetId} does not exist in this ad account.`);
  const creativeId = scalar(json(input, 'creative')?.creative_id);
  if (!creativeId) throw graphError({ code: 100, message: '(#100) The parameter creative is required' });
  if (state.ads.creatives.get(creativeId)?.accountId !== account.id) throw adsInvalid('Invalid creative', `Creative ${creativeId} does not exist in this ad account.`);
  const now = state.clock.now();
  const status = oneOf(input, 'status', STATUSES, 'ACTIVE') as ConfiguredStatus;
  const ad: Ad = { id: state.ids.numeric('ad-ad', '120', 18), accountId: account.id, campaignId: adset.campaignId, adsetId, creativeId, name, status, createdAt: now, updatedAt: now, activatedAt: status === 'ACTIVE' ? now : null, delivery: [] };
  state.ads.ads.set(ad.id, ad);
  refreshDelivery(state);
  return { id: ad.id };
}
