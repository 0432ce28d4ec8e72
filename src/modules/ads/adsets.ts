// Ad sets (contract "Ads"; platforms.md §9.2): created PAUSED under a recorded campaign with
// Meta's targeting spec and a daily or lifetime budget (decimals, sent in minor units); the
// optimization goal defaults from the campaign's objective, billed on impressions. Creating
// names the facebook account and the ad account, as the contract has it.
import type { Tenant } from '../../db/tenant.ts';
import type { Caller } from '../../http/caller.ts';
import { errors } from '../../http/errors.ts';
import type { AdObjectChange } from '../../platforms/types.ts';
import { accountOf, adAccountScope, adsCall, approvedFor, currencyOf, requireConfirm, type AdsDeps } from './access.ts';
import { checkChange, type AdStatus } from './campaigns.ts';
import { checkAmount, toMinor } from './money.ts';
import { listRequest, wrapCursor, type ListQuery } from './paging.ts';
import { presentAdSet } from './present.ts';
import { bodyRecord, pathRecord, recordObjects } from './records.ts';
import type { AdSetView } from './schemas.ts';

/** The goal an objective optimizes for unless the request names one. */
const DEFAULT_GOAL: Record<string, string> = {
  OUTCOME_AWARENESS: 'REACH',
  OUTCOME_TRAFFIC: 'LINK_CLICKS',
  OUTCOME_ENGAGEMENT: 'POST_ENGAGEMENT',
  OUTCOME_LEADS: 'LEAD_GENERATION',
  OUTCOME_APP_PROMOTION: 'APP_INSTALLS',
  OUTCOME_SALES: 'OFFSITE_CONVERSIONS',
};

/** Meta now expects the Advantage audience choice on new ad sets: 0 keeps the audience as given. */
export const withAudienceChoice = (targeting: Record<string, unknown>): Record<string, unknown> =>
  targeting.targeting_automation === undefined ? { ...targeting, targeting_automation: { advantage_audience: 0 } } : targeting;

const timeMs = (value: string | undefined, field: string): number | null => {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw errors.invalid(field, 'not a date-time');
  return ms;
};

export async function listAdSets(deps: AdsDeps, tenant: Tenant, query: ListQuery & { accountId?: string | undefined; adAccountId?: string | undefined; parentId?: string | undefined }) {
  const request = listRequest(query);
  const parent = query.parentId !== undefined ? await pathRecord(tenant, query.parentId, 'campaign') : null;
  const scope = parent ? { account: await accountOf(tenant, parent, query.accountId), adAccountId: parent.ad_account_id } : await adAccountScope(deps, tenant, query);
  const currency = await currencyOf(deps, scope);
  const page = await adsCall(deps, scope.account, (ads, credentials) =>
    ads.adSets(credentials, parent ? { campaignId: parent.platform_id } : { adAccountId: scope.adAccountId }, request),
  );
  await recordObjects(tenant, deps.clock.now(), page.items.map((s) => ({ platformId: s.id, kind: 'adset' as const, accountId: scope.account.id, adAccountId: scope.adAccountId, parentId: s.campaignId })));
  return { adSets: page.items.map((s) => presentAdSet(s, scope.account.id, currency)), after: wrapCursor(page.after) };
}

export interface NewAdSet {
  accountId: string;
  adAccountId: string;
  campaignId: string;
  name: string;
  targeting: Record<string, unknown>;
  dailyBudget?: number | undefined;
  lifetimeBudget?: number | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
  optimizationGoal?: string | undefined;
  billingEvent?: string | undefined;
  confirm?: boolean | undefined;
}

