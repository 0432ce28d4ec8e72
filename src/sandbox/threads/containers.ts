// POST /{threads-user-id}/threads (platforms.md §4.2): validates a container, stores it, and
// starts the real download of its image or video. Its status (§4.3) is computed from the
// download's outcome and the sandbox clock: IN_PROGRESS until processing is over, then
// FINISHED or ERROR (with `error_message`), PUBLISHED once used, EXPIRED after 24 hours.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import type { ThreadsUser } from './people.ts';
import { fetchMedia } from '../media/fetch.ts';
import { requireScopes } from '../meta/auth.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { bool, list, str, type GraphInput } from '../meta/params.ts';
import { isHttpUrl } from '../oauth/consent.ts';
import type { ThreadsContainer, ThreadsMediaType } from './store.ts';
import { threadsToken } from './login.ts';

const MEDIA_TYPES: readonly ThreadsMediaType[] = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];
export const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];
const TEXT_LIMIT = 500;
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
const DAY_MS = 86_400_000;

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export function createContainer(ctx: RouteContext, input: GraphInput, user: ThreadsUser): { id: string } {
  const token = threadsToken(ctx, input);
  requireScopes(token, ['threads_basic', 'threads_content_publish'], 10);
  const mediaType = str(input, 'media_type') as ThreadsMediaType | undefined;
  if (!mediaType) throw invalidParameter('(#100) The parameter media_type is required.');
  if (!MEDIA_TYPES.includes(mediaType)) throw invalidParameter('(#100) Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}');
  const isCarouselItem = bool(input, 'is_carousel_item') ?? false;
  const text = str(input, 'text') ?? null;
  if (text !== null && [...text].length > TEXT_LIMIT) throw invalidParameter(`(#100) Param text must be at most ${TEXT_LIMIT} characters long.`);
  if (mediaType === 'TEXT' && !text) throw invalidParameter('(#100) Param text is required for TEXT posts.');
  if (isCarouselItem && mediaType !== 'IMAGE' && mediaType !== 'VIDEO') throw invalidParameter('(#100) Only IMAGE and VIDEO containers can be carousel items.');
  const imageUrl = str(input, 'image_url') ?? null;
  const videoUrl = str(input, 'video_url') ?? null;
  if (mediaType === 'IMAGE' && !imageUrl) throw invalidParameter('(#100) The parameter image_url is required.');
  if (mediaType === 'VIDEO' && !videoUrl) throw invalidParameter('(#100) The parameter video_url is required.');
  const children = mediaType === 'CAROUSEL' ? carouselChildren(ctx.state, input, user) : [];
  const replyToId = str(input, 'reply_to_id') ?? null;
  if (replyToId !== null) {
    requireScopes(token, ['threads_manage_replies'], 10);
    if (!ctx.state.threads.posts.has(replyToId)) throw invalidParameter('(#100) Param reply_to_id must be a valid Threads media id.');
  }
  const quotePostId = str(input, 'quote_post_id') ?? null;
  if (quotePostId !== null && !ctx.state.threads.posts.has(quotePostId)) throw invalidParameter('(#100) Param quote_post_id must be a valid Threads media id.');
  const replyControl = str(input, 'reply_control') ?? null;
  if (replyControl !== null && !REPLY_CONTROLS.includes(replyControl)) throw invalidParameter(`(#100) Param reply_control must be one of {${REPLY_CONTROLS.join(', ')}}`);
  const topicTag = str(input, 'topic_tag') ?? null;
  if (topicTag !== null && ([...topicTag].length < 1 || [...topicTag].length > 50 || /[.&]/.test(topicTag))) {
    throw invalidParameter('(#100) Param topic_tag must be 1 to 50 characters and may not contain periods (.) or ampersands (&).');
  }
  const linkAttachment = str(input, 'link_attachment') ?? null;
  if (linkAttachment !== null && (mediaType !== 'TEXT' || !isHttpUrl(linkAttachment))) throw invalidParameter('(#100) Param link_attachment must be a URL, on TEXT posts only.');
  const altText = str(input, 'alt_text') ?? null;
  if (altText !== null && (mediaType === 'TEXT' || mediaType === 'CAROUSEL' || [...altText].length > 1000)) {
    throw invalidParameter('(#100) Param alt_text must be at most 1000 characters, on IMAGE and VIDEO only.');
  }
  const now = ctx.state.clock.now();
  const processing = ctx.state.settings.processing;
  const container: ThreadsContainer = {
    id: ctx.state.ids.numeric('threads-container', '17', 17),
    userId: user.id,
    mediaType,
    text,
    imageUrl,
    videoUrl,
    isCarouselItem,
    children,
    replyToId,
    quotePostId,
    replyControl,
    topicTag,
    linkAttachment,
    altText,
    createdAt: now,
    readyAt: now + (mediaType === 'TEXT' ? processing.threadsTextMs : processing.threadsMediaMs),
    download: 'none',
    errorMessage: null,
    publishedId: null,
  };
  ctx.state.threads.containers.set(container.id, container);
  const url = imageUrl ?? videoUrl;
  if ((mediaType === 'IMAGE' || mediaType === 'VIDEO') && url) void ctx.state.track(download(ctx.state, container, url));
  return { id: container.id };
}

function carouselChildren(state: SandboxState, input: GraphInput, user: ThreadsUser): string[] {
  const children = list(input, 'children') ?? [];
  if (children.length < 2 || children.length > 20) throw invalidParameter('(#100) A carousel must have between 2 and 20 children.');
  for (const id of children) {
    const child = state.threads.containers.get(id);
    if (!child || child.userId !== user.id || !child.isCarouselItem || child.publishedId) {
      throw invalidParameter(`(#100) Param children: ${id} is not a carousel item container of this user.`);
    }
  }
  return children;
}

/** Downloads the media for real and checks its type from its bytes (§4.4 image and video specs). */
async function download(state: SandboxState, container: ThreadsContainer, url: string): Promise<void> {
  container.download = 'pending';
  const result = await fetchMedia(url, state.settings.media);
  const video = container.mediaType === 'VIDEO';
  let error: string | null = null;
  if (!result.ok) error = video ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
  else if (video && result.type?.mime !== 'video/mp4' && result.type?.mime !== 'video/quicktime') error = 'FAILED_PROCESSING_VIDEO';
  else if (!video && result.type?.mime !== 'image/jpeg' && result.type?.mime !== 'image/png') error = 'UNKNOWN';
  else if (!video && result.size > IMAGE_MAX_BYTES) error = 'UNKNOWN';
  container.download = error ? 'failed' : 'ok';
  container.errorMessage = error;
}

export function containerStatus(state: SandboxState, container: ThreadsContainer): { status: ContainerStatus; errorMessage: string | null } {
  if (container.publishedId) return { status: 'PUBLISHED', errorMessage: null };
  const now = state.clock.now();
  if (now - container.createdAt > DAY_MS) return { status: 'EXPIRED', errorMessage: null };
  let inProgress = container.download === 'pending' || now < container.readyAt;
  if (container.download === 'failed') return { status: 'ERROR', errorMessage: container.errorMessage };
  for (const id of container.children) {
    const child = state.threads.containers.get(id);
    if (!child) continue;
    const childStatus = containerStatus(state, child);
    if (childStatus.status === 'ERROR') return childStatus;
    if (childStatus.status === 'IN_PROGRESS') inProgress = true;
  }
  return { status: inProgress ? 'IN_PROGRESS' : 'FINISHED', errorMessage: null };
}
