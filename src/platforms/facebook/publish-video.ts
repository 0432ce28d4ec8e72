// Facebook Page videos (platforms.md §3.1, §12): `/videos` with file_url, and Reels and video
// stories through start → rupload.facebook.com (file_url header) → finish. The video id is saved
// right after the first call, and each later step (uploaded, finished) once it is done, so a
// resumed attempt picks up at the step it reached. Processing is waited for through
// `processing` outcomes; the post id is read from the video once it is ready (Reels `finish`
// answers only {success:true}).
import { GRAPH_VERSION } from '../context.ts';
import { createOnce, isWaiting, type OnceContext } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { obj, str } from '../json.ts';
import type { GraphCall } from '../meta/publish-steps.ts';
import { findStory, findVideo } from './reconcile.ts';
import { processingDelay, progressNumber } from '../publisher.ts';
import type { PublishOutcome, PublishProgress } from '../types.ts';

const MAX_CHECKS = 20;

export interface VideoStep {
  http: PlatformHttp;
  call: GraphCall;
  token: string;
  pageId: string;
  progress: PublishProgress;
  store: () => Promise<void>;
  once: OnceContext;
  isTaken: (platformPostId: string) => Promise<boolean>;
}

export type VideoResult = { postId: string } | Extract<PublishOutcome, { status: 'processing' }>;

type VideoState = 'uploading' | 'uploaded' | 'ready';

/** Where the video is: still uploading, uploaded (processing), or ready; a failure throws. */
async function videoState(call: GraphCall, videoId: string): Promise<{ state: VideoState; postId: string | null }> {
  const body = await call('GET', `/${videoId}`, { fields: 'status,post_id' });
  const status = obj(body.status);
  const videoStatus = str(status.video_status);
  if (videoStatus === 'error' || videoStatus === 'upload_failed' || videoStatus === 'expired') {
    const reason = str(obj(obj(status.processing_phase).error).message) ?? videoStatus;
    throw new PlatformError('invalid', `Facebook could not process the video: ${reason}`, { platform: 'facebook' });
  }
  const state: VideoState = videoStatus === 'ready' ? 'ready' : videoStatus === 'uploading' || videoStatus === undefined ? 'uploading' : 'uploaded';
  return { state, postId: str(body.post_id) };
}

/** Waits (a `processing` outcome) unless the video has reached `wanted`. */
async function waitFor(step: VideoStep, videoId: string, wanted: VideoState): Promise<VideoResult | { state: VideoState; postId: string | null }> {
  const seen = await videoState(step.call, videoId);
  const reached = wanted === 'uploaded' ? seen.state !== 'uploading' : seen.state === 'ready';
  if (reached) return seen;
  const checks = progressNumber(step.progress, 'checks');
  step.progress.checks = checks >= MAX_CHECKS ? 0 : checks + 1;
  await step.store();
  if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'Facebook did not finish processing the video in time', { platform: 'facebook' });
  return { status: 'processing', checkAfterMs: processingDelay(checks) };
}

/** Whether a Reel's publishing phase has begun (its finish call went through). */
async function reelPublishing(call: GraphCall, videoId: string): Promise<boolean> {
  const status = obj((await call('GET', `/${videoId}`, { fields: 'status' })).status);
  const phase = str(obj(status.publishing_phase).status);
  return phase !== null && phase !== 'not_started';
}

/** One video on the Page feed: `/videos` fetches file_url itself; the post appears when ready. */
export async function publishFeedVideo(step: VideoStep, url: string, description: string, title: string | undefined): Promise<VideoResult> {
  let videoId = str(step.progress.videoId);
  if (!videoId) {
    // One call uploads and posts the video: made once, an interrupted one found by its description.
    const made = await createOnce(step.once, {
      key: 'video',
      make: async () => {
        const id = str((await step.call('POST', `/${step.pageId}/videos`, { file_url: url, description: description || undefined, title })).id);
        if (!id) throw new PlatformError('transient', 'Facebook answered the video upload without an id', { platform: 'facebook' });
        return id;
      },
      find: (since) => findVideo(step.call, step.pageId, description, since),
    });
    if (isWaiting(made)) return made;
    videoId = made;
    Object.assign(step.progress, { videoId, checks: 0 });
    await step.store();
  }
  return ready(step, videoId);
}

async function ready(step: VideoStep, videoId: string): Promise<VideoResult> {
  const seen = await waitFor(step, videoId, 'ready');
  if (isWaiting(seen)) return seen;
  if (!seen.postId) throw new PlatformError('transient', 'the video is ready but Facebook has not given its post id yet', { platform: 'facebook' });
  return { postId: seen.postId };
}

/** Reels (`video_reels`) and video stories (`video_stories`): start, upload by URL, finish. */
export async function publishUploadedVideo(step: VideoStep, edge: 'video_reels' | 'video_stories', url: string, finish: Record<string, string | undefined>): Promise<VideoResult> {
  const { progress, store, call, pageId } = step;
  let videoId = str(progress.videoId);
  if (!videoId) {
    videoId = str((await call('POST', `/${pageId}/${edge}`, { upload_phase: 'start' })).video_id);
    if (!videoId) throw new PlatformError('transient', `Facebook answered the ${edge} start without a video_id`, { platform: 'facebook' });
    Object.assign(progress, { videoId, checks: 0 });
    await store();
  }
  if (progress.uploaded !== true) {
    await rupload(step, videoId, url);
    Object.assign(progress, { uploaded: true, checks: 0 });
    await store();
  }
  if (progress.finished === undefined) {
    const uploaded = await waitFor(step, videoId, 'uploaded');
    if (isWaiting(uploaded)) return uploaded;
    // Finishing publishes: made once. An interrupted story is found among the Page's stories; an
    // interrupted Reel shows in its video's publishing phase.
    const answer = await createOnce(step.once, {
      key: 'finish',
      make: async () => str((await call('POST', `/${pageId}/${edge}`, { upload_phase: 'finish', video_id: videoId, ...finish })).post_id) ?? true,
      find: async (since) => (edge === 'video_stories' ? findStory(call, pageId, videoId, since) : (await reelPublishing(call, videoId)) ? true : null),
    });
    if (isWaiting(answer)) return answer;
    // Stories answer their post id at once; Reels only {success:true} (§12).
    Object.assign(progress, { finished: answer, checks: 0 });
    await store();
  }
  const storyPost = str(progress.finished);
  return storyPost ? { postId: storyPost } : ready(step, videoId);
}

/**
 * The upload host takes `Authorization: OAuth {page-token}` and the file's URL in a `file_url`
 * header, and answers `{success:true}` or `{debug_info:{retriable,type,message}}`. The URL is
 * built from the video id as §3.1 documents it (the start answer's upload_url is the same).
 */
async function rupload(step: VideoStep, videoId: string, url: string): Promise<void> {
  const response = await step.http.send('facebook', {
    method: 'POST',
    url: `https://rupload.facebook.com/video-upload/${GRAPH_VERSION}/${videoId}`,
    headers: { authorization: `OAuth ${step.token}`, file_url: url },
  });
  const body = obj(response.body);
  if (response.status === 200 && body.success === true) return;
  const info = obj(body.debug_info);
  const retriable = info.retriable === true || response.status >= 500;
  throw new PlatformError(retriable ? 'transient' : 'invalid', `the video upload failed: ${str(info.message) ?? `HTTP ${response.status}`}`, {
    platform: 'facebook',
    status: response.status,
    ...(str(info.type) ? { code: str(info.type) ?? '' } : {}),
  });
}
