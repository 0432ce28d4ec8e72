// Graph nodes of Page content (platforms.md §3.1–3.2): posts (read, edit `message` or publish a
// draft with `is_published=true`, delete, `comments`, `likes`, `reactions`, `insights`), photos,
// videos (with the §3.1 `status` object and `post_id`), and comments (edit, hide, delete,
// replies, likes). Reads need the Page among the token's Pages; writes a Page token.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { invalidParameter, unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { bool, str, type GraphInput } from '../meta/params.ts';
import { graphTime } from '../meta/store.ts';
import { pageAccess, type PageAction } from './access.ts';
import { commentEvent, commentRow, listComments, pageComments, readableBy, type CommentFilter } from './comments.ts';
import { postInsights } from './insights.ts';
import { feedEvent, isPublished, MESSAGE_LIMIT, postGetters } from './posts.ts';
import type { FbComment, FbPhoto, FbPost, FbVideo } from './store.ts';
import { videoStatus } from './video-status.ts';

/** Checks the token may do `action` on the Page, and answers it. */
function pageOf(ctx: RouteContext, input: GraphInput, pageId: string, action: PageAction): TokenRecord {
  const page = ctx.state.people.pages.get(pageId);
  if (!page) throw unsupportedRequest(ctx.method, ctx.path.slice(1));
  return pageAccess(ctx, input, page, action);
}

/** The token of a read, for what it may see of the Page's comments. */
const commentReader = (ctx: RouteContext, input: GraphInput, pageId: string): CommentFilter => readableBy(pageOf(ctx, input, pageId, 'read'));

const likes = {
  post: ({ ctx, input, node }: { ctx: RouteContext; input: GraphInput; node: FbPost }) => {
    pageOf(ctx, input, node.pageId, 'moderate');
    node.likedByPage = true;
    return { success: true };
  },
  delete: ({ ctx, input, node }: { ctx: RouteContext; input: GraphInput; node: FbPost }) => {
    pageOf(ctx, input, node.pageId, 'moderate');
    node.likedByPage = false;
    return { success: true };
  },
};

export const postNode = defineNode<FbPost>({
  type: 'Post',
  find: (state, id) => state.meta.fbPosts.get(id),
  get({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'read');
    return selectFields('Post', postGetters(ctx.state, node), parseFields(str(input, 'fields')), ['created_time', 'message', 'id']);
  },
  post({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'publish');
    const message = str(input, 'message');
    const publish = bool(input, 'is_published');
    if (message === undefined && publish === undefined) throw invalidParameter('(#100) Nothing to update: give message or is_published');
    if (message !== undefined && [...message].length > MESSAGE_LIMIT) throw invalidParameter(`(#100) Param message must be at most ${MESSAGE_LIMIT} characters long.`);
    const wasPublished = isPublished(ctx.state, node);
    if (message !== undefined) node.message = message;
    if (publish === true && !wasPublished) {
      node.published = true;
      node.scheduledAt = null;
    }
    node.updatedAt = ctx.state.clock.now();
    if (isPublished(ctx.state, node)) feedEvent(ctx.state, node, wasPublished ? 'edited' : 'add');
    return { success: true };
  },
  delete({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'publish');
    ctx.state.meta.fbPosts.delete(node.id);
    for (const c of [...ctx.state.meta.fbComments.values()]) if (c.postId === node.id) ctx.state.meta.fbComments.delete(c.id);
    feedEvent(ctx.state, node, 'remove');
    return { success: true };
  },
  edges: {
    comments: {
      get: ({ ctx, input, node }) => listComments(ctx, input, node.id, null, commentReader(ctx, input, node.pageId)),
      post: ({ ctx, input, node }) => (pageOf(ctx, input, node.pageId, 'moderate'), pageComments(ctx, input, node, null)),
    },
    likes,
    reactions: {
      get({ ctx, input, node }) {
        pageOf(ctx, input, node.pageId, 'read');
        return { data: node.reactions.map((r) => ({ id: r.personId, name: ctx.state.meta.persons.get(r.personId)?.name, type: r.type.toUpperCase() })) };
      },
    },
    insights: { get: ({ ctx, input, node }) => (pageOf(ctx, input, node.pageId, 'analyze'), postInsights(ctx, input, node)) },
  },
});

