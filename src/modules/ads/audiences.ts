// Custom audiences (contract "Ads"; platforms.md §9.5): customer-list audiences, listed, read,
// created (confirm: true) and deleted; members added as SHA-256 hashes of normalised emails or
// phones (hashing.ts), never raw. Deleting forgets the record too, so the id is then 404.
import type { Tenant } from '../../db/tenant.ts';
import type { Caller } from '../../http/caller.ts';
import { errors } from '../../http/errors.ts';
import { accountOf, adAccountScope, adsCall, approvedFor, requireConfirm, type AdsDeps } from './access.ts';
import { hashAll } from './hashing.ts';
import { listRequest, wrapCursor, type ListQuery } from './paging.ts';
import { presentAudience } from './present.ts';
import { pathRecord, recordObjects } from './records.ts';
import type { AudienceView } from './schemas.ts';

export async function listAudiences(deps: AdsDeps, tenant: Tenant, query: ListQuery & { accountId?: string | undefined; adAccountId?: string | undefined }) {
  const request = listRequest(query);
  const scope = await adAccountScope(deps, tenant, query);
  const page = await adsCall(deps, scope.account, (ads, credentials) => ads.audiences(credentials, scope.adAccountId, request));
  await recordObjects(tenant, deps.clock.now(), page.items.map((a) => ({ platformId: a.id, kind: 'audience' as const, accountId: scope.account.id, adAccountId: scope.adAccountId })));
  return { audiences: page.items.map((a) => presentAudience(a, scope.account.id)), after: wrapCursor(page.after) };
}

export interface NewAudience {
  accountId?: string | undefined;
  adAccountId?: string | undefined;
  name: string;
  description?: string | undefined;
  confirm?: boolean | undefined;
}

export async function createAudience(deps: AdsDeps, tenant: Tenant, caller: Caller, body: NewAudience): Promise<AudienceView> {
  requireConfirm(body.confirm, 'create an audience');
  const scope = await adAccountScope(deps, tenant, body, { admit: approvedFor(caller, 'creating an audience') });
  const created = await adsCall(deps, scope.account, (ads, credentials) => ads.createAudience(credentials, scope.adAccountId, { name: body.name, description: body.description ?? null }));
  await recordObjects(tenant, deps.clock.now(), [{ platformId: created.id, kind: 'audience', accountId: scope.account.id, adAccountId: scope.adAccountId, createdHere: true }]);
  return presentAudience(await adsCall(deps, scope.account, (ads, credentials) => ads.audience(credentials, created.id)), scope.account.id);
}

export async function getAudience(deps: AdsDeps, tenant: Tenant, id: string, accountId?: string): Promise<AudienceView> {
  const record = await pathRecord(tenant, id, 'audience');
  const account = await accountOf(tenant, record, accountId);
  return presentAudience(await adsCall(deps, account, (ads, credentials) => ads.audience(credentials, id)), account.id);
}

export async function deleteAudience(deps: AdsDeps, tenant: Tenant, caller: Caller, id: string, accountId?: string): Promise<void> {
  const record = await pathRecord(tenant, id, 'audience');
  const account = await accountOf(tenant, record, accountId, approvedFor(caller, 'deleting an audience'));
  await adsCall(deps, account, (ads, credentials) => ads.remove(credentials, id));
  await tenant.deleteFrom('ad_objects').where('platform_id', '=', id).execute();
}

export interface AudienceMembers {
  accountId?: string | undefined;
  emails?: string[] | undefined;
  phones?: string[] | undefined;
}

/** Hashes first (a bad value is a 400 before any call), then one upload per schema. */
export async function addAudienceMembers(deps: AdsDeps, tenant: Tenant, caller: Caller, id: string, body: AudienceMembers) {
  const record = await pathRecord(tenant, id, 'audience');
  if (!body.emails?.length && !body.phones?.length) throw errors.invalid('emails', 'required (or phones)');
  const uploads = [
    { schema: 'EMAIL_SHA256' as const, hashes: body.emails?.length ? hashAll(body.emails, 'emails') : [] },
    { schema: 'PHONE_SHA256' as const, hashes: body.phones?.length ? hashAll(body.phones, 'phones') : [] },
  ].filter((u) => u.hashes.length);
  const account = await accountOf(tenant, record, body.accountId, approvedFor(caller, 'adding people to an audience'));
  let received = 0;
  let invalid = 0;
  for (const upload of uploads) {
    const result = await adsCall(deps, account, (ads, credentials) => ads.addAudienceMembers(credentials, id, upload.schema, upload.hashes));
    received += result.received;
    invalid += result.invalid;
  }
  return { audienceId: id, received, invalid };
}
