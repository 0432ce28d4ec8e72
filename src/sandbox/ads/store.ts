// Marketing API state (platforms.md §9): ad accounts of Facebook users, and the campaign → ad
// set → ad tree with creatives and custom audiences. Budgets are integers in minor units of the
// account's currency (§9.2). Delivery is tracked as intervals in which an ad was effectively
// ACTIVE, so insights are deterministic numbers for the days it ran.
export type ConfiguredStatus = 'ACTIVE' | 'PAUSED' | 'ARCHIVED' | 'DELETED';

export interface AdAccount {
  /** `act_{accountId}` */
  id: string;
  accountId: string;
  ownerUserId: string;
  name: string;
  currency: string;
  /** 1 ACTIVE, 2 DISABLED, 3 UNSETTLED, 7 PENDING_RISK_REVIEW, 9 IN_GRACE_PERIOD, 101 CLOSED … */
  accountStatus: number;
  timezoneName: string;
  businessName: string;
  spendCap: number | null;
  /** Calls counted for X-Ad-Account-Usage (sandbox ms). */
  calls: number[];
}

export interface Campaign {
  id: string;
  accountId: string;
  name: string;
  objective: string;
  status: ConfiguredStatus;
  specialAdCategories: string[];
  buyingType: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  bidStrategy: string | null;
  spendCap: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface AdSet {
  id: string;
  accountId: string;
  campaignId: string;
  name: string;
  status: ConfiguredStatus;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  billingEvent: string;
  optimizationGoal: string;
  bidAmount: number | null;
  bidStrategy: string | null;
  startTime: number;
  endTime: number | null;
  targeting: Record<string, unknown>;
  promotedObject: Record<string, unknown> | null;
  destinationType: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface AdCreative {
  id: string;
  accountId: string;
  name: string;
  objectStoryId: string | null;
  objectStorySpec: Record<string, unknown> | null;
  sourceInstagramMediaId: string | null;
  instagramUserId: string | null;
  callToAction: Record<string, unknown> | null;
  urlTags: string | null;
  createdAt: number;
}

export interface Ad {
  id: string;
  accountId: string;
  campaignId: string;
  adsetId: string;
  creativeId: string;
  name: string;
  status: ConfiguredStatus;
  createdAt: number;
  updatedAt: number;
  /** When it was (re)activated; review lasts `settings.ads.reviewMs` from here. */
  activatedAt: number | null;
  /** Periods of effective delivery (sandbox ms); the last may be open. */
  delivery: Array<{ from: number; to: number | null }>;
}

export interface CustomAudience {
  id: string;
  accountId: string;
  name: string;
  description: string;
  subtype: string;
  customerFileSource: string | null;
  /** Hashed identifiers (or MADIDs) received. */
  members: Set<string>;
  createdAt: number;
  deleted: boolean;
}

export class AdsStore {
  readonly accounts = new Map<string, AdAccount>();
  readonly campaigns = new Map<string, Campaign>();
  readonly adsets = new Map<string, AdSet>();
  readonly creatives = new Map<string, AdCreative>();
  readonly ads = new Map<string, Ad>();
  readonly audiences = new Map<string, CustomAudience>();

  accountsOf(userId: string): AdAccount[] {
    return [...this.accounts.values()].filter((a) => a.ownerUserId === userId);
  }
}
