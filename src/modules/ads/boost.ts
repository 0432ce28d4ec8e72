// POST /ads/boost (contract "Ads"): boosting a published Page post is, in the public Marketing
// API, four objects (platforms.md §9.3): a creative whose object_story_id is the post, an
// engagement campaign, an ad set with the budget, schedule and targeting, and an ad. All are
// created PAUSED and recorded as they are made. If a step after the campaign fails, the campaign
// is deleted again (best effort: deleting a campaign deletes what is under it), so a failed boost
// leaves nothing half-built behind but the creative, which spends nothing; the step's error is
// the answer. The facebook account and the ad account are named, as the contract has them.
import type { Tenant } from '../../db/tenant.ts';
import type { Caller } from '../../http/caller.ts';
import { errors } from '../../http/errors.ts';
import { adAccountScope, adsCall, approvedFor, currencyOf, findAccount, requireConfirm, type AdsDeps } from './access.ts';
import { withAudienceChoice } from './adsets.ts';
import type { Budget } from './campaigns.ts';
import { storyIdOf } from './creatives.ts';
import { checkAmount, toMinor } from './money.ts';
import { recordObjects } from './records.ts';

export interface BoostRequest {
  accountId: string;
  adAccountId: string;
  postId?: string | undefined;
  platformPostId?: string | undefined;
  budget: Budget;
  schedule?: { startTime?: string | undefined; endTime?: string | undefined } | undefined;
  targeting?: Record<string, unknown> | undefined;
  name?: string | undefined;
  confirm?: boolean | undefined;
}

/** Where a boost shows when the request names no audience (documented in docs/architecture/ads-and-analytics.md). */
export const DEFAULT_BOOST_TARGETING = { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 65 };

const timeOf = (value: string | undefined, field: string): number | null => {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw errors.invalid(field, 'not a date-time');
  return ms;
};

async function storyOf(tenant: Tenant, pageId: string, accountId: string, body: BoostRequest): Promise<string> {
  if ((body.postId === undefined) === (body.platformPostId === undefined)) throw errors.invalid('postId', 'give postId or platformPostId');
  if (body.platformPostId !== undefined) return storyIdOf(pageId, body.platformPostId);
  const post = await tenant.selectFrom('posts').select('id').where('id', '=', body.postId ?? '').executeTakeFirst();
  if (!post) throw errors.invalid('postId', 'no such post');
  const target = await tenant
    .selectFrom('post_targets')
    .select('platform_post_id')
    .where('post_id', '=', post.id)
    .where('account_id', '=', accountId)
    .where('status', '=', 'published')
    .where('platform_post_id', 'is not', null)
    .executeTakeFirst();
  if (!target?.platform_post_id) throw errors.invalid('postId', 'not published on this facebook account');
  return storyIdOf(pageId, target.platform_post_id);
}

export async function boostPost(deps: AdsDeps, tenant: Tenant, caller: Caller, body: BoostRequest) {
  requireConfirm(body.confirm, 'boost a post');
  checkAmount(body.budget.amount, 'budget.amount');
  const startTime = timeOf(body.schedule?.startTime, 'schedule.startTime');
  const endTime = timeOf(body.schedule?.endTime, 'schedule.endTime');
  if (body.budget.type === 'lifetime' && endTime === null) throw errors.invalid('schedule.endTime', 'required with a lifetime budget');
  const admit = approvedFor(caller, 'boosting a post');
  const account = await findAccount(tenant, body.accountId);
  const objectStoryId = await storyOf(tenant, account.platform_user_id, account.id, body);
  const scope = await adAccountScope(deps, tenant, body, { admit });
  const currency = await currencyOf(deps, scope);
  const minor = toMinor(body.budget.amount, currency, 'budget.amount');
  const name = body.name ?? `Boost ${objectStoryId}`;
  const record = (platformId: string, kind: 'campaign' | 'adset' | 'creative' | 'ad', parentId: string | null = null) =>
    recordObjects(tenant, deps.clock.now(), [{ platformId, kind, accountId: account.id, adAccountId: scope.adAccountId, parentId, createdHere: true }]);

  // The creative first: it checks the post is a live post of the Page, and spends nothing, so a
  // post that cannot be boosted leaves no campaign behind.
  const creative = await adsCall(deps, account, (ads, credentials) => ads.createCreative(credentials, scope.adAccountId, { kind: 'post', name, objectStoryId }));
  await record(creative.id, 'creative');
  const campaign = await adsCall(deps, account, (ads, credentials) =>
    ads.createCampaign(credentials, scope.adAccountId, { name, objective: 'OUTCOME_ENGAGEMENT', specialAdCategories: [], dailyBudget: null, lifetimeBudget: null }),
  );
  await record(campaign.id, 'campaign');
  try {
    const adSet = await adsCall(deps, account, (ads, credentials) =>
      ads.createAdSet(credentials, scope.adAccountId, {
        campaignId: campaign.id,
        name,
        targeting: withAudienceChoice(body.targeting ?? DEFAULT_BOOST_TARGETING),
        dailyBudget: body.budget.type === 'daily' ? minor : null,
        lifetimeBudget: body.budget.type === 'lifetime' ? minor : null,
        optimizationGoal: 'POST_ENGAGEMENT',
        billingEvent: 'IMPRESSIONS',
        startTime,
        endTime,
        promotedObject: { page_id: account.platform_user_id },
      }),
    );
    await record(adSet.id, 'adset', campaign.id);
    const ad = await adsCall(deps, account, (ads, credentials) => ads.createAd(credentials, scope.adAccountId, { adSetId: adSet.id, creativeId: creative.id, name }));
    await record(ad.id, 'ad', adSet.id);
    return { campaignId: campaign.id, adSetId: adSet.id, creativeId: creative.id, adId: ad.id, adAccountId: scope.adAccountId, objectStoryId, status: 'PAUSED' as const, currency, budget: body.budget };
  } catch (error) {
    await adsCall(deps, account, (ads, credentials) => ads.remove(credentials, campaign.id)).catch(() => undefined);
    throw error;
  }
}
