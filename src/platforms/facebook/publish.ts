// Facebook Page publishing (platforms.md §3.1) with the Page token: feed text and link posts,
// one photo, one video, multi-photo posts (unpublished photos, then the feed post with
// attached_media), Reels, photo and video stories, and drafts (published=false). Every platform
// id is saved as soon as it is known (photos one by one, the video id, the post id), so a
// resumed attempt continues instead of posting again. The single-step calls (feed posts,
// photos, photo stories, the first comment) are made once (create-once.ts): an interrupted one
// is looked for on the Page before it is made again. After publishing: the permalink and the
// first comment.
import type { FacebookOptions } from './options.ts';
import { createOnce, type OnceContext } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import { str } from '../json.ts';
import { followUp, graphCaller } from '../meta/publish-steps.ts';
import { postUrl } from '../post-url.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { findFeedPost, findPageComment, findStory } from './reconcile.ts';
import { publishFeedVideo, publishUploadedVideo, type VideoResult, type VideoStep } from './publish-video.ts';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '')) : []);

function need(id: string | null, what: string): string {
  if (!id) throw new PlatformError('transient', `Facebook answered the ${what} without an id`, { platform: 'facebook' });
  return id;
}

export function facebookPublisher(http: PlatformHttp): Publisher<FacebookOptions> {
  return {
    async publish({ account, content, options, progress: saved, save, now, inFlightMs, isTaken }: PublishRequest<FacebookOptions>): Promise<PublishOutcome> {
      const progress: PublishProgress = { ...saved };
      const store = () => save(progress);
      const call = graphCaller(http, 'facebook', FACEBOOK_GRAPH, account.accessToken);
      const once: OnceContext = { platform: 'facebook', progress, store, now, inFlightMs };
      const pageId = account.platformUserId;
      const step: VideoStep = { http, call, token: account.accessToken, pageId, progress, store, once, isTaken };

      if (!str(progress.postId)) {
        const result = await createPost(step, content, options);
        if ('status' in result) return result;
        progress.postId = result.postId;
        progress.checks = 0;
        await store();
      }
      const postId = str(progress.postId) ?? '';
      await followUp(progress, save, 'permalink', async () => str((await call('GET', `/${postId}`, { fields: 'permalink_url' })).permalink_url) ?? true);
      const comment = str(options.firstComment);
      if (comment && options.contentType !== 'story' && options.draft !== true) {
        const waiting = await followUp(progress, save, 'firstComment', async () => str((await call('POST', `/${postId}/comments`, { message: comment })).id) ?? true, {
          ctx: once,
          find: (since) => findPageComment(call, postId, pageId, comment, since),
        });
        if (waiting) return waiting;
      }
      const permalink = (progress.followUps as Record<string, { done?: unknown }> | undefined)?.permalink?.done;
      return { status: 'published', platformPostId: postId, url: postUrl(http, typeof permalink === 'string' ? permalink : null, 'https://www.facebook.com') };
    },
  };
}

async function createPost(step: VideoStep, content: string, options: Record<string, unknown>): Promise<VideoResult> {
  const { call, pageId } = step;
  const urls = strings(options.mediaUrls);
  const video = options.mediaType === 'VIDEO';
  const title = str(options.title) ?? undefined;
  switch (options.contentType) {
    case 'reel':
      return publishUploadedVideo(step, 'video_reels', urls[0] ?? '', { video_state: 'PUBLISHED', description: content || undefined, title });
    case 'story':
      if (video) return publishUploadedVideo(step, 'video_stories', urls[0] ?? '', {});
      return photoStory(step, urls[0] ?? '');
    default:
      break;
  }
  const draft = options.draft === true;
  const published = draft ? 'false' : undefined;
  if (urls.length === 0) {
    return feedPost(step, content, draft, async () => need(str((await call('POST', `/${pageId}/feed`, { message: content || undefined, link: str(options.link) ?? undefined, published })).id), 'post'));
  }
  if (urls.length === 1 && video) return publishFeedVideo(step, urls[0] ?? '', content, title);
  if (urls.length === 1) {
    return feedPost(step, content, false, async () => need(str((await call('POST', `/${pageId}/photos`, { url: urls[0], caption: content || undefined })).post_id), 'photo'));
  }
  const photos = await unpublishedPhotos(step, urls);
  const attached = Object.fromEntries(photos.map((id, i) => [`attached_media[${i}]`, JSON.stringify({ media_fbid: id })]));
  return feedPost(step, content, draft, async () => need(str((await call('POST', `/${pageId}/feed`, { message: content || undefined, published, ...attached })).id), 'post'));
}

/**
 * A call that makes a feed post in one step, made once (create-once.ts): an interrupted one is
 * looked for in the feed by its message. Drafts are not in the feed: an interrupted draft fails
 * the target rather than risk a second one.
 */
async function feedPost(step: VideoStep, message: string, draft: boolean, make: () => Promise<string>): Promise<VideoResult> {
  return createOnce(step.once, {
    key: 'post',
    make: async () => ({ postId: await make() }),
    find: async (since) => {
      const postId = await findFeedPost(step.call, step.pageId, message, since, step.isTaken);
      return postId ? { postId } : null;
    },
    unfindable: draft ? 'a draft is not listed in the Page feed' : undefined,
  });
}

/** Uploads each photo unpublished (saved one by one), for attached_media or a story. */
async function unpublishedPhotos(step: VideoStep, urls: string[]): Promise<string[]> {
  const photos = strings(step.progress.photos);
  step.progress.photos = photos;
  for (const [i, url] of urls.entries()) {
    if (photos[i]) continue;
    photos[i] = need(str((await step.call('POST', `/${step.pageId}/photos`, { url, published: 'false' })).id), 'photo upload');
    await step.store();
  }
  return photos;
}

async function photoStory(step: VideoStep, url: string): Promise<VideoResult> {
  const [photoId = ''] = await unpublishedPhotos(step, [url]);
  return createOnce(step.once, {
    key: 'story',
    make: async () => ({ postId: need(str((await step.call('POST', `/${step.pageId}/photo_stories`, { photo_id: photoId })).post_id), 'photo story') }),
    find: async (since) => {
      const postId = await findStory(step.call, step.pageId, photoId, since);
      return postId ? { postId } : null;
    },
  });
}
