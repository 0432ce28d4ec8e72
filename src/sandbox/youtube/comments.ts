// Comments (youtube.md §6): commentThreads.list (a video's threads, newest first, pages of
// maxResults 1–100) and insert (a top-level comment), comments.list (a thread's replies), insert
// (a reply), delete (own comments) and setModerationStatus (the video owner's: published,
// heldForReview, rejected). Text ≤ 10,000 characters; a video with comments off answers 403.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { obj } from '../core/control.ts';
import { actingChannel, charge, MANAGE, READ, youtubeAuth } from './auth.ts';
import { badRequest, googleError } from './errors.ts';
import type { YouTubeComment, YouTubeVideo } from './store.ts';
import { partsOf } from './videos.ts';

const TEXT_MAX = 10_000;

export function addComment(state: SandboxState, video: YouTubeVideo, input: { authorChannelId: string; authorDisplayName: string; text: string; parentId: string | null }): YouTubeComment {
  const now = state.clock.now();
  const comment: YouTubeComment = {
    id: input.parentId ? `${input.parentId}.${state.ids.opaque('youtube-reply', 22)}` : `Ug${state.ids.opaque('youtube-comment', 24)}`,
    videoId: video.id,
    parentId: input.parentId,
    authorChannelId: input.authorChannelId,
    authorDisplayName: input.authorDisplayName,
    textOriginal: input.text,
    publishedAt: now,
    updatedAt: now,
    moderationStatus: 'published',
    deleted: false,
  };
  state.youtube.comments.set(comment.id, comment);
  return comment;
}

function commentResource(c: YouTubeComment): Record<string, unknown> {
  return {
    kind: 'youtube#comment',
    id: c.id,
    snippet: {
      videoId: c.videoId,
      textDisplay: c.textOriginal,
      textOriginal: c.textOriginal,
      ...(c.parentId ? { parentId: c.parentId } : {}),
      authorDisplayName: c.authorDisplayName,
      authorChannelId: { value: c.authorChannelId },
      canRate: true,
      viewerRating: 'none',
      likeCount: 0,
      moderationStatus: c.moderationStatus,
      publishedAt: new Date(c.publishedAt).toISOString(),
      updatedAt: new Date(c.updatedAt).toISOString(),
    },
  };
}

const live = (state: SandboxState) => [...state.youtube.comments.values()].filter((c) => !c.deleted);

function threadResource(state: SandboxState, top: YouTubeComment, withReplies: boolean): Record<string, unknown> {
  const replies = live(state).filter((c) => c.parentId === top.id && c.moderationStatus === 'published');
  return {
    kind: 'youtube#commentThread',
    id: top.id,
    snippet: { videoId: top.videoId, topLevelComment: commentResource(top), canReply: true, totalReplyCount: replies.length, isPublic: true },
    ...(withReplies && replies.length ? { replies: { comments: replies.slice(0, 5).map(commentResource) } } : {}),
  };
}

function videoOf(ctx: RouteContext, id: string): YouTubeVideo {
  const video = ctx.state.youtube.videos.get(id);
  if (!video || video.deleted) throw googleError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
  return video;
}

function page<T>(ctx: RouteContext, items: T[]): { items: T[]; nextPageToken?: string } {
  const max = Number(ctx.query.maxResults ?? '20');
  if (!Number.isInteger(max) || max < 1 || max > 100) throw badRequest('invalidParameter', 'maxResults must be between 1 and 100.');
  const start = ctx.query.pageToken ? Number(Buffer.from(ctx.query.pageToken, 'base64url').toString()) : 0;
  if (!Number.isInteger(start) || start < 0) throw badRequest('invalidPageToken', 'The pageToken is invalid.');
  const slice = items.slice(start, start + max);
  return start + max < items.length ? { items: slice, nextPageToken: Buffer.from(String(start + max)).toString('base64url') } : { items: slice };
}

/** GET /youtube/v3/commentThreads?videoId=&part= (1 unit). Held or rejected comments are seen by the video's owner with moderationStatus only. */
export function listThreads(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, READ);
  const parts = partsOf(ctx);
  charge(ctx, caller, 1);
  const video = videoOf(ctx, ctx.query.videoId ?? '');
  const status = ctx.query.moderationStatus ?? 'published';
  if (status !== 'published' && !caller.channels.some((c) => c.id === video.channelId)) throw googleError(403, 'forbidden', 'Only the video owner may list comments held for review or rejected.');
  const tops = live(ctx.state)
    .filter((c) => c.videoId === video.id && c.parentId === null && c.moderationStatus === status)
    .sort((a, b) => b.publishedAt - a.publishedAt || b.id.localeCompare(a.id));
  const { items, nextPageToken } = page(ctx, tops);
  return { kind: 'youtube#commentThreadListResponse', ...(nextPageToken ? { nextPageToken } : {}), pageInfo: { totalResults: tops.length, resultsPerPage: items.length }, items: items.map((t) => threadResource(ctx.state, t, parts.includes('replies'))) };
}

