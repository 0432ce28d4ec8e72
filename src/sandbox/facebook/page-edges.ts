// The edges of a Page node (platforms.md §3.1–3.4, §8.5, §10.3): publishing (`feed`, `photos`,
// `videos`, `video_reels`, `photo_stories`, `video_stories`), reads (`feed`, `posts`,
// `published_posts`, `scheduled_posts`), messaging (`messages`, `conversations`, for Messenger
// and, with `platform=instagram` or an IGSID recipient, the linked Instagram account),
// `subscribed_apps` and `insights`.
import type { FacebookPage } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { requireScopes } from '../meta/auth.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import type { EdgeDef, NodeCall } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { graphTime } from '../meta/store.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { PAGE_FIELDS, subscribedAppsEdge } from '../meta/subscribed-apps.ts';
import { listConversations } from '../messaging/conversations.ts';
import { objectParam, sendApi } from '../messaging/send.ts';
import { pageAccess, type PageAction } from './access.ts';
import { photoStory, postPhoto, postToFeed } from './feed.ts';
import { pageInsights } from './insights.ts';
import { isPublished, postGetters } from './posts.ts';
import type { FbPost } from './store.ts';
import { postVideo, videoReels, videoStories } from './videos.ts';

type Call = NodeCall<FacebookPage>;
const guarded = (action: PageAction, op: (call: Call) => unknown) => (call: Call) => {
  pageAccess(call.ctx, call.input, call.node, action);
  return op(call);
};

/** `since` and `until` (unix seconds or a date) bound a list's creation times (platforms.md §1.6). */
export function timeRange(input: GraphInput): (ms: number) => boolean {
  const bound = (key: string, fallback: number) => {
    const raw = str(input, key);
    if (raw === undefined) return fallback;
    const at = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
    return Number.isFinite(at) ? at : fallback;
  };
  const since = bound('since', -Infinity);
  const until = bound('until', Infinity);
  return (ms) => ms >= since && ms <= until;
}

function posts(ctx: RouteContext, input: GraphInput, page: FacebookPage, keep: (p: FbPost) => boolean) {
  const inRange = timeRange(input);
  const rows = [...ctx.state.meta.fbPosts.values()]
    .filter((p) => p.pageId === page.id && keep(p) && inRange(p.createdAt))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((p) => selectFields('Post', postGetters(ctx.state, p), parseFields(str(input, 'fields')), ['created_time', 'message', 'id']));
  return pageOf(ctx, input, rows);
}

const published = (ctx: RouteContext) => (p: FbPost) => isPublished(ctx.state, p) && p.kind !== 'story';

/** `GET /{page-id}/stories`: the Page's stories, newest first, with the photo or video they show. */
function pageStories(ctx: RouteContext, input: GraphInput, page: FacebookPage) {
  const inRange = timeRange(input);
  return [...ctx.state.meta.fbPosts.values()]
    .filter((p) => p.pageId === page.id && p.kind === 'story' && inRange(p.createdAt))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((p) => ({
      post_id: p.id,
      status: 'PUBLISHED',
      creation_time: String(Math.floor(p.createdAt / 1000)),
      media_type: p.videoId ? 'video' : 'photo',
      media_id: p.videoId ?? p.photoIds[0],
      url: `https://www.facebook.com/stories/${page.id}/${p.id}`,
    }));
}

/** The inbox a Page call addresses: Messenger, or the linked Instagram account. */
function inbox(ctx: RouteContext, input: GraphInput, page: FacebookPage, instagram: boolean): { accountId: string; appId: string } {
  const token = pageAccess(ctx, input, page, 'messaging');
  if (!instagram) return { accountId: page.id, appId: token.clientId };
  if (!page.instagramAccountId) throw invalidParameter('(#100) This Page has no linked Instagram account');
  requireScopes(token, ['instagram_manage_messages'], 10);
  return { accountId: page.instagramAccountId, appId: token.clientId };
}

