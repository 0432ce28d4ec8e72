// The Instagram professional account as a Graph node, on both hosts (platforms.md §2.1–2.9):
// profile fields (plus mentioned_media / mentioned_comment), `media` (list, create container),
// `media_publish`, `content_publishing_limit`, `stories`, `tags`, `mentions`, `insights`,
// `subscribed_apps`, `messages` (Send API) and `conversations`. Access rules per action are in
// access.ts; the same node serves graph.facebook.com and graph.instagram.com.
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { instagramFields } from '../facebook/nodes.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { defineNode, type NodeCall } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { INSTAGRAM_FIELDS, subscribedAppsEdge } from '../meta/subscribed-apps.ts';
import { listConversations } from '../messaging/conversations.ts';
import { sendApi } from '../messaging/send.ts';
import { igAccess, type IgAction } from './access.ts';
import { createIgContainer } from './containers.ts';
import { accountInsights } from './insights.ts';
import { igMediaFields } from './media.ts';
import { mentionedField, replyToMention, taggedMedia } from './mentions.ts';
import { publishIgContainer, publishingLimit } from './publish.ts';
import type { IgMedia } from './store.ts';

type Call = NodeCall<InstagramAccount>;
const guarded = (action: IgAction, op: (call: Call) => unknown) => (call: Call) => {
  igAccess(call.ctx, call.input, call.node, action);
  return op(call);
};

function ownMediaList(ctx: RouteContext, input: GraphInput, account: InstagramAccount, keep: (m: IgMedia) => boolean) {
  const since = str(input, 'since') ? Number(str(input, 'since')) * 1000 : -Infinity;
  const until = str(input, 'until') ? Number(str(input, 'until')) * 1000 : Infinity;
  const rows = [...ctx.state.meta.igMedia.values()]
    .filter((m) => m.accountId === account.id && !m.isCarouselChild && keep(m) && m.publishedAt >= since && m.publishedAt <= until)
    .sort((a, b) => b.publishedAt - a.publishedAt)
    .map((m) => igMediaFields(ctx.state, m, input));
  return pageOf(ctx, input, rows);
}

export const instagramUserNode = defineNode<InstagramAccount>({
  type: 'IGUser',
  find: (state, id) => state.people.instagramAccounts.get(id),
  get: guarded('basic', ({ ctx, input, node }) => {
    const fields = parseFields(str(input, 'fields'));
    const mentionFields = (fields ?? []).filter((f) => f.name === 'mentioned_media' || f.name === 'mentioned_comment');
    const rest = fields?.filter((f) => !mentionFields.includes(f)) ?? null;
    const out = selectFields('IGUser', instagramFields(node), rest?.length ? rest : mentionFields.length ? [{ name: 'id', children: null, modifiers: {} }] : null, ['id']);
    for (const field of mentionFields) out[field.name] = mentionedField(ctx.state, node, field);
    return out;
  }),
  edges: {
    media: {
      get: guarded('basic', ({ ctx, input, node }) => ownMediaList(ctx, input, node, (m) => m.productType !== 'STORY')),
      post: guarded('publish', ({ ctx, input, node }) => createIgContainer(ctx, input, node)),
    },
    media_publish: { post: guarded('publish', ({ ctx, input, node }) => publishIgContainer(ctx, input, node)) },
    content_publishing_limit: { get: guarded('publish', ({ ctx, input, node }) => publishingLimit(ctx, input, node)) },
    stories: {
      get: guarded('basic', ({ ctx, input, node }) => ownMediaList(ctx, input, node, (m) => m.productType === 'STORY' && ctx.state.clock.now() - m.publishedAt < 86_400_000)),
    },
    tags: {
      get: guarded('basic', ({ ctx, input, node }) => pageOf(ctx, input, taggedMedia(ctx.state, node).map((m) => igMediaFields(ctx.state, m, input)))),
    },
    mentions: { post: guarded('comments', ({ ctx, input, node }) => replyToMention(ctx, input, node)) },
    insights: { get: guarded('insights', ({ ctx, input, node }) => accountInsights(ctx, input, node)) },
    subscribed_apps: {
      get: ({ ctx, input, node }) => subscribedAppsEdge(ctx, input, node.id, igAccess(ctx, input, node, 'basic'), INSTAGRAM_FIELDS),
      post: ({ ctx, input, node }) => subscribedAppsEdge(ctx, input, node.id, igAccess(ctx, input, node, 'basic'), INSTAGRAM_FIELDS),
      delete: ({ ctx, input, node }) => subscribedAppsEdge(ctx, input, node.id, igAccess(ctx, input, node, 'basic'), INSTAGRAM_FIELDS),
    },
    messages: {
      post: ({ ctx, input, node }) => sendApi(ctx, input, node.id, 'instagram', igAccess(ctx, input, node, 'messages').clientId),
    },
    conversations: { get: guarded('messages', ({ ctx, input, node }) => listConversations(ctx, input, node.id)) },
  },
});
