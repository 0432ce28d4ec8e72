// POST /{threads-user-id}/threads_publish?creation_id=… (platforms.md §4.3) and the 24-hour
// quotas of §4.4: 250 posts, 1000 replies, 100 deletes, counted over a rolling window and
// reported by GET /{threads-user-id}/threads_publishing_limit.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import type { ThreadsUser } from './people.ts';
import { requireScopes } from '../meta/auth.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { containerStatus } from './containers.ts';
import { threadsToken } from './login.ts';
import { usage, type ThreadsContainer, type ThreadsPost } from './store.ts';
import { emitReply } from './webhooks.ts';

const DAY_SECONDS = 86_400;

export function publishContainer(ctx: RouteContext, input: GraphInput, user: ThreadsUser): { id: string } {
  const token = threadsToken(ctx, input);
  requireScopes(token, ['threads_basic', 'threads_content_publish'], 10);
  const creationId = str(input, 'creation_id');
  if (!creationId) throw invalidParameter('(#100) The parameter creation_id is required.');
  const state = ctx.state;
  const container = state.threads.containers.get(creationId);
  if (!container || container.userId !== user.id) throw invalidParameter('(#100) Param creation_id must be a valid container id of this user.', 4279009);
  if (container.isCarouselItem) throw invalidParameter('(#100) A carousel item cannot be published on its own; publish the carousel container.');
  const { status, errorMessage } = containerStatus(state, container);
  switch (status) {
    case 'PUBLISHED':
      throw invalidParameter('(#100) This container has already been published.');
    case 'EXPIRED':
      throw graphError({ code: 24, subcode: 2207008, message: '(#24) The media container has expired. Create a new container.' });
    case 'ERROR':
      throw invalidParameter(`(#100) The media container failed to process: ${errorMessage ?? 'UNKNOWN'}`);
    case 'IN_PROGRESS':
      // Same wording as Instagram's "not ready" error (§2.4 9007/2207027); Threads' own code is unconfirmed.
      throw graphError({
        code: 9007,
        subcode: 2207027,
        message: '(#9007) Media ID is not available',
        userTitle: 'Media not ready for publishing',
        userMessage: 'The media is not ready for publishing, please wait for a moment',
      });
    case 'FINISHED':
      break;
  }
  const now = state.clock.now();
  const isReply = container.replyToId !== null;
  const limits = state.settings.limits;
  const used = usage(isReply ? state.threads.replies : state.threads.publishes, user.id, now);
  if (used >= (isReply ? limits.threadsReplies : limits.threadsPosts)) {
    throw graphError({
      code: 9,
      subcode: 2207042,
      message: `(#9) The user has reached the limit of ${isReply ? limits.threadsReplies : limits.threadsPosts} ${isReply ? 'replies' : 'posts'} in 24 hours`,
      userTitle: 'Publishing limit reached',
    });
  }
  const post = toPost(state, container, user, now, false);
  (isReply ? state.threads.replies : state.threads.publishes).push({ userId: user.id, at: now });
  if (isReply) emitReply(state, post);
  return { id: post.id };
}

function toPost(state: SandboxState, container: ThreadsContainer, user: ThreadsUser, now: number, isCarouselChild: boolean): ThreadsPost {
  const childIds = container.children.flatMap((id) => {
    const child = state.threads.containers.get(id);
    return child ? [toPost(state, child, user, now, true).id] : [];
  });
  const parent = container.replyToId ? state.threads.posts.get(container.replyToId) : undefined;
  const post: ThreadsPost = {
    id: state.ids.numeric('threads-media', '18', 17),
    userId: user.id,
    containerId: container.id,
    mediaType: container.mediaType === 'TEXT' ? 'TEXT_POST' : container.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : container.mediaType,
    text: container.text,
    mediaUrl: container.imageUrl ?? container.videoUrl,
    childIds,
    replyToId: container.replyToId,
    rootPostId: parent ? (parent.rootPostId ?? parent.id) : null,
    quotePostId: container.quotePostId,
    replyControl: container.replyControl ?? 'everyone',
    topicTag: container.topicTag,
    linkAttachment: container.linkAttachment ?? firstUrl(container.text),
    altText: container.altText,
    publishedAt: now,
    shortcode: state.ids.opaque('threads-shortcode', 11),
    hidden: false,
    isCarouselChild,
  };
  container.publishedId = post.id;
  state.threads.posts.set(post.id, post);
  return post;
}

/** With no link_attachment, the first URL in the text becomes the link preview (§4.2). */
function firstUrl(text: string | null): string | null {
  return text ? (/https?:\/\/\S+/.exec(text)?.[0] ?? null) : null;
}

export function publishingLimit(ctx: RouteContext, input: GraphInput, user: ThreadsUser): unknown {
  const token = threadsToken(ctx, input);
  requireScopes(token, ['threads_basic'], 10);
  const state = ctx.state;
  const now = state.clock.now();
  const limits = state.settings.limits;
  const config = (total: number) => ({ quota_total: total, quota_duration: DAY_SECONDS });
  const getters = {
    quota_usage: () => usage(state.threads.publishes, user.id, now),
    config: () => config(limits.threadsPosts),
    reply_quota_usage: () => usage(state.threads.replies, user.id, now),
    reply_config: () => config(limits.threadsReplies),
    delete_quota_usage: () => usage(state.threads.deletes, user.id, now),
    delete_config: () => config(limits.threadsDeletes),
    location_search_quota_usage: () => 0,
    location_search_config: () => config(500),
  };
  const row = selectFields('ThreadsPublishingLimit', getters, parseFields(str(input, 'fields')), ['quota_usage', 'config']);
  return { data: [row] };
}