export const pageEdges: Record<string, EdgeDef<FacebookPage>> = {
  feed: {
    get: guarded('read', ({ ctx, input, node }) => posts(ctx, input, node, published(ctx))),
    post: guarded('publish', ({ ctx, input, node }) => postToFeed(ctx, input, node)),
  },
  posts: { get: guarded('read', ({ ctx, input, node }) => posts(ctx, input, node, published(ctx))) },
  published_posts: { get: guarded('read', ({ ctx, input, node }) => posts(ctx, input, node, published(ctx))) },
  scheduled_posts: { get: guarded('read', ({ ctx, input, node }) => posts(ctx, input, node, (p) => p.scheduledAt !== null && !isPublished(ctx.state, p))) },
  photos: {
    post: guarded('publish', ({ ctx, input, node }) => postPhoto(ctx, input, node)),
    get: guarded('read', ({ ctx, input, node }) =>
      pageOf(ctx, input, [...ctx.state.meta.fbPhotos.values()].filter((p) => p.pageId === node.id && p.published).map((p) => ({ id: p.id, created_time: new Date(p.createdAt).toISOString() }))),
    ),
  },
  videos: {
    post: guarded('publish', ({ ctx, input, node }) => postVideo(ctx, input, node)),
    get: guarded('read', ({ ctx, input, node }) => {
      const inRange = timeRange(input);
      const rows = [...ctx.state.meta.fbVideos.values()]
        .filter((v) => v.pageId === node.id && v.flow === 'video' && inRange(v.createdAt))
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((v) => ({ id: v.id, title: v.title ?? undefined, description: v.description ?? undefined, created_time: graphTime(v.createdAt) }));
      return pageOf(ctx, input, rows);
    }),
  },
  stories: { get: guarded('read', ({ ctx, input, node }) => pageOf(ctx, input, pageStories(ctx, input, node))) },
  video_reels: {
    post: guarded('publish', ({ ctx, input, node }) => videoReels(ctx, input, node)),
    get: guarded('read', ({ ctx, input, node }) => pageOf(ctx, input, [...ctx.state.meta.fbVideos.values()].filter((v) => v.pageId === node.id && v.flow === 'reel').map((v) => ({ id: v.id, description: v.description ?? undefined })))),
  },
  photo_stories: { post: guarded('publish', ({ ctx, input, node }) => photoStory(ctx, input, node)) },
  video_stories: { post: guarded('publish', ({ ctx, input, node }) => videoStories(ctx, input, node)) },
  messages: {
    post({ ctx, input, node }) {
      const recipient = objectParam(input, 'recipient');
      const id = typeof recipient?.id === 'string' ? recipient.id : undefined;
      const commentId = typeof recipient?.comment_id === 'string' ? recipient.comment_id : undefined;
      const viaInstagram = (id && ctx.state.meta.persons.get(id)?.platform === 'instagram') || (commentId !== undefined && ctx.state.meta.igComments.has(commentId));
      const { accountId, appId } = inbox(ctx, input, node, Boolean(viaInstagram));
      return sendApi(ctx, input, accountId, viaInstagram ? 'instagram' : 'messenger', appId);
    },
  },
  conversations: {
    get({ ctx, input, node }) {
      const platform = str(input, 'platform') ?? 'messenger';
      if (platform !== 'messenger' && platform !== 'instagram') throw invalidParameter('(#100) Param platform must be one of {messenger, instagram}');
      return listConversations(ctx, input, inbox(ctx, input, node, platform === 'instagram').accountId);
    },
  },
  subscribed_apps: {
    get: ({ ctx, input, node }) => subscribedAppsEdge(ctx, input, node.id, pageAccess(ctx, input, node, 'read'), PAGE_FIELDS),
    post: ({ ctx, input, node }) => subscribedAppsEdge(ctx, input, node.id, metadataToken(ctx, input, node), PAGE_FIELDS),
    delete: ({ ctx, input, node }) => subscribedAppsEdge(ctx, input, node.id, metadataToken(ctx, input, node), PAGE_FIELDS),
  },
  insights: { get: guarded('analyze', ({ ctx, input, node }) => pageInsights(ctx, input, node)) },
};

/** Installing an app on a Page needs a Page token with pages_manage_metadata. */
function metadataToken(ctx: RouteContext, input: GraphInput, page: FacebookPage) {
  const token = pageAccess(ctx, input, page, 'read');
  if (token.type !== 'page') throw graphError({ code: 190, message: '(#190) This method must be called with a Page Access Token' });
  requireScopes(token, ['pages_manage_metadata']);
  return token;
}
