// Ads (contract "Ads"; platforms.md §9.4): an ad joins a recorded ad set and a recorded creative
// of the same ad account; created PAUSED. Listed by ad set (parentId) or by ad account.
import type { Tenant } from '../../db/tenant.ts';
import type { Caller } from '../../http/caller.ts';
import { errors } from '../../http/errors.ts';
import type { AdObjectChange } from '../../platforms/types.ts';
import { accountOf, adAccountScope, adsCall, approvedFor, requireConfirm, type AdsDeps } from './access.ts';
import { checkChange, type AdStatus } from './campaigns.ts';
import { listRequest, wrapCursor, type ListQuery } from './paging.ts';
import { presentAd } from './present.ts';
import { bodyRecord, pathRecord, recordObjects } from './records.ts';
import type { AdView } from './schemas.ts';

export async function listAds(deps: AdsDeps, tenant: Tenant, query: ListQuery & { accountId?: string | undefined; adAccountId?: string | undefined; parentId?: string | undefined }) {
  const request = listRequest(query);
  const parent = query.parentId !== undefined ? await pathRecord(tenant, query.parentId, 'adset') : null;
  const scope = parent ? { account: await accountOf(tenant, parent, query.accountId), adAccountId: parent.ad_account_id } : await adAccountScope(deps, tenant, query);
  const page = await adsCall(deps, scope.account, (ads, credentials) => ads.ads(credentials, parent ? { adSetId: parent.platform_id } : { adAccountId: scope.adAccountId }, request));
  await recordObjects(tenant, deps.clock.now(), page.items.map((a) => ({ platformId: a.id, kind: 'ad' as const, accountId: scope.account.id, adAccountId: scope.adAccountId, parentId: a.adSetId })));
  return { ads: page.items.map((a) => presentAd(a, scope.account.id)), after: wrapCursor(page.after) };
}

export interface NewAd {
  accountId?: string | undefined;
  adSetId: string;
  creativeId: string;
  name: string;
  confirm?: boolean | undefined;
}

export async function createAd(deps: AdsDeps, tenant: Tenant, caller: Caller, body: NewAd): Promise<AdView> {
  requireConfirm(body.confirm, 'create an ad');
  const adSet = await bodyRecord(tenant, body.adSetId, 'adset', 'adSetId');
  const creative = await bodyRecord(tenant, body.creativeId, 'creative', 'creativeId');
  if (creative.ad_account_id !== adSet.ad_account_id) throw errors.invalid('creativeId', "not of the ad set's ad account");
  const account = await accountOf(tenant, adSet, body.accountId, approvedFor(caller, 'creating an ad'));
  const created = await adsCall(deps, account, (ads, credentials) =>
    ads.createAd(credentials, adSet.ad_account_id, { adSetId: adSet.platform_id, creativeId: creative.platform_id, name: body.name }),
  );
  await recordObjects(tenant, deps.clock.now(), [{ platformId: created.id, kind: 'ad', accountId: account.id, adAccountId: adSet.ad_account_id, parentId: adSet.platform_id, createdHere: true }]);
  return presentAd(await adsCall(deps, account, (ads, credentials) => ads.ad(credentials, created.id)), account.id);
}

export async function getAd(deps: AdsDeps, tenant: Tenant, id: string, accountId?: string): Promise<AdView> {
  const record = await pathRecord(tenant, id, 'ad');
  const account = await accountOf(tenant, record, accountId);
  return presentAd(await adsCall(deps, account, (ads, credentials) => ads.ad(credentials, id)), account.id);
}

export interface AdPatch {
  accountId?: string | undefined;
  name?: string | undefined;
  status?: AdStatus | undefined;
  confirm?: boolean | undefined;
}

export async function updateAd(deps: AdsDeps, tenant: Tenant, caller: Caller, id: string, body: AdPatch): Promise<AdView> {
  const record = await pathRecord(tenant, id, 'ad');
  const change: AdObjectChange = { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.status !== undefined ? { status: body.status } : {}) };
  checkChange(change, false, body.confirm);
  const account = await accountOf(tenant, record, body.accountId, approvedFor(caller, 'changing an ad'));
  await adsCall(deps, account, (ads, credentials) => ads.update(credentials, id, change));
  return presentAd(await adsCall(deps, account, (ads, credentials) => ads.ad(credentials, id)), account.id);
}