function checkText(text: unknown): string {
  if (typeof text !== 'string' || !text.trim()) throw badRequest('commentTextRequired', 'The comment resource must contain a snippet.textOriginal.');
  if ([...text].length > TEXT_MAX) throw badRequest('commentTextTooLong', 'The comment resource contains too many characters in snippet.textOriginal.');
  return text;
}

/** POST /youtube/v3/commentThreads?part=snippet (50 units): a top-level comment as the caller's channel. */
export function insertThread(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  partsOf(ctx);
  charge(ctx, caller, 50);
  const channel = actingChannel(caller);
  const snippet = obj(obj(ctx.body).snippet);
  const video = videoOf(ctx, typeof snippet.videoId === 'string' ? snippet.videoId : '');
  const text = checkText(obj(obj(snippet.topLevelComment).snippet).textOriginal);
  const comment = addComment(ctx.state, video, { authorChannelId: channel.id, authorDisplayName: channel.title, text, parentId: null });
  return threadResource(ctx.state, comment, false);
}

/** GET /youtube/v3/comments?parentId=&part= (1 unit): a thread's replies, oldest first. */
export function listComments(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, READ);
  partsOf(ctx);
  charge(ctx, caller, 1);
  const parentId = ctx.query.parentId ?? '';
  const ids = ctx.query.id?.split(',') ?? null;
  if (!parentId && !ids) throw badRequest('missingRequiredParameter', 'No filter selected. Expected one of: id, parentId');
  const found = live(ctx.state)
    .filter((c) => (ids ? ids.includes(c.id) : c.parentId === parentId && c.moderationStatus === 'published'))
    .sort((a, b) => a.publishedAt - b.publishedAt || a.id.localeCompare(b.id));
  const { items, nextPageToken } = page(ctx, found);
  return { kind: 'youtube#commentListResponse', ...(nextPageToken ? { nextPageToken } : {}), items: items.map(commentResource) };
}

/** POST /youtube/v3/comments?part=snippet (50 units): a reply to a top-level comment. */
export function insertComment(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  partsOf(ctx);
  charge(ctx, caller, 50);
  const channel = actingChannel(caller);
  const snippet = obj(obj(ctx.body).snippet);
  const parent = ctx.state.youtube.comments.get(typeof snippet.parentId === 'string' ? snippet.parentId : '');
  if (!parent || parent.deleted) throw googleError(404, 'parentCommentNotFound', 'The specified parent comment could not be found.');
  if (parent.parentId !== null) throw badRequest('operationNotSupported', 'Replies can only be made to top-level comments.');
  const text = checkText(snippet.textOriginal);
  return commentResource(addComment(ctx.state, videoOf(ctx, parent.videoId), { authorChannelId: channel.id, authorDisplayName: channel.title, text, parentId: parent.id }));
}

/** DELETE /youtube/v3/comments?id= (50 units): the caller's own comment; 204. */
export function deleteComment(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  charge(ctx, caller, 50);
  const comment = ctx.state.youtube.comments.get(ctx.query.id ?? '');
  if (!comment || comment.deleted) throw googleError(404, 'commentNotFound', 'The specified comment could not be found.');
  if (!caller.channels.some((c) => c.id === comment.authorChannelId)) throw googleError(403, 'forbidden', 'The comment could not be deleted: it is not yours.');
  comment.deleted = true;
  for (const reply of live(ctx.state).filter((c) => c.parentId === comment.id)) reply.deleted = true;
  return ctx.reply.status(204).send();
}

/** POST /youtube/v3/comments/setModerationStatus?id=&moderationStatus= (50 units): the video owner's; 204. */
export function setModerationStatus(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  charge(ctx, caller, 50);
  const status = ctx.query.moderationStatus;
  if (status !== 'published' && status !== 'heldForReview' && status !== 'rejected') throw badRequest('invalidModerationStatus', 'moderationStatus must be heldForReview, published or rejected.');
  const ids = (ctx.query.id ?? '').split(',').filter(Boolean);
  for (const id of ids) {
    const comment = ctx.state.youtube.comments.get(id);
    if (!comment || comment.deleted) throw googleError(404, 'commentNotFound', 'The specified comment could not be found.');
    const video = ctx.state.youtube.videos.get(comment.videoId);
    if (!video || !caller.channels.some((c) => c.id === video.channelId)) throw googleError(403, 'forbidden', 'Only the owner of the video may moderate its comments.');
    if (status === 'published' && comment.moderationStatus === 'published') continue;
    comment.moderationStatus = status;
  }
  return ctx.reply.status(204).send();
}