export const commentNode = defineNode<FbComment>({
  type: 'Comment',
  find: (state, id) => state.meta.fbComments.get(id),
  get: ({ ctx, input, node }) => commentRow(ctx.state, node, input, commentReader(ctx, input, node.pageId)),
  post({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'moderate');
    const hidden = bool(input, 'is_hidden');
    const message = str(input, 'message');
    if (hidden !== undefined) {
      if (node.fromId === node.pageId) throw invalidParameter("(#100) The Page's own comments cannot be hidden");
      node.hidden = hidden;
      commentEvent(ctx.state, node, hidden ? 'hide' : 'unhide');
    } else if (message !== undefined) {
      if (node.fromId !== node.pageId) throw unsupportedRequest('POST', node.id);
      node.message = message;
      commentEvent(ctx.state, node, 'edited');
    } else {
      throw invalidParameter('(#100) Nothing to update: give message or is_hidden');
    }
    return { success: true };
  },
  delete({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'moderate');
    for (const c of [...ctx.state.meta.fbComments.values()]) if (c.parentId === node.id) ctx.state.meta.fbComments.delete(c.id);
    ctx.state.meta.fbComments.delete(node.id);
    commentEvent(ctx.state, node, 'remove');
    return { success: true };
  },
  edges: {
    comments: {
      get: ({ ctx, input, node }) => listComments(ctx, input, node.postId, node.id, commentReader(ctx, input, node.pageId)),
      post({ ctx, input, node }) {
        pageOf(ctx, input, node.pageId, 'moderate');
        const post = ctx.state.meta.fbPosts.get(node.postId);
        if (!post) throw unsupportedRequest('POST', `${node.id}/comments`);
        return pageComments(ctx, input, post, node);
      },
    },
    // The Page's like counts once: liking again or unliking what it never liked changes nothing.
    likes: {
      post({ ctx, input, node }) {
        pageOf(ctx, input, node.pageId, 'moderate');
        if (node.likedByPage !== true) node.likeCount++;
        node.likedByPage = true;
        return { success: true };
      },
      delete({ ctx, input, node }) {
        pageOf(ctx, input, node.pageId, 'moderate');
        if (node.likedByPage === true) node.likeCount = Math.max(0, node.likeCount - 1);
        node.likedByPage = false;
        return { success: true };
      },
    },
  },
});

export const photoNode = defineNode<FbPhoto>({
  type: 'Photo',
  find: (state, id) => state.meta.fbPhotos.get(id),
  get({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'read');
    const getters = {
      id: () => node.id,
      name: () => node.caption ?? undefined,
      created_time: () => graphTime(node.createdAt),
      images: () => [{ height: 720, width: 720, source: node.url }],
      link: () => `https://www.facebook.com/photo.php?fbid=${node.id}`,
      page_story_id: () => node.postId ?? undefined,
      from: () => ({ id: node.pageId }),
    };
    return selectFields('Photo', getters, parseFields(str(input, 'fields')), ['created_time', 'id']);
  },
  delete: ({ ctx, input, node }) => (pageOf(ctx, input, node.pageId, 'publish'), ctx.state.meta.fbPhotos.delete(node.id), { success: true }),
});

export const videoNode = defineNode<FbVideo>({
  type: 'Video',
  find: (state, id) => state.meta.fbVideos.get(id),
  get({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'read');
    const getters = {
      id: () => node.id,
      title: () => node.title ?? undefined,
      description: () => node.description ?? undefined,
      created_time: () => graphTime(node.createdAt),
      updated_time: () => graphTime(node.createdAt),
      status: () => videoStatus(ctx.state, node),
      post_id: () => node.postId ?? undefined,
      permalink_url: () => (node.flow === 'reel' ? `/reel/${node.id}` : `/${node.pageId}/videos/${node.id}`),
      published: () => node.publishStatus === 'published' && videoStatus(ctx.state, node).video_status === 'ready',
      from: () => ({ id: node.pageId }),
    };
    return selectFields('Video', getters, parseFields(str(input, 'fields')), ['id', 'updated_time']);
  },
  delete({ ctx, input, node }) {
    pageOf(ctx, input, node.pageId, 'publish');
    ctx.state.meta.fbVideos.delete(node.id);
    if (node.postId) ctx.state.meta.fbPosts.delete(node.postId);
    return { success: true };
  },
});
