// The Marketing API node types on graph.facebook.com (platforms.md §9), which the ads module
// (module.ts) adds to the facebook module's Graph host: `/{user}/adaccounts`, the ad account
// `act_{id}` with its edges, campaigns, ad sets, creatives, ads and custom audiences, each with
// reads, updates, deletes and insights.
import type { FacebookUser } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { graphToken } from '../meta/auth.ts';
import { parseFields, selectFields, type FieldGetters } from '../meta/fields.ts';
import { graphError, unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode, type NodeCall, type NodeResolver } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { list, str, type GraphInput } from '../meta/params.ts';
import { audienceFields, changeUsers, createAudience } from './audiences.ts';
import { adsToken, type AdsAccess } from './auth.ts';
import { createAd, createAdSet, createCampaign, createCreative } from './create.ts';
import { adEffective, adsetEffective } from './delivery.ts';
import { accountFields, adFields, adsetFields, campaignFields, creativeFields } from './fields.ts';
import { insights, type Level } from './insights.ts';
import type { Ad, AdAccount } from './store.ts';
import { deleteObject, updateAd, updateAdSet, updateCampaign } from './update.ts';

const ACCOUNT_DEFAULT = ['account_id', 'id'];

/** The account an object belongs to, checked against the token (and counted for usage). */
function access(ctx: RouteContext, input: GraphInput, accountId: string, kind: AdsAccess, id: string): AdAccount {
  const account = ctx.state.ads.accounts.get(accountId);
  if (!account) throw unsupportedRequest(ctx.method, id);
  adsToken(ctx, input, account, kind, id);
  return account;
}

const read = (type: string, getters: FieldGetters, input: GraphInput) => selectFields(type, getters, parseFields(str(input, 'fields')), ['id']);

/** Lists exclude DELETED and ARCHIVED unless `effective_status` asks for them. */
function listOf<T>(ctx: RouteContext, input: GraphInput, items: T[], status: (item: T) => string, type: string, getters: (item: T) => FieldGetters) {
  const wanted = list(input, 'effective_status');
  const kept = items.filter((item) => (wanted ? wanted.includes(status(item)) : !['DELETED', 'ARCHIVED'].includes(status(item))));
  return pageOf(ctx, input, kept.map((item) => read(type, getters(item), input)));
}

function objectInsights(call: NodeCall<{ accountId: string }>, level: Level, ads: (ad: Ad) => boolean) {
  access(call.ctx, call.input, call.node.accountId, 'insights', `${call.id}/insights`);
  return insights(call.ctx, call.input, { level, ads: [...call.ctx.state.ads.ads.values()].filter(ads) });
}

export const adsUserNode = defineNode<FacebookUser>({
  type: 'User',
  find: (state, id) => state.people.facebookUsers.get(id),
  edges: {
    adaccounts: {
      get({ ctx, input, node }) {
        const token = graphToken(ctx, input, { platforms: ['facebook'] });
        if (token.userId !== node.id) throw unsupportedRequest('GET', `${node.id}/adaccounts`);
        if (!token.scopes.includes('ads_read') && !token.scopes.includes('ads_management')) throw graphError({ code: 200, message: '(#200) Requires ads_read or ads_management permission' });
        const fields = parseFields(str(input, 'fields'));
        return pageOf(ctx, input, ctx.state.ads.accountsOf(node.id).map((a) => selectFields('AdAccount', accountFields(ctx.state, a), fields, ACCOUNT_DEFAULT)));
      },
    },
  },
});

