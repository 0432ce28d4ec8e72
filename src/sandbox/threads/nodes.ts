// Threads Graph nodes (platforms.md §4.2–4.5): the user (`me`, its `threads`, `threads_publish`,
// `threads_publishing_limit` and `replies` edges), containers (status), and published media
// (fields, delete, `replies`, `conversation`, `manage_reply`). People reply through the control
// API (control.ts).
import type { ThreadsUser } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { requireScopes } from '../meta/auth.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { graphError, invalidParameter, unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { bool, str, type GraphInput } from '../meta/params.ts';
import { containerStatus, createContainer } from './containers.ts';
import { threadsMediaInsights, threadsUserInsights } from './insights.ts';
import { threadsToken } from './login.ts';
import { publishContainer, publishingLimit } from './publish.ts';
import { usage, type ThreadsContainer, type ThreadsPost } from './store.ts';

const MEDIA_DEFAULTS = ['id'];

function ownUser(ctx: RouteContext, input: GraphInput, user: ThreadsUser, edge: string) {
  const token = threadsToken(ctx, input);
  if (token.subjectId !== user.id) throw unsupportedRequest(ctx.method, `${user.id}/${edge}`);
  return token;
}

export const threadsUserNode = defineNode<ThreadsUser>({
  type: 'ThreadsUser',
  find: (state, id) => state.people.threadsUsers.get(id),
  get({ ctx, input, node }) {
    const token = threadsToken(ctx, input);
    requireScopes(token, ['threads_basic'], 10);
    return selectFields(
      'ThreadsUser',
      {
        id: () => node.id,
        username: () => node.username,
        name: () => node.name,
        threads_profile_picture_url: () => node.profilePictureUrl,
        threads_biography: () => node.biography,
        is_verified: () => false,
      },
      parseFields(str(input, 'fields')),
      ['id'],
    );
  },
  edges: {
    threads: {
      post: ({ ctx, input, node }) => (ownUser(ctx, input, node, 'threads'), createContainer(ctx, input, node)),
      get({ ctx, input, node }) {
        const viewer = ownUser(ctx, input, node, 'threads').subjectId;
        const posts = newestFirst(ctx.state, (p) => p.userId === node.id && !p.replyToId && !p.isCarouselChild);
        return pageOf(ctx, input, posts.map((p) => mediaFields(ctx, p, input, viewer)));
      },
    },
    replies: {
      get({ ctx, input, node }) {
        const viewer = ownUser(ctx, input, node, 'replies').subjectId;
        const posts = newestFirst(ctx.state, (p) => p.userId === node.id && p.replyToId !== null);
        return pageOf(ctx, input, posts.map((p) => mediaFields(ctx, p, input, viewer)));
      },
    },
    threads_publish: { post: ({ ctx, input, node }) => (ownUser(ctx, input, node, 'threads_publish'), publishContainer(ctx, input, node)) },
    threads_publishing_limit: { get: ({ ctx, input, node }) => (ownUser(ctx, input, node, 'threads_publishing_limit'), publishingLimit(ctx, input, node)) },
    threads_insights: { get: ({ ctx, input, node }) => threadsUserInsights(ctx, input, node) },
  },
});

export const threadsContainerNode = defineNode<ThreadsContainer>({
  type: 'ThreadsContainer',
  find: (state, id) => state.threads.containers.get(id),
  get({ ctx, input, node }) {
    const token = threadsToken(ctx, input);
    if (token.subjectId !== node.userId) throw unsupportedRequest('GET', node.id);
    const { status, errorMessage } = containerStatus(ctx.state, node);
    return selectFields(
      'ThreadsContainer',
      { id: () => node.id, status: () => status, error_message: () => errorMessage ?? undefined },
      parseFields(str(input, 'fields')),
      ['id'],
    );
  },
});

