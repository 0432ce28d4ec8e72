// Facebook Page publishing (platforms.md §3.1) with the Page token: feed text and link posts,
// one photo, one video, multi-photo posts (unpublished photos, then the feed post with
// attached_media), Reels, photo and video stories, and drafts (published=false). Every platform
// id is saved as soon as it is known (photos one by one, the video id, the post id), so a
// resumed attempt continues instead of posting again. After publishing: the permalink and the
// first comment.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { FACEBOOK_GRAPH, str } from '../meta/graph.ts';
import { followUp, graphCaller } from '../meta/publish-steps.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../publisher.ts';
import { publishFeedVideo, publishUploadedVideo, type VideoResult, type VideoStep } from './publish-video.ts';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '')) : []);

function need(id: string | null, what: string): string {
  if (!id) throw new PlatformError('transient', `Facebook answered the ${what} without an id`, { platform: 'facebook' });
  return id;
}

export function facebookPublisher(http: PlatformHttp): Publisher {
  return {
    platform: 'facebook',
    async publish({ account, content, options, progress: saved, save }: PublishRequest): Promise<PublishOutcome> {
      const progress: PublishProgress = { ...saved };
      const store = () => save(progress);
      const call = graphCaller(http, 'facebook', FACEBOOK_GRAPH, account.accessToken);
      const step: VideoStep = { http, call, token: account.accessToken, pageId: account.platformUserId, progress, store };

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
        await followUp(progress, save, 'firstComment', async () => str((await call('POST', `/${postId}/comments`, { message: comment })).id) ?? true);
      }
      const permalink = (progress.followUps as Record<string, { done?: unknown }> | undefined)?.permalink?.done;
      return { status: 'published', platformPostId: postId, url: typeof permalink === 'string' ? permalink : null };
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
  const published = options.draft === true ? 'false' : undefined;
  if (urls.length === 0) {
    return { postId: need(str((await call('POST', `/${pageId}/feed`, { message: content || undefined, link: str(options.link) ?? undefined, published })).id), 'post') };
  }
  if (urls.length === 1 && video) return publishFeedVideo(step, urls[0] ?? '', content, title);
  if (urls.length === 1) {
    const photo = await call('POST', `/${pageId}/photos`, { url: urls[0], caption: content || undefined });
    return { postId: need(str(photo.post_id), 'photo') };
  }
  const photos = await unpublishedPhotos(step, urls);
  const attached = Object.fromEntries(photos.map((id, i) => [`attached_media[${i}]`, JSON.stringify({ media_fbid: id })]));
  return { postId: need(str((await call('POST', `/${pageId}/feed`, { message: content || undefined, published, ...attached })).id), 'post') };
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
  return { postId: need(str((await step.call('POST', `/${step.pageId}/photo_stories`, { photo_id: photoId })).post_id), 'photo story') };
}