export async function createAdSet(deps: AdsDeps, tenant: Tenant, caller: Caller, body: NewAdSet): Promise<AdSetView> {
  requireConfirm(body.confirm, 'create an ad set');
  checkAmount(body.dailyBudget, 'dailyBudget');
  checkAmount(body.lifetimeBudget, 'lifetimeBudget');
  if (body.dailyBudget === undefined && body.lifetimeBudget === undefined) throw errors.invalid('dailyBudget', 'required (or lifetimeBudget)');
  if (body.dailyBudget !== undefined && body.lifetimeBudget !== undefined) throw errors.invalid('lifetimeBudget', 'give dailyBudget or lifetimeBudget, not both');
  const startTime = timeMs(body.startTime, 'startTime');
  const endTime = timeMs(body.endTime, 'endTime');
  if (body.lifetimeBudget !== undefined && endTime === null) throw errors.invalid('endTime', 'required with a lifetimeBudget');
  const campaign = await bodyRecord(tenant, body.campaignId, 'campaign', 'campaignId');
  if (campaign.ad_account_id !== (body.adAccountId.startsWith('act_') ? body.adAccountId : `act_${body.adAccountId}`)) {
    throw errors.invalid('campaignId', 'belongs to another ad account');
  }
  const scope = { account: await accountOf(tenant, campaign, body.accountId, approvedFor(caller, 'creating an ad set')), adAccountId: campaign.ad_account_id };
  const currency = await currencyOf(deps, scope);
  const goal = body.optimizationGoal ?? DEFAULT_GOAL[(await adsCall(deps, scope.account, (ads, credentials) => ads.campaign(credentials, campaign.platform_id))).objective ?? ''] ?? 'REACH';
  const created = await adsCall(deps, scope.account, (ads, credentials) =>
    ads.createAdSet(credentials, scope.adAccountId, {
      campaignId: campaign.platform_id,
      name: body.name,
      targeting: withAudienceChoice(body.targeting),
      dailyBudget: body.dailyBudget !== undefined ? toMinor(body.dailyBudget, currency, 'dailyBudget') : null,
      lifetimeBudget: body.lifetimeBudget !== undefined ? toMinor(body.lifetimeBudget, currency, 'lifetimeBudget') : null,
      optimizationGoal: goal,
      billingEvent: body.billingEvent ?? 'IMPRESSIONS',
      startTime,
      endTime,
      promotedObject: null,
    }),
  );
  await recordObjects(tenant, deps.clock.now(), [
    { platformId: created.id, kind: 'adset', accountId: scope.account.id, adAccountId: scope.adAccountId, parentId: campaign.platform_id, createdHere: true },
  ]);
  const adSet = await adsCall(deps, scope.account, (ads, credentials) => ads.adSet(credentials, created.id));
  return presentAdSet(adSet, scope.account.id, currency);
}

export async function getAdSet(deps: AdsDeps, tenant: Tenant, id: string, accountId?: string): Promise<AdSetView> {
  const record = await pathRecord(tenant, id, 'adset');
  const account = await accountOf(tenant, record, accountId);
  const currency = await currencyOf(deps, { account, adAccountId: record.ad_account_id });
  return presentAdSet(await adsCall(deps, account, (ads, credentials) => ads.adSet(credentials, id)), account.id, currency);
}

export interface AdSetPatch {
  accountId?: string | undefined;
  name?: string | undefined;
  status?: AdStatus | undefined;
  dailyBudget?: number | undefined;
  lifetimeBudget?: number | undefined;
  endTime?: string | undefined;
  confirm?: boolean | undefined;
}

export async function updateAdSet(deps: AdsDeps, tenant: Tenant, caller: Caller, id: string, body: AdSetPatch): Promise<AdSetView> {
  const record = await pathRecord(tenant, id, 'adset');
  const endTime = timeMs(body.endTime, 'endTime');
  const moneyChanged = body.dailyBudget !== undefined || body.lifetimeBudget !== undefined;
  checkChange({ name: body.name, status: body.status, ...(endTime !== null ? { endTime } : {}) }, moneyChanged, body.confirm);
  checkAmount(body.dailyBudget, 'dailyBudget');
  checkAmount(body.lifetimeBudget, 'lifetimeBudget');
  if (body.dailyBudget !== undefined && body.lifetimeBudget !== undefined) throw errors.invalid('lifetimeBudget', 'give dailyBudget or lifetimeBudget, not both');
  const account = await accountOf(tenant, record, body.accountId, approvedFor(caller, 'changing an ad set'));
  const currency = await currencyOf(deps, { account, adAccountId: record.ad_account_id });
  const change: AdObjectChange = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.dailyBudget !== undefined ? { dailyBudget: toMinor(body.dailyBudget, currency, 'dailyBudget') } : {}),
    ...(body.lifetimeBudget !== undefined ? { lifetimeBudget: toMinor(body.lifetimeBudget, currency, 'lifetimeBudget') } : {}),
    ...(endTime !== null ? { endTime } : {}),
  };
  await adsCall(deps, account, (ads, credentials) => ads.update(credentials, id, change));
  return presentAdSet(await adsCall(deps, account, (ads, credentials) => ads.adSet(credentials, id)), account.id, currency);
}
