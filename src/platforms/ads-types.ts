// The ads capability (contract "Ads", DESIGN "Ads"): the Marketing API through a connected
// facebook account. It acts with the Facebook user token the account was connected with (a Page
// token cannot manage ad accounts). Money crosses this interface in minor units of the ad
// account's currency (the service converts decimals with the currency's offset); objects are
// always created PAUSED by the adapter itself, so no caller can create a running ad by mistake.
// Audience members cross it only as SHA-256 hex of normalised values.
// Like every capability: pure platform knowledge, PlatformError from its error table, no retries.
// Re-exported by types.ts.

/** The Facebook user token the ads calls are made with. */
export interface AdsCredentials {
  accessToken: string;
}

export type AdObjectKind = 'ad_account' | 'campaign' | 'adset' | 'creative' | 'ad' | 'audience';

export interface PlatformAdAccount {
  /** `act_{id}` */
  id: string;
  name: string | null;
  /** ISO 4217, as the ad account has it. */
  currency: string;
  /** 1 ACTIVE, 2 DISABLED, 3 UNSETTLED, 101 CLOSED … */
  accountStatus: number | null;
  timezone: string | null;
  /** Minor units of the currency. */
  amountSpent: number | null;
}

export interface PlatformCampaign {
  id: string;
  adAccountId: string;
  name: string | null;
  objective: string | null;
  status: string | null;
  effectiveStatus: string | null;
  /** Minor units; null without a campaign budget. */
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  createdAt: number | null;
}

export interface PlatformAdSet {
  id: string;
  adAccountId: string;
  campaignId: string | null;
  name: string | null;
  status: string | null;
  effectiveStatus: string | null;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  optimizationGoal: string | null;
  billingEvent: string | null;
  targeting: Record<string, unknown> | null;
  startTime: number | null;
  endTime: number | null;
}

export interface PlatformCreative {
  id: string;
  adAccountId: string;
  name: string | null;
  objectStoryId: string | null;
  instagramMediaId: string | null;
  link: string | null;
  callToActionType: string | null;
}

export interface PlatformAd {
  id: string;
  adAccountId: string;
  campaignId: string | null;
  adSetId: string | null;
  creativeId: string | null;
  name: string | null;
  status: string | null;
  effectiveStatus: string | null;
}

export interface PlatformAudience {
  id: string;
  adAccountId: string;
  name: string | null;
  description: string | null;
  subtype: string | null;
  /** -1 when the platform shows no count (fewer than about 1000 people). */
  approximateCountLower: number | null;
  approximateCountUpper: number | null;
  deliveryStatus: string | null;
}

export interface AdPage<T> {
  items: T[];
  /** The platform's cursor of the next page; null on the last one. */
  after: string | null;
}

export interface AdListRequest {
  limit: number;
  after: string | null;
  /** effective_status filter; empty: the platform's default (not deleted or archived). */
  statuses: string[];
}

export interface CampaignInput {
  name: string;
  /** ODAX objective (OUTCOME_…). */
  objective: string;
  specialAdCategories: string[];
  dailyBudget: number | null;
  lifetimeBudget: number | null;
}

export interface AdSetInput {
  campaignId: string;
  name: string;
  targeting: Record<string, unknown>;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  optimizationGoal: string;
  billingEvent: string;
  /** Epoch milliseconds. */
  startTime: number | null;
  endTime: number | null;
  promotedObject: Record<string, unknown> | null;
}

export type CreativeInput =
  | { kind: 'post'; name: string; objectStoryId: string }
  | { kind: 'instagram'; name: string; instagramMediaId: string; instagramUserId: string; callToAction: CallToAction | null }
  | { kind: 'link'; name: string; pageId: string; link: string; message: string; imageUrl: string; headline: string | null; callToAction: CallToAction | null };

export interface CallToAction {
  type: string;
  link: string | null;
}

export interface AdInput {
  adSetId: string;
  creativeId: string;
  name: string;
}