export const adAccountNode = defineNode<AdAccount>({
  type: 'AdAccount',
  find: (state, id) => state.ads.accounts.get(id),
  get({ ctx, input, node }) {
    access(ctx, input, node.id, 'read', node.id);
    return selectFields('AdAccount', accountFields(ctx.state, node), parseFields(str(input, 'fields')), ACCOUNT_DEFAULT);
  },
  edges: {
    campaigns: {
      get: ({ ctx, input, node }) => (access(ctx, input, node.id, 'read', `${node.id}/campaigns`), listOf(ctx, input, [...ctx.state.ads.campaigns.values()].filter((c) => c.accountId === node.id), (c) => c.status, 'Campaign', (c) => campaignFields(ctx.state, c))),
      post: ({ ctx, input, node }) => (access(ctx, input, node.id, 'write', `${node.id}/campaigns`), createCampaign(ctx, input, node)),
    },
    adsets: {
      get: ({ ctx, input, node }) => (access(ctx, input, node.id, 'read', `${node.id}/adsets`), listOf(ctx, input, [...ctx.state.ads.adsets.values()].filter((s) => s.accountId === node.id), (s) => adsetEffective(ctx.state, s), 'AdSet', (s) => adsetFields(ctx.state, s))),
      post: ({ ctx, input, node }) => (access(ctx, input, node.id, 'write', `${node.id}/adsets`), createAdSet(ctx, input, node)),
    },
    adcreatives: {
      get: ({ ctx, input, node }) => (access(ctx, input, node.id, 'read', `${node.id}/adcreatives`), listOf(ctx, input, [...ctx.state.ads.creatives.values()].filter((c) => c.accountId === node.id), () => 'ACTIVE', 'AdCreative', creativeFields)),
      post: ({ ctx, input, node }) => (access(ctx, input, node.id, 'write', `${node.id}/adcreatives`), createCreative(ctx, input, node)),
    },
    ads: {
      get: ({ ctx, input, node }) => (access(ctx, input, node.id, 'read', `${node.id}/ads`), listOf(ctx, input, [...ctx.state.ads.ads.values()].filter((a) => a.accountId === node.id), (a) => adEffective(ctx.state, a), 'Ad', (a) => adFields(ctx.state, a))),
      post: ({ ctx, input, node }) => (access(ctx, input, node.id, 'write', `${node.id}/ads`), createAd(ctx, input, node)),
    },
    customaudiences: {
      get: ({ ctx, input, node }) => (access(ctx, input, node.id, 'read', `${node.id}/customaudiences`), listOf(ctx, input, [...ctx.state.ads.audiences.values()].filter((a) => a.accountId === node.id && !a.deleted), () => 'ACTIVE', 'CustomAudience', audienceFields)),
      post: ({ ctx, input, node }) => (access(ctx, input, node.id, 'write', `${node.id}/customaudiences`), createAudience(ctx, input, node)),
    },
    insights: { get: (call) => objectInsights({ ...call, node: { accountId: call.node.id } }, 'account', (ad) => ad.accountId === call.node.id) },
  },
});

export const campaignNode = defineNode({
  type: 'Campaign',
  find: (state, id) => state.ads.campaigns.get(id),
  get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), read('Campaign', campaignFields(ctx.state, node), input)),
  post: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), updateCampaign(ctx, input, node)),
  delete: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), deleteObject(ctx, node)),
  edges: {
    adsets: { get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), listOf(ctx, input, [...ctx.state.ads.adsets.values()].filter((s) => s.campaignId === node.id), (s) => adsetEffective(ctx.state, s), 'AdSet', (s) => adsetFields(ctx.state, s))) },
    ads: { get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), listOf(ctx, input, [...ctx.state.ads.ads.values()].filter((a) => a.campaignId === node.id), (a) => adEffective(ctx.state, a), 'Ad', (a) => adFields(ctx.state, a))) },
    insights: { get: (call) => objectInsights(call, 'campaign', (ad) => ad.campaignId === call.node.id) },
  },
});

export const adSetNode = defineNode({
  type: 'AdSet',
  find: (state, id) => state.ads.adsets.get(id),
  get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), read('AdSet', adsetFields(ctx.state, node), input)),
  post: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), updateAdSet(ctx, input, node)),
  delete: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), deleteObject(ctx, node)),
  edges: {
    ads: { get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), listOf(ctx, input, [...ctx.state.ads.ads.values()].filter((a) => a.adsetId === node.id), (a) => adEffective(ctx.state, a), 'Ad', (a) => adFields(ctx.state, a))) },
    insights: { get: (call) => objectInsights(call, 'adset', (ad) => ad.adsetId === call.node.id) },
  },
});

export const adNode = defineNode({
  type: 'Ad',
  find: (state, id) => state.ads.ads.get(id),
  get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), read('Ad', adFields(ctx.state, node), input)),
  post: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), updateAd(ctx, input, node)),
  delete: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), deleteObject(ctx, node)),
  edges: { insights: { get: (call) => objectInsights(call, 'ad', (ad) => ad.id === call.node.id) } },
});

export const adCreativeNode = defineNode({
  type: 'AdCreative',
  find: (state, id) => state.ads.creatives.get(id),
  get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), read('AdCreative', creativeFields(node), input)),
});

export const audienceNode = defineNode({
  type: 'CustomAudience',
  find: (state, id) => {
    const a = state.ads.audiences.get(id);
    return a && !a.deleted ? a : undefined;
  },
  get: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'read', id), read('CustomAudience', audienceFields(node), input)),
  delete: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), (node.deleted = true), { success: true }),
  edges: {
    users: {
      post: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), changeUsers(ctx, input, node, false)),
      delete: ({ ctx, input, node, id }) => (access(ctx, input, node.accountId, 'write', id), changeUsers(ctx, input, node, true)),
    },
  },
});

export const adsNodes: NodeResolver[] = [adsUserNode, adAccountNode, campaignNode, adSetNode, adNode, adCreativeNode, audienceNode];
