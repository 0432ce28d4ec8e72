// Ads objects as the API shows them and the pieces of their requests (contract "Ads", DESIGN
// "Ads"). Money is a decimal in the ad account's currency (`currency` beside it); ids are Meta's
// (numeric; ad accounts `act_…`), checked by pattern so that no other text reaches a Graph path.
import { Type, type Static } from 'typebox';
import { NullableTimestamp } from '../../http/schemas.ts';

const NullableString = (description?: string) => Type.Union([Type.String(), Type.Null()], description ? { description } : {});
const NullableNumber = (description?: string) => Type.Union([Type.Number(), Type.Null()], description ? { description } : {});

export const AdObjectId = Type.String({ pattern: '^[0-9]{1,30}$', description: "Meta's id of the object." });
export const AdAccountIdField = Type.String({ pattern: '^(act_)?[0-9]{1,30}$', description: 'The ad account (`act_…`). Where it is optional, leaving it out uses the organization\'s only ad account.' });
export const AccountIdField = Type.String({ minLength: 1, maxLength: 100, description: 'The connected facebook account acting; an unknown or foreign account is 404.' });
export const Confirm = Type.Boolean({ description: 'Must be true: nothing is created (or activated) without it.' });
export const Money = Type.Number({ exclusiveMinimum: 0, maximum: 1e12, description: "A decimal amount in the ad account's currency (12.5 = 12.50 USD); sent in minor units." });
export const BudgetInput = Type.Object({ amount: Money, type: Type.Union([Type.Literal('daily'), Type.Literal('lifetime')]) });
export const TargetingSpec = Type.Record(Type.String(), Type.Unknown(), {
  description: "Meta's targeting spec as the Marketing API takes it: geo_locations, age_min, age_max, genders, flexible_spec (interests from GET /ads/targeting/search), custom_audiences …",
});
// A path id is looked up in the organization's records before anything else (404 when absent, like
// every id in a path), so only ids the platform gave ever reach a Graph path.
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "Meta's id of the object." }) });
export const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Items per page (25 when absent).' });
export const After = Type.String({ minLength: 1, maxLength: 2000, description: 'The `after` of the previous page.' });
export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: "The next page's cursor; null on the last page." });

export const AdAccount = Type.Object(
  {
    id: Type.String({ description: '`act_…`' }),
    accountId: Type.String({ description: 'The connected facebook account it was read through.' }),
    name: NullableString(),
    currency: Type.String(),
    currencyOffset: Type.Integer({ description: 'Minor units per unit of the currency (100, or 1 for currencies such as JPY).' }),
    accountStatus: Type.Union([Type.Integer(), Type.Null()], { description: "Meta's account_status: 1 active, 2 disabled, 3 unsettled, 101 closed …" }),
    timezone: NullableString(),
    amountSpent: NullableNumber('Spent so far, in the currency.'),
  },
  { $id: 'AdAccount', title: 'AdAccount' },
);
export type AdAccountView = Static<typeof AdAccount>;

const common = {
  id: Type.String(),
  accountId: Type.String(),
  adAccountId: Type.String(),
  name: NullableString(),
};
const statuses = {
  status: NullableString('Configured status: ACTIVE, PAUSED, ARCHIVED, DELETED.'),
  effectiveStatus: NullableString('What delivers: ACTIVE, PAUSED, CAMPAIGN_PAUSED, ADSET_PAUSED, PENDING_REVIEW …'),
};
const budgets = {
  currency: Type.String(),
  dailyBudget: NullableNumber(),
  lifetimeBudget: NullableNumber(),
};

export const AdCampaign = Type.Object(
  { ...common, objective: NullableString(), ...statuses, ...budgets, createdAt: NullableTimestamp() },
  { $id: 'AdCampaign', title: 'AdCampaign' },
);
export type CampaignView = Static<typeof AdCampaign>;

export const AdSet = Type.Object(
  {
    ...common,
    campaignId: NullableString(),
    ...statuses,
    ...budgets,
    optimizationGoal: NullableString(),
    billingEvent: NullableString(),
    targeting: Type.Union([TargetingSpec, Type.Null()]),
    startTime: NullableTimestamp(),
    endTime: NullableTimestamp(),
  },
  { $id: 'AdSet', title: 'AdSet' },
);
export type AdSetView = Static<typeof AdSet>;

export const AdCreative = Type.Object(
  {
    ...common,
    objectStoryId: NullableString('The boosted Page post ({page-id}_{post-id}).'),
    instagramMediaId: NullableString(),
    link: NullableString(),
    callToActionType: NullableString(),
  },
  { $id: 'AdCreative', title: 'AdCreative' },
);
export type CreativeView = Static<typeof AdCreative>;

export const Ad = Type.Object(
  { ...common, campaignId: NullableString(), adSetId: NullableString(), creativeId: NullableString(), ...statuses },
  { $id: 'Ad', title: 'Ad' },
);
export type AdView = Static<typeof Ad>;

export const AdAudience = Type.Object(
  {
    ...common,
    description: NullableString(),
    subtype: NullableString(),
    approximateCountLower: NullableNumber('-1 while the audience is too small to show a count.'),
    approximateCountUpper: NullableNumber(),
    deliveryStatus: NullableString(),
  },
  { $id: 'AdAudience', title: 'AdAudience' },
);
export type AudienceView = Static<typeof AdAudience>;

export const adSchemas = [AdAccount, AdCampaign, AdSet, AdCreative, Ad, AdAudience];
