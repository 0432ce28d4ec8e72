// Campaigns (contract "Ads"; platforms.md §9.1): listed and read live, created PAUSED with an
// ODAX objective (or a plain goal name) and an optional campaign budget, updated with a name,
// a status or a budget. Going ACTIVE or changing a budget needs confirm: true, as creating does.
// Creating and changing name the facebook account (accountId), and creating the ad account too,
// as the contract has them: a call that may spend never picks an account on its own.
import type { Tenant } from '../../db/tenant.ts';
import type { Caller } from '../../http/caller.ts';
import { errors } from '../../http/errors.ts';
import type { AdObjectChange } from '../../platforms/types.ts';
import { accountOf, adAccountScope, adsCall, approvedFor, currencyOf, requireConfirm, type AdsDeps } from './access.ts';
import { checkAmount, toMinor } from './money.ts';
import { listRequest, wrapCursor, type ListQuery } from './paging.ts';
import { presentCampaign } from './present.ts';
import { pathRecord, recordObjects } from './records.ts';
import type { CampaignView } from './schemas.ts';

export const OBJECTIVES = ['OUTCOME_AWARENESS', 'OUTCOME_TRAFFIC', 'OUTCOME_ENGAGEMENT', 'OUTCOME_LEADS', 'OUTCOME_APP_PROMOTION', 'OUTCOME_SALES'];
export const GOALS = ['awareness', 'traffic', 'engagement', 'leads', 'app_promotion', 'sales'];
export const SPECIAL_AD_CATEGORIES = ['EMPLOYMENT', 'HOUSING', 'CREDIT', 'FINANCIAL_PRODUCTS_SERVICES', 'ISSUES_ELECTIONS_POLITICS', 'ONLINE_GAMBLING_AND_GAMING'];

export interface Budget {
  amount: number;
  type: 'daily' | 'lifetime';
}

/** A budget in minor units as {dailyBudget, lifetimeBudget}. */
export function budgetMinor(budget: Budget | undefined, currency: string, field: string): { dailyBudget: number | null; lifetimeBudget: number | null } {
  if (!budget) return { dailyBudget: null, lifetimeBudget: null };
  const minor = toMinor(budget.amount, currency, `${field}.amount`);
  return budget.type === 'daily' ? { dailyBudget: minor, lifetimeBudget: null } : { dailyBudget: null, lifetimeBudget: minor };
}

export async function listCampaigns(deps: AdsDeps, tenant: Tenant, query: ListQuery & { accountId?: string | undefined; adAccountId?: string | undefined }) {
  const request = listRequest(query);
  const scope = await adAccountScope(deps, tenant, query);
  const currency = await currencyOf(deps, scope);
  const page = await adsCall(deps, scope.account, (ads, credentials) => ads.campaigns(credentials, scope.adAccountId, request));
  await recordObjects(tenant, deps.clock.now(), page.items.map((c) => ({ platformId: c.id, kind: 'campaign' as const, accountId: scope.account.id, adAccountId: scope.adAccountId })));
  return { campaigns: page.items.map((c) => presentCampaign(c, scope.account.id, currency)), after: wrapCursor(page.after) };
}

export interface NewCampaign {
  accountId: string;
  adAccountId: string;
  name: string;
  objective?: string | undefined;
  goal?: string | undefined;
  budget?: Budget | undefined;
  specialAdCategories?: string[] | undefined;
  confirm?: boolean | undefined;
}

export async function createCampaign(deps: AdsDeps, tenant: Tenant, caller: Caller, body: NewCampaign): Promise<CampaignView> {
  requireConfirm(body.confirm, 'create a campaign');
  checkAmount(body.budget?.amount, 'budget.amount');
  if (body.objective === undefined && body.goal === undefined) throw errors.invalid('objective', 'required (or goal)');
  if (body.objective !== undefined && body.goal !== undefined) throw errors.invalid('goal', 'give objective or goal, not both');
  const objective = body.objective ?? `OUTCOME_${(body.goal ?? '').toUpperCase()}`;
  const scope = await adAccountScope(deps, tenant, body, { admit: approvedFor(caller, 'creating a campaign') });
  const currency = await currencyOf(deps, scope);
  const money = budgetMinor(body.budget, currency, 'budget');
  const created = await adsCall(deps, scope.account, (ads, credentials) =>
    ads.createCampaign(credentials, scope.adAccountId, { name: body.name, objective, specialAdCategories: body.specialAdCategories ?? [], ...money }),
  );
  await recordObjects(tenant, deps.clock.now(), [{ platformId: created.id, kind: 'campaign', accountId: scope.account.id, adAccountId: scope.adAccountId, createdHere: true }]);
  const campaign = await adsCall(deps, scope.account, (ads, credentials) => ads.campaign(credentials, created.id));
  return presentCampaign(campaign, scope.account.id, currency);
}

export async function getCampaign(deps: AdsDeps, tenant: Tenant, id: string, accountId?: string): Promise<CampaignView> {
  const record = await pathRecord(tenant, id, 'campaign');
  const account = await accountOf(tenant, record, accountId);
  const currency = await currencyOf(deps, { account, adAccountId: record.ad_account_id });
  const campaign = await adsCall(deps, account, (ads, credentials) => ads.campaign(credentials, id));
  return presentCampaign(campaign, account.id, currency);
}

export type AdStatus = 'ACTIVE' | 'PAUSED' | 'ARCHIVED';

/** The checks every PATCH shares: something to change, and confirm for what spends money. */
export function checkChange(change: AdObjectChange, moneyChanged: boolean, confirm: boolean | undefined): void {
  if (!Object.values(change).some((v) => v !== undefined) && !moneyChanged) throw errors.invalid('body', 'nothing to change');
  if (change.status === 'ACTIVE') requireConfirm(confirm, 'set status ACTIVE (the ads may start spending)');
  if (moneyChanged) requireConfirm(confirm, 'change a budget');
}

export interface CampaignPatch {
  accountId: string;
  name?: string | undefined;
  status?: AdStatus | undefined;
  budgets?: Budget | undefined;
  budget?: Budget | undefined;
  confirm?: boolean | undefined;
}

export async function updateCampaign(deps: AdsDeps, tenant: Tenant, caller: Caller, id: string, body: CampaignPatch): Promise<CampaignView> {
  const record = await pathRecord(tenant, id, 'campaign');
  const budget = body.budgets ?? body.budget;
  const field = body.budgets ? 'budgets' : 'budget';
  checkChange({ name: body.name, status: body.status }, budget !== undefined, body.confirm);
  checkAmount(budget?.amount, `${field}.amount`);
  const account = await accountOf(tenant, record, body.accountId, approvedFor(caller, 'changing a campaign'));
  const currency = await currencyOf(deps, { account, adAccountId: record.ad_account_id });
  const money = budgetMinor(budget, currency, field);
  const change: AdObjectChange = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(money.dailyBudget !== null ? { dailyBudget: money.dailyBudget } : {}),
    ...(money.lifetimeBudget !== null ? { lifetimeBudget: money.lifetimeBudget } : {}),
  };
  await adsCall(deps, account, (ads, credentials) => ads.update(credentials, id, change));
  const campaign = await adsCall(deps, account, (ads, credentials) => ads.campaign(credentials, id));
  return presentCampaign(campaign, account.id, currency);
}
