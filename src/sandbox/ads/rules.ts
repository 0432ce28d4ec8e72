// Validation of campaigns and ad sets (platforms.md §9.1–9.2, §9.8): errors are code 100 with
// `error_user_title`/`error_user_msg`, the shape Marketing API validation errors take. Which
// optimization goals each ODAX objective allows, and which billing events each goal allows,
// follow Meta's validation tables as best known (unconfirmed in detail; see docs/adr/0027-sandbox-oauth-and-shape.md).
import { graphError } from '../meta/graph-error.ts';
import type { PlatformError } from '../core/platform-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { currencyOffset } from './catalog.ts';

export const OBJECTIVES = ['OUTCOME_AWARENESS', 'OUTCOME_TRAFFIC', 'OUTCOME_ENGAGEMENT', 'OUTCOME_LEADS', 'OUTCOME_APP_PROMOTION', 'OUTCOME_SALES'];
export const SPECIAL_CATEGORIES = ['NONE', 'EMPLOYMENT', 'HOUSING', 'CREDIT', 'FINANCIAL_PRODUCTS_SERVICES', 'ISSUES_ELECTIONS_POLITICS', 'ONLINE_GAMBLING_AND_GAMING'];
export const BID_STRATEGIES = ['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'];
export const BILLING_EVENTS = ['IMPRESSIONS', 'LINK_CLICKS', 'CLICKS', 'THRUPLAY', 'POST_ENGAGEMENT', 'PAGE_LIKES', 'APP_INSTALLS', 'PURCHASE', 'LISTING_INTERACTION', 'OFFER_CLAIMS', 'NONE'];

/** Optimization goals each objective accepts. */
export const GOALS_BY_OBJECTIVE: Record<string, string[]> = {
  OUTCOME_AWARENESS: ['REACH', 'IMPRESSIONS', 'AD_RECALL_LIFT', 'THRUPLAY'],
  OUTCOME_TRAFFIC: ['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'REACH', 'IMPRESSIONS', 'CONVERSATIONS', 'PROFILE_VISIT', 'VISIT_INSTAGRAM_PROFILE'],
  OUTCOME_ENGAGEMENT: ['POST_ENGAGEMENT', 'THRUPLAY', 'PAGE_LIKES', 'CONVERSATIONS', 'LINK_CLICKS', 'REACH', 'IMPRESSIONS', 'ENGAGED_USERS'],
  OUTCOME_LEADS: ['LEAD_GENERATION', 'QUALITY_LEAD', 'OFFSITE_CONVERSIONS', 'CONVERSATIONS', 'LINK_CLICKS', 'LANDING_PAGE_VIEWS'],
  OUTCOME_APP_PROMOTION: ['APP_INSTALLS', 'LINK_CLICKS', 'VALUE', 'OFFSITE_CONVERSIONS'],
  OUTCOME_SALES: ['OFFSITE_CONVERSIONS', 'VALUE', 'LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'CONVERSATIONS', 'REACH', 'IMPRESSIONS'],
};

/** Billing events a goal may be billed on; every goal may be billed on IMPRESSIONS. */
const BILLING_BY_GOAL: Record<string, string[]> = {
  LINK_CLICKS: ['IMPRESSIONS', 'LINK_CLICKS'],
  THRUPLAY: ['IMPRESSIONS', 'THRUPLAY'],
  POST_ENGAGEMENT: ['IMPRESSIONS', 'POST_ENGAGEMENT'],
  PAGE_LIKES: ['IMPRESSIONS', 'PAGE_LIKES'],
  APP_INSTALLS: ['IMPRESSIONS', 'APP_INSTALLS'],
};

/** A JSON scalar as text ('' for objects and absent values). */
export const scalar = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

export const adsInvalid = (title: string, message: string, subcode?: number): PlatformError =>
  graphError({ code: 100, message: 'Invalid parameter', subcode, userTitle: title, userMessage: message });

export function requireParam(input: GraphInput, key: string): string {
  const value = str(input, key);
  if (!value) throw graphError({ code: 100, message: `(#100) The parameter ${key} is required` });
  return value;
}

export function oneOf(input: GraphInput, key: string, allowed: string[], fallback?: string): string {
  const value = str(input, key) ?? fallback;
  if (value === undefined) throw graphError({ code: 100, message: `(#100) The parameter ${key} is required` });
  if (!allowed.includes(value)) throw graphError({ code: 100, message: `(#100) Param ${key} must be one of {${allowed.join(', ')}}` });
  return value;
}

/** A budget in minor units: a positive integer at least the account minimum. */
export function budget(input: GraphInput, key: string, minimum: number, currency: string): number | null {
  const raw = str(input, key);
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw)) throw graphError({ code: 100, message: `(#100) Param ${key} must be an integer (minor units of the account currency)` });
  const value = Number(raw);
  if (value < minimum) {
    const offset = currencyOffset(currency);
    throw adsInvalid('Your Budget Is Too Low', `The minimum budget for this ad set is ${(minimum / offset).toFixed(offset === 1 ? 0 : 2)} ${currency}; ${key} is in minor units of the currency.`, 1885272);
  }
  return value;
}

export function checkBilling(goal: string, billing: string): void {
  const allowed = BILLING_BY_GOAL[goal] ?? ['IMPRESSIONS'];
  if (!allowed.includes(billing)) {
    throw adsInvalid('Invalid billing event', `The billing event ${billing} is not available for the optimization goal ${goal}. Use one of: ${allowed.join(', ')}.`);
  }
}

export function checkGoal(objective: string, goal: string): void {
  if (!(GOALS_BY_OBJECTIVE[objective] ?? []).includes(goal)) {
    throw adsInvalid('Optimization goal not available', `The optimization goal ${goal} is not available for campaigns with the objective ${objective}.`);
  }
}

/** ISO 8601 or unix seconds → ms; undefined when absent. */
export function time(input: GraphInput, key: string): number | undefined {
  const raw = str(input, key);
  if (raw === undefined || raw === '' || raw === '0') return undefined;
  const ms = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  if (!Number.isFinite(ms)) throw graphError({ code: 100, message: `(#100) Param ${key} must be a valid time (ISO 8601 or unix seconds)` });
  return ms;
}
