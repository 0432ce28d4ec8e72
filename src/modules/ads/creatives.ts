// Ad creatives (contract "Ads"; platforms.md §9.3): an existing Page post (objectStoryId), an
// Instagram post (instagramMediaId, as the Instagram account linked to the Page), or a link ad
// with message and image, each with an optional call to action. The Page is the facebook
// account's own. Creatives have no status: they spend nothing until an ad uses them.
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import type { Caller } from '../../http/caller.ts';
import { errors } from '../../http/errors.ts';
import type { CallToAction, CreativeInput } from '../../platforms/types.ts';
import { parseMetadata } from '../accounts/credentials.ts';
import { adAccountScope, adsCall, approvedFor, requireConfirm, type AdsDeps } from './access.ts';
import { listRequest, wrapCursor, type ListQuery } from './paging.ts';
import { presentCreative } from './present.ts';
import { recordObjects } from './records.ts';
import type { CreativeView } from './schemas.ts';

export async function listCreatives(deps: AdsDeps, tenant: Tenant, query: ListQuery & { accountId?: string | undefined; adAccountId?: string | undefined }) {
  const request = listRequest(query);
  const scope = await adAccountScope(deps, tenant, query);
  const page = await adsCall(deps, scope.account, (ads, credentials) => ads.creatives(credentials, scope.adAccountId, request));
  await recordObjects(tenant, deps.clock.now(), page.items.map((c) => ({ platformId: c.id, kind: 'creative' as const, accountId: scope.account.id, adAccountId: scope.adAccountId })));
  return { creatives: page.items.map((c) => presentCreative(c, scope.account.id)), after: wrapCursor(page.after) };
}

export interface NewCreative {
  accountId?: string | undefined;
  adAccountId?: string | undefined;
  name?: string | undefined;
  objectStoryId?: string | undefined;
  instagramMediaId?: string | undefined;
  instagramUserId?: string | undefined;
  link?: string | undefined;
  message?: string | undefined;
  imageUrl?: string | undefined;
  headline?: string | undefined;
  callToAction?: { type: string; link?: string | undefined } | undefined;
  confirm?: boolean | undefined;
}

/** `{page-id}_{post-id}`: a bare post id is taken as the Page's own. */
export const storyIdOf = (pageId: string, postId: string): string => (postId.includes('_') ? postId : `${pageId}_${postId}`);

/** The Instagram account linked to the Page, among the organization's accounts connected with Facebook Login. */
async function linkedInstagram(tenant: Tenant, page: AccountRow): Promise<string | null> {
  const rows = await tenant.selectFrom('accounts').select(['platform_user_id', 'metadata']).where('platform', '=', 'instagram').execute();
  return rows.find((r) => parseMetadata(r.metadata).pageId === page.platform_user_id)?.platform_user_id ?? null;
}

async function creativeInput(tenant: Tenant, page: AccountRow, body: NewCreative, name: string): Promise<CreativeInput> {
  const kinds = [body.objectStoryId, body.instagramMediaId, body.link].filter((v) => v !== undefined).length;
  if (kinds !== 1) throw errors.invalid('objectStoryId', 'give exactly one of objectStoryId, instagramMediaId, or link with message and imageUrl');
  const callToAction: CallToAction | null = body.callToAction ? { type: body.callToAction.type, link: body.callToAction.link ?? null } : null;
  if (body.objectStoryId !== undefined) {
    if (callToAction) throw errors.invalid('callToAction', 'not with objectStoryId: the post is shown as it is');
    return { kind: 'post', name, objectStoryId: storyIdOf(page.platform_user_id, body.objectStoryId) };
  }
  if (body.instagramMediaId !== undefined) {
    const instagramUserId = body.instagramUserId ?? (await linkedInstagram(tenant, page));
    if (!instagramUserId) throw errors.invalid('instagramUserId', 'required: no connected Instagram account is linked to this Page');
    return { kind: 'instagram', name, instagramMediaId: body.instagramMediaId, instagramUserId, callToAction };
  }
  if (body.message === undefined) throw errors.invalid('message', 'required with link');
  if (body.imageUrl === undefined) throw errors.invalid('imageUrl', 'required with link');
  return { kind: 'link', name, pageId: page.platform_user_id, link: body.link ?? '', message: body.message, imageUrl: body.imageUrl, headline: body.headline ?? null, callToAction };
}

export async function createCreative(deps: AdsDeps, tenant: Tenant, caller: Caller, body: NewCreative): Promise<CreativeView> {
  requireConfirm(body.confirm, 'create a creative');
  const scope = await adAccountScope(deps, tenant, body, { admit: approvedFor(caller, 'creating a creative') });
  const input = await creativeInput(tenant, scope.account, body, body.name ?? `Creative ${new Date(deps.clock.now()).toISOString()}`);
  const created = await adsCall(deps, scope.account, (ads, credentials) => ads.createCreative(credentials, scope.adAccountId, input));
  await recordObjects(tenant, deps.clock.now(), [{ platformId: created.id, kind: 'creative', accountId: scope.account.id, adAccountId: scope.adAccountId, createdHere: true }]);
  return presentCreative(await adsCall(deps, scope.account, (ads, credentials) => ads.creative(credentials, created.id)), scope.account.id);
}
