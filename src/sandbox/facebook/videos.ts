// Page videos, Reels and video stories (platforms.md §3.1). `/videos` takes a `file_url` that
// the sandbox fetches in the background. Reels and stories go start → upload to
// rupload.facebook.com (rupload.ts) → finish; Reels finish answers only `{"success":true}`
// (§12; the post id is the video's `post_id`), stories answer `post_id` at once. Reels are
// limited to 30 API publishes per Page per rolling 24 h, counted at finish.
import type { FacebookPage } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { bool, str, type GraphInput } from '../meta/params.ts';
import { usageIn } from '../meta/store.ts';
import { isHttpUrl } from '../oauth/consent.ts';
import { scheduledTime } from './feed.ts';
import { createPost, MESSAGE_LIMIT } from './posts.ts';
import type { FbVideo, VideoFlow } from './store.ts';
import { fetchVideo } from './video-status.ts';

function newVideo(ctx: RouteContext, page: FacebookPage, flow: VideoFlow, input: GraphInput): FbVideo {
  const description = str(input, 'description') ?? null;
  if (description !== null && [...description].length > MESSAGE_LIMIT) throw invalidParameter(`(#100) Param description must be at most ${MESSAGE_LIMIT} characters long.`);
  const video: FbVideo = {
    id: ctx.state.ids.numeric('fb-video', '1', 16),
    pageId: page.id,
    flow,
    title: str(input, 'title') ?? null,
    description,
    upload: 'not_started',
    bytes: 0,
    readyAt: null,
    error: null,
    publishStatus: null,
    scheduledAt: null,
    postId: null,
    createdAt: ctx.state.clock.now(),
  };
  ctx.state.meta.fbVideos.set(video.id, video);
  return video;
}

/** POST /{page-id}/videos with file_url (multipart `source` uploads are not simulated). */
export function postVideo(ctx: RouteContext, input: GraphInput, page: FacebookPage): { id: string } {
  const fileUrl = str(input, 'file_url');
  if (!fileUrl || !isHttpUrl(fileUrl)) throw graphError({ code: 390, message: '(#390) There was a problem uploading your video file. Please try again with a file_url or source.' });
  const published = bool(input, 'published') ?? true;
  const scheduledAt = scheduledTime(ctx, input, published);
  const video = newVideo(ctx, page, 'video', input);
  video.publishStatus = scheduledAt ? 'scheduled' : published ? 'published' : 'draft';
  video.scheduledAt = scheduledAt;
  video.postId = createPost(ctx.state, page, { kind: 'video', message: video.description, videoId: video.id, published: published, scheduledAt }).id;
  void ctx.state.track(fetchVideo(ctx.state, video, fileUrl));
  return { id: video.id };
}

const uploadUrl = (ctx: RouteContext, video: FbVideo) => `${ctx.baseUrl}/rupload.facebook.com/video-upload/${ctx.version ?? 'v24.0'}/${video.id}`;

function startedVideo(ctx: RouteContext, input: GraphInput, page: FacebookPage, flow: VideoFlow): FbVideo {
  const id = str(input, 'video_id');
  const video = id ? ctx.state.meta.fbVideos.get(id) : undefined;
  if (!video || video.pageId !== page.id || video.flow !== flow) throw invalidParameter('(#100) Param video_id must be a video started on this Page with upload_phase=start');
  if (video.upload !== 'complete') throw invalidParameter('(#100) The video has not been uploaded yet; upload it to the upload_url before upload_phase=finish');
  if (video.publishStatus) throw invalidParameter('(#100) This video has already been finished');
  return video;
}

/** POST /{page-id}/video_reels upload_phase=start|finish. */
export function videoReels(ctx: RouteContext, input: GraphInput, page: FacebookPage): unknown {
  const phase = str(input, 'upload_phase');
  if (phase === 'start') {
    const video = newVideo(ctx, page, 'reel', input);
    return { video_id: video.id, upload_url: uploadUrl(ctx, video) };
  }
  if (phase !== 'finish') throw invalidParameter('(#100) Param upload_phase must be one of {start, finish}');
  const video = startedVideo(ctx, input, page, 'reel');
  const state = (str(input, 'video_state') ?? 'PUBLISHED').toUpperCase();
  if (!['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(state)) throw invalidParameter('(#100) Param video_state must be one of {PUBLISHED, DRAFT, SCHEDULED}');
  const scheduledAt = state === 'SCHEDULED' ? scheduledTime(ctx, input, false) : null;
  if (state === 'SCHEDULED' && scheduledAt === null) throw invalidParameter('(#100) Param scheduled_publish_time is required for video_state=SCHEDULED');
  const now = ctx.state.clock.now();
  if (state !== 'DRAFT') {
    if (usageIn(ctx.state.meta.reelsPublishes, page.id, now) >= ctx.state.settings.limits.facebookReels) {
      throw graphError({ code: 100, message: `(#100) This Page has reached the limit of ${ctx.state.settings.limits.facebookReels} Reels published through the API in 24 hours.` });
    }
    ctx.state.meta.reelsPublishes.push({ accountId: page.id, at: now });
  }
  video.description = str(input, 'description') ?? video.description;
  video.title = str(input, 'title') ?? video.title;
  video.publishStatus = state === 'PUBLISHED' ? 'published' : state === 'SCHEDULED' ? 'scheduled' : 'draft';
  video.scheduledAt = scheduledAt;
  video.postId = createPost(ctx.state, page, { kind: 'reel', message: video.description, videoId: video.id, published: state === 'PUBLISHED', scheduledAt }).id;
  return { success: true };
}

/** POST /{page-id}/video_stories upload_phase=start|finish. */
export function videoStories(ctx: RouteContext, input: GraphInput, page: FacebookPage): unknown {
  const phase = str(input, 'upload_phase');
  if (phase === 'start') {
    const video = newVideo(ctx, page, 'story', input);
    return { video_id: video.id, upload_url: uploadUrl(ctx, video) };
  }
  if (phase !== 'finish') throw invalidParameter('(#100) Param upload_phase must be one of {start, finish}');
  const video = startedVideo(ctx, input, page, 'story');
  video.publishStatus = 'published';
  video.postId = createPost(ctx.state, page, { kind: 'story', videoId: video.id }).id;
  return { success: true, post_id: video.postId };
}
