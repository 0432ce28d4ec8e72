// The video resource (youtube.md §5): the rules YouTube applies to the snippet and status a
// client writes (videos.insert's start request, videos.update), the resource as read, and
// videos.list / update / delete on www.googleapis.com (youtube.md §6).
import type { RouteContext } from '../core/router.ts';
import { obj } from '../core/control.ts';
import { actingChannel, charge, MANAGE, READ, youtubeAuth } from './auth.ts';
import { badRequest, googleError } from './errors.ts';
import type { YouTubeVideo } from './store.ts';

/** Categories assignable in the sandbox's region (videoCategories.list, US). */
export const CATEGORIES = new Set(['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29']);
const PRIVACY = new Set(['public', 'unlisted', 'private']);
const LICENSES = new Set(['youtube', 'creativeCommon']);

export interface WrittenVideo {
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  defaultLanguage: string | null;
  privacyStatus: string;
  publishAt: string | null;
  selfDeclaredMadeForKids: boolean | null;
  containsSyntheticMedia: boolean;
  embeddable: boolean;
  license: string;
}

/** A tag with a space is quoted: it counts two more characters toward the 500 (youtube.md §5). */
export const tagsLength = (tags: string[]): number => tags.reduce((n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);

/** The snippet's rules, shared by insert and update. */
export function checkSnippet(snippet: Record<string, unknown>): Pick<WrittenVideo, 'title' | 'description' | 'tags' | 'categoryId' | 'defaultLanguage'> {
  const title = snippet.title;
  if (typeof title !== 'string' || !title.trim()) throw badRequest('invalidTitle', 'The request metadata specifies an invalid or empty video title.');
  if ([...title].length > 100 || /[<>]/.test(title)) throw badRequest('invalidTitle', 'The request metadata specifies an invalid video title.');
  const description = snippet.description ?? '';
  if (typeof description !== 'string' || Buffer.byteLength(description, 'utf8') > 5000 || /[<>]/.test(description)) throw badRequest('invalidDescription', 'The request metadata specifies an invalid video description.');
  const tags = snippet.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string') || tagsLength(tags as string[]) > 500) throw badRequest('invalidTags', 'The request metadata specifies invalid video keywords.');
  const categoryId = snippet.categoryId;
  if (typeof categoryId !== 'string' || !CATEGORIES.has(categoryId)) throw badRequest('invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
  const defaultLanguage = typeof snippet.defaultLanguage === 'string' ? snippet.defaultLanguage : null;
  return { title, description, tags: tags as string[], categoryId, defaultLanguage };
}

/** The status rules: publishAt only on a private video, in the future. */
export function checkStatus(status: Record<string, unknown>, now: number): Omit<WrittenVideo, 'title' | 'description' | 'tags' | 'categoryId' | 'defaultLanguage'> {
  const privacyStatus = status.privacyStatus ?? 'public';
  if (typeof privacyStatus !== 'string' || !PRIVACY.has(privacyStatus)) throw badRequest('invalidVideoMetadata', 'The request metadata is invalid: status.privacyStatus.');
  let publishAt: string | null = null;
  if (status.publishAt !== undefined) {
    const at = typeof status.publishAt === 'string' ? Date.parse(status.publishAt) : Number.NaN;
    if (Number.isNaN(at) || privacyStatus !== 'private' || at <= now) throw badRequest('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.');
    publishAt = new Date(at).toISOString();
  }
  const license = status.license ?? 'youtube';
  if (typeof license !== 'string' || !LICENSES.has(license)) throw badRequest('invalidVideoMetadata', 'The request metadata is invalid: status.license.');
  for (const key of ['selfDeclaredMadeForKids', 'containsSyntheticMedia', 'embeddable'] as const) {
    if (status[key] !== undefined && typeof status[key] !== 'boolean') throw badRequest('invalidVideoMetadata', `The request metadata is invalid: status.${key}.`);
  }
  if (status.madeForKids !== undefined) throw badRequest('invalidVideoMetadata', 'status.madeForKids is read-only: declare the audience with status.selfDeclaredMadeForKids.');
  return {
    privacyStatus,
    publishAt,
    // Not declared: YouTube accepts the upload and asks the owner in YouTube Studio.
    selfDeclaredMadeForKids: typeof status.selfDeclaredMadeForKids === 'boolean' ? status.selfDeclaredMadeForKids : null,
    containsSyntheticMedia: status.containsSyntheticMedia === true,
    embeddable: status.embeddable !== false,
    license,
  };
}

/** Processing ends at readyAt; a scheduled video turns public at publishAt. */
export function settleVideo(ctx: RouteContext, video: YouTubeVideo): YouTubeVideo {
  const now = ctx.state.clock.now();
  if (video.uploadStatus === 'uploaded' && video.readyAt <= now) video.uploadStatus = 'processed';
  if (video.publishAt && Date.parse(video.publishAt) <= now && !video.lockedPrivate) {
    video.privacyStatus = 'public';
    video.publishAt = null;
  }
  return video;
}

export function videoResource(ctx: RouteContext, video: YouTubeVideo, parts: string[]): Record<string, unknown> {
  settleVideo(ctx, video);
  const resource: Record<string, unknown> = { kind: 'youtube#video', etag: `"${video.id}-${video.title.length}"`, id: video.id };
  if (parts.includes('snippet')) {
    const channel = ctx.state.people.youtubeChannels.get(video.channelId);
    resource.snippet = {
      publishedAt: new Date(video.createdAt).toISOString(),
      channelId: video.channelId,
      title: video.title,
      description: video.description,
      ...(video.tags.length ? { tags: video.tags } : {}),
      categoryId: video.categoryId,
      channelTitle: channel?.title ?? '',
      ...(video.defaultLanguage ? { defaultLanguage: video.defaultLanguage } : {}),
      thumbnails: { default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg`, width: 120, height: 90 } },
    };
  }
  if (parts.includes('status')) {
    resource.status = {
      uploadStatus: video.uploadStatus,
      ...(video.failureReason ? { failureReason: video.failureReason } : {}),
      privacyStatus: video.privacyStatus,
      ...(video.publishAt ? { publishAt: video.publishAt } : {}),
      license: video.license,
      embeddable: video.embeddable,
      publicStatsViewable: true,
      // YouTube's decision; the owner's declaration when made.
      ...(video.selfDeclaredMadeForKids !== null ? { madeForKids: video.selfDeclaredMadeForKids, selfDeclaredMadeForKids: video.selfDeclaredMadeForKids } : {}),
      containsSyntheticMedia: video.containsSyntheticMedia,
    };
  }
  if (parts.includes('statistics')) {
    const comments = [...ctx.state.youtube.comments.values()].filter((c) => c.videoId === video.id && !c.deleted && c.moderationStatus === 'published').length;
    resource.statistics = { viewCount: String(video.stats.viewCount), likeCount: String(video.stats.likeCount), favoriteCount: String(video.stats.favoriteCount), commentCount: String(comments) };
  }
  if (parts.includes('processingDetails')) {
    resource.processingDetails = { processingStatus: video.uploadStatus === 'processed' ? 'succeeded' : video.uploadStatus === 'failed' ? 'failed' : 'processing' };
  }
  return resource;
}

export const partsOf = (ctx: RouteContext): string[] => {
  const part = ctx.query.part;
  if (!part) throw googleError(400, 'required', 'Required parameter: part', 'global');
  return part.split(',').map((p) => p.trim());
};

/** A live video of the caller's channel (404 videoNotFound / 403 forbidden otherwise). */
export function ownVideo(ctx: RouteContext, channelId: string, id: string): YouTubeVideo {
  const video = ctx.state.youtube.videos.get(id);
  if (!video || video.deleted) throw googleError(404, 'videoNotFound', 'The video that you are trying to update cannot be found.');
  if (video.channelId !== channelId) throw googleError(403, 'forbidden', 'The video that you are trying to update cannot be updated by this user.');
  return video;
}

/** GET /youtube/v3/videos?id=…&part=… (1 unit): missing and deleted ids are left out. */
export function listVideos(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, READ);
  const parts = partsOf(ctx);
  charge(ctx, caller, 1);
  const ids = (ctx.query.id ?? '').split(',').filter(Boolean);
  const items = ids
    .map((id) => ctx.state.youtube.videos.get(id))
    .filter((v): v is YouTubeVideo => v !== undefined && !v.deleted)
    // Private videos are seen by their channel only.
    .filter((v) => v.privacyStatus !== 'private' || caller.channels.some((c) => c.id === v.channelId))
    .map((v) => videoResource(ctx, v, parts));
  return { kind: 'youtube#videoListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } };
}

/** PUT /youtube/v3/videos?part=snippet (50 units): the whole snippet is replaced (title and categoryId required again). */
export function updateVideo(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  const parts = partsOf(ctx);
  charge(ctx, caller, 50);
  const body = obj(ctx.body);
  const video = ownVideo(ctx, actingChannel(caller).id, typeof body.id === 'string' ? body.id : '');
  if (parts.includes('snippet')) {
    const snippet = checkSnippet(obj(body.snippet));
    Object.assign(video, snippet);
  }
  if (parts.includes('status')) {
    const status = checkStatus(obj(body.status), ctx.state.clock.now());
    Object.assign(video, { ...status, privacyStatus: video.lockedPrivate ? 'private' : status.privacyStatus, requestedPrivacy: status.privacyStatus });
  }
  return videoResource(ctx, video, parts);
}

/** DELETE /youtube/v3/videos?id= (50 units): 204. */
export function deleteVideo(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  charge(ctx, caller, 50);
  const video = ownVideo(ctx, actingChannel(caller).id, ctx.query.id ?? '');
  video.deleted = true;
  return ctx.reply.status(204).send();
}