/** A change to an existing object; absent members stay as they are. */
export interface AdObjectChange {
  name?: string;
  status?: 'ACTIVE' | 'PAUSED' | 'ARCHIVED';
  dailyBudget?: number;
  lifetimeBudget?: number;
  endTime?: number;
}

export type AudienceSchema = 'EMAIL_SHA256' | 'PHONE_SHA256';

export interface AudienceUpload {
  received: number;
  invalid: number;
}

export interface InsightsRequest {
  datePreset: string | null;
  since: string | null;
  until: string | null;
  level: string | null;
  breakdowns: string[];
  timeIncrement: string | null;
}

/** One insights row as the platform gives it (numbers are strings there), with dates. */
export type InsightsRow = Record<string, unknown>;

export interface TargetingSearch {
  type: string;
  q: string;
  limit: number;
  /** adgeolocation: country, region, city, zip …; empty: all. */
  locationTypes: string[];
  /** adTargetingCategory: behaviors, demographics …; null: Meta's default. */
  targetingClass: string | null;
}

export interface AdsCapability {
  /** The ad accounts the person behind the token can use. */
  adAccounts(credentials: AdsCredentials): Promise<PlatformAdAccount[]>;
  adAccount(credentials: AdsCredentials, adAccountId: string): Promise<PlatformAdAccount>;

  campaigns(credentials: AdsCredentials, adAccountId: string, page: AdListRequest): Promise<AdPage<PlatformCampaign>>;
  campaign(credentials: AdsCredentials, id: string): Promise<PlatformCampaign>;
  createCampaign(credentials: AdsCredentials, adAccountId: string, input: CampaignInput): Promise<{ id: string }>;

  adSets(credentials: AdsCredentials, parent: { adAccountId: string } | { campaignId: string }, page: AdListRequest): Promise<AdPage<PlatformAdSet>>;
  adSet(credentials: AdsCredentials, id: string): Promise<PlatformAdSet>;
  createAdSet(credentials: AdsCredentials, adAccountId: string, input: AdSetInput): Promise<{ id: string }>;

  creatives(credentials: AdsCredentials, adAccountId: string, page: AdListRequest): Promise<AdPage<PlatformCreative>>;
  creative(credentials: AdsCredentials, id: string): Promise<PlatformCreative>;
  createCreative(credentials: AdsCredentials, adAccountId: string, input: CreativeInput): Promise<{ id: string }>;

  ads(credentials: AdsCredentials, parent: { adAccountId: string } | { adSetId: string }, page: AdListRequest): Promise<AdPage<PlatformAd>>;
  ad(credentials: AdsCredentials, id: string): Promise<PlatformAd>;
  createAd(credentials: AdsCredentials, adAccountId: string, input: AdInput): Promise<{ id: string }>;

  /** Updates a campaign, ad set or ad. */
  update(credentials: AdsCredentials, id: string, change: AdObjectChange): Promise<void>;
  /** Deletes a campaign, ad set, ad or audience. */
  remove(credentials: AdsCredentials, id: string): Promise<void>;

  audiences(credentials: AdsCredentials, adAccountId: string, page: AdListRequest): Promise<AdPage<PlatformAudience>>;
  audience(credentials: AdsCredentials, id: string): Promise<PlatformAudience>;
  /** A customer-list audience. */
  createAudience(credentials: AdsCredentials, adAccountId: string, input: { name: string; description: string | null }): Promise<{ id: string }>;
  /** Adds members given as SHA-256 hex of normalised values, at most 10,000 per call. */
  addAudienceMembers(credentials: AdsCredentials, audienceId: string, schema: AudienceSchema, hashes: string[]): Promise<AudienceUpload>;

  insights(credentials: AdsCredentials, objectId: string, request: InsightsRequest): Promise<InsightsRow[]>;
  searchTargeting(credentials: AdsCredentials, search: TargetingSearch): Promise<Array<Record<string, unknown>>>;
}