export const threadsMediaNode = defineNode<ThreadsPost>({
  type: 'ThreadsMedia',
  find: (state, id) => state.threads.posts.get(id),
  get({ ctx, input, node }) {
    requireScopes(threadsToken(ctx, input), ['threads_basic'], 10);
    return mediaFields(ctx, node, input, threadsToken(ctx, input).subjectId);
  },
  delete({ ctx, input, node }) {
    const token = threadsToken(ctx, input);
    if (token.subjectId !== node.userId) throw unsupportedRequest('DELETE', node.id);
    requireScopes(token, ['threads_basic', 'threads_delete'], 10);
    const now = ctx.state.clock.now();
    if (usage(ctx.state.threads.deletes, node.userId, now) >= ctx.state.settings.limits.threadsDeletes) {
      throw graphError({ code: 9, subcode: 2207042, message: '(#9) The user has reached the limit of deletes in 24 hours' });
    }
    ctx.state.threads.deletes.push({ userId: node.userId, at: now });
    for (const id of [node.id, ...node.childIds]) ctx.state.threads.posts.delete(id);
    return { success: true, deleted_id: node.id };
  },
  edges: {
    insights: { get: ({ ctx, input, node }) => threadsMediaInsights(ctx, input, node) },
    replies: {
      get({ ctx, input, node }) {
        const viewer = readReplies(ctx, input);
        const replies = newestFirst(ctx.state, (p) => p.replyToId === node.id);
        if (bool(input, 'reverse') === false) replies.reverse();
        return pageOf(ctx, input, replies.map((p) => mediaFields(ctx, p, input, viewer)));
      },
    },
    conversation: {
      get({ ctx, input, node }) {
        const viewer = readReplies(ctx, input);
        const replies = newestFirst(ctx.state, (p) => p.rootPostId === node.id);
        return pageOf(ctx, input, replies.map((p) => mediaFields(ctx, p, input, viewer)));
      },
    },
    manage_reply: {
      post({ ctx, input, node }) {
        const token = threadsToken(ctx, input);
        requireScopes(token, ['threads_basic', 'threads_manage_replies'], 10);
        const root = node.rootPostId ? ctx.state.threads.posts.get(node.rootPostId) : undefined;
        if (!root || root.userId !== token.subjectId) throw unsupportedRequest('POST', `${node.id}/manage_reply`);
        const hide = bool(input, 'hide');
        if (hide === undefined) throw invalidParameter('(#100) The parameter hide is required.');
        node.hidden = hide;
        return { success: true };
      },
    },
  },
});

/** Reading replies needs threads_read_replies; answers who reads (for is_reply_owned_by_me). */
function readReplies(ctx: RouteContext, input: GraphInput): string {
  const token = threadsToken(ctx, input);
  requireScopes(token, ['threads_basic', 'threads_read_replies'], 10);
  return token.subjectId;
}

function newestFirst(state: SandboxState, keep: (p: ThreadsPost) => boolean): ThreadsPost[] {
  return [...state.threads.posts.values()].filter(keep).sort((a, b) => b.publishedAt - a.publishedAt);
}

/** `viewer`: the user whose token reads the media (is_reply_owned_by_me). */
function mediaFields(ctx: RouteContext, post: ThreadsPost, input: GraphInput, viewer: string) {
  const state = ctx.state;
  const user = state.people.threadsUsers.get(post.userId);
  const ref = (id: string | null) => (id ? { id } : undefined);
  const hasReplies = [...state.threads.posts.values()].some((p) => p.replyToId === post.id);
  return selectFields(
    'ThreadsMedia',
    {
      id: () => post.id,
      media_product_type: () => 'THREADS',
      media_type: () => post.mediaType,
      media_url: () => post.mediaUrl ?? undefined,
      permalink: () => `https://www.threads.net/@${user?.username ?? 'unknown'}/post/${post.shortcode}`,
      owner: () => ({ id: post.userId }),
      username: () => user?.username,
      text: () => post.text ?? undefined,
      timestamp: () => new Date(post.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
      shortcode: () => post.shortcode,
      children: () => (post.childIds.length ? { data: post.childIds.map((id) => ({ id })) } : undefined),
      is_quote_post: () => post.quotePostId !== null,
      quoted_post: () => ref(post.quotePostId),
      has_replies: () => hasReplies,
      is_reply: () => post.replyToId !== null,
      is_reply_owned_by_me: () => (post.replyToId !== null ? post.userId === viewer : undefined),
      replied_to: () => ref(post.replyToId),
      root_post: () => ref(post.rootPostId ?? post.id),
      hide_status: () => (post.hidden ? 'HIDDEN' : 'NOT_HUSHED'),
      reply_audience: () => post.replyControl.toUpperCase(),
      topic_tag: () => post.topicTag ?? undefined,
      link_attachment_url: () => post.linkAttachment ?? undefined,
      alt_text: () => post.altText ?? undefined,
    },
    parseFields(str(input, 'fields')),
    MEDIA_DEFAULTS,
  );
}
