// The Content Posting API's init endpoints (platforms.md §5.3–5.4): direct video posts, inbox
// (draft) videos, and photo posts. Checks, in the platform's order: token, rate limit (6 a minute
// per token), scope, creator state, privacy level against the creator's options and the
// unaudited-client rule, text limits, source (verified URL prefixes for PULL_FROM_URL, chunk
// arithmetic for FILE_UPLOAD). Then the transfer starts (download.ts / upload.ts).
import type { TokenRecord } from '../core/model.ts';
import type { TikTokCreator, TikTokPrivacyLevel } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import { requireScope, rateLimit, tiktokAuth } from './auth.ts';
import { startDownloads } from './download.ts';
import { invalidParams, ok, tiktokError } from './envelope.ts';
import type { TikTokPublish } from './store.ts';

const MB = 1024 * 1024;
type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);

export function videoInit(ctx: RouteContext): unknown {
  return initVideo(ctx, 'DIRECT_POST');
}

export function inboxVideoInit(ctx: RouteContext): unknown {
  return initVideo(ctx, 'MEDIA_UPLOAD');
}

function begin(ctx: RouteContext, mode: TikTokPublish['mode']): { token: TokenRecord; creator: TikTokCreator; body: Json } {
  const { token, creator } = tiktokAuth(ctx);
  rateLimit(ctx, token, 'init', ctx.state.settings.limits.tiktokInitPerMinute);
  requireScope(token, mode === 'DIRECT_POST' ? 'video.publish' : 'video.upload');
  if (creator.postingBlocked) throw tiktokError(creator.postingBlocked, 'The creator cannot make more posts at this time.');
  return { token, creator, body: obj(ctx.body) };
}

function initVideo(ctx: RouteContext, mode: TikTokPublish['mode']): unknown {
  const { token, creator, body } = begin(ctx, mode);
  const postInfo = obj(body.post_info);
  const privacy = mode === 'DIRECT_POST' ? checkPrivacy(ctx, token, creator, postInfo) : null;
  const title = text(postInfo.title);
  if (title.length > 2200) throw invalidParams('post_info.title must be at most 2200 characters');
  const source = obj(body.source_info);
  const publish = newPublish(ctx, token, creator, { media: 'VIDEO', mode, privacy, title });
  if (source.source === 'PULL_FROM_URL') {
    const url = text(source.video_url);
    if (!url) throw invalidParams('source_info.video_url is required for PULL_FROM_URL');
    checkVerified(ctx, [url]);
    publish.source = 'PULL_FROM_URL';
    publish.urls = [url];
    store(ctx, publish);
    startDownloads(ctx.state, publish);
    return ok({ publish_id: publish.id });
  }
  if (source.source === 'FILE_UPLOAD') {
    checkChunks(num(source.video_size), num(source.chunk_size), num(source.total_chunk_count));
    publish.source = 'FILE_UPLOAD';
    publish.videoSize = num(source.video_size);
    publish.chunkSize = num(source.chunk_size);
    publish.totalChunkCount = num(source.total_chunk_count);
    publish.uploadId = ctx.state.ids.numeric('tiktok-upload', '7', 19);
    publish.uploadToken = ctx.state.ids.opaque('tiktok-upload-token', 32);
    store(ctx, publish);
    ctx.state.tiktok.uploads.set(publish.uploadId, publish.id);
    const uploadUrl = `${ctx.baseUrl}/open-upload.tiktokapis.com/video/?upload_id=${publish.uploadId}&upload_token=${publish.uploadToken}`;
    return ok({ publish_id: publish.id, upload_url: uploadUrl });
  }
  throw invalidParams('source_info.source must be PULL_FROM_URL or FILE_UPLOAD');
}

/** POST /v2/post/publish/content/init/ with media_type PHOTO (§5.4). */
export function contentInit(ctx: RouteContext): unknown {
  const raw = obj(ctx.body);
  const mode = raw.post_mode === 'MEDIA_UPLOAD' ? 'MEDIA_UPLOAD' : raw.post_mode === 'DIRECT_POST' ? 'DIRECT_POST' : null;
  if (!mode) {
    tiktokAuth(ctx);
    throw invalidParams('post_mode must be DIRECT_POST or MEDIA_UPLOAD');
  }
  const { token, creator, body } = begin(ctx, mode);
  if (body.media_type !== 'PHOTO') throw invalidParams('media_type must be PHOTO');
  const postInfo = obj(body.post_info);
  const privacy = mode === 'DIRECT_POST' ? checkPrivacy(ctx, token, creator, postInfo) : null;
  const title = text(postInfo.title);
  if (title.length > 90) throw invalidParams('post_info.title must be at most 90 characters');
  if (text(postInfo.description).length > 4000) throw invalidParams('post_info.description must be at most 4000 characters');
  const source = obj(body.source_info);
  if (source.source !== 'PULL_FROM_URL') throw invalidParams('source_info.source must be PULL_FROM_URL for photos');
  const images = Array.isArray(source.photo_images) ? source.photo_images.filter((u): u is string => typeof u === 'string') : [];
  if (images.length < 1 || images.length > 35) throw invalidParams('source_info.photo_images must list 1 to 35 image URLs');
  const cover = source.photo_cover_index === undefined ? 0 : num(source.photo_cover_index);
  if (!Number.isInteger(cover) || cover < 0 || cover >= images.length) throw invalidParams('source_info.photo_cover_index is out of range');
  checkVerified(ctx, images);
  const publish = newPublish(ctx, token, creator, { media: 'PHOTO', mode, privacy, title });
  publish.description = text(postInfo.description);
  publish.urls = images;
  store(ctx, publish);
  startDownloads(ctx.state, publish);
  return ok({ publish_id: publish.id });
}

function checkPrivacy(ctx: RouteContext, token: TokenRecord, creator: TikTokCreator, postInfo: Json): TikTokPrivacyLevel {
  const privacy = text(postInfo.privacy_level) as TikTokPrivacyLevel;
  if (!privacy) throw invalidParams('post_info.privacy_level is required');
  if (!creator.privacyLevelOptions.includes(privacy)) {
    throw tiktokError('privacy_level_option_mismatch', 'privacy_level is not one of the privacy_level_options of the creator.');
  }
  const app = ctx.state.findApp('tiktok', token.clientId);
  // Unaudited clients may post only SELF_ONLY, and only to a private account (§5.3, §12).
  if (!app?.audited && (privacy !== 'SELF_ONLY' || !creator.privateAccount)) {
    throw tiktokError('unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to a private account, with privacy_level SELF_ONLY.');
  }
  if (postInfo.brand_content_toggle === true && privacy === 'SELF_ONLY') throw invalidParams('Branded content cannot be posted with privacy_level SELF_ONLY.');
  return privacy;
}

function checkVerified(ctx: RouteContext, urls: string[]): void {
  const prefixes = ctx.state.settings.tiktok.verifiedUrlPrefixes;
  if (!prefixes) return;
  for (const url of urls) {
    if (!prefixes.some((p) => url.startsWith(p))) throw tiktokError('url_ownership_unverified', `The URL's domain or prefix is not verified for this client: ${url}`);
  }
}

/** The media transfer guide's chunk rules. */
function checkChunks(videoSize: number, chunkSize: number, total: number): void {
  if (!Number.isInteger(videoSize) || videoSize <= 0) throw invalidParams('source_info.video_size must be a positive integer');
  if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw invalidParams('source_info.chunk_size must be a positive integer');
  if (videoSize < 5 * MB && chunkSize !== videoSize) throw invalidParams('A video under 5 MB must be uploaded whole: chunk_size must equal video_size');
  if (videoSize >= 5 * MB && (chunkSize < 5 * MB || chunkSize > 64 * MB)) throw invalidParams('chunk_size must be between 5 MB and 64 MB');
  if (total !== Math.floor(videoSize / chunkSize)) throw invalidParams('total_chunk_count must equal video_size divided by chunk_size, rounded down');
  if (total < 1 || total > 1000) throw invalidParams('total_chunk_count must be between 1 and 1000');
  if (videoSize - (total - 1) * chunkSize > 128 * MB) throw invalidParams('The final chunk may be at most 128 MB');
}

function newPublish(
  ctx: RouteContext,
  token: TokenRecord,
  creator: TikTokCreator,
  input: { media: TikTokPublish['media']; mode: TikTokPublish['mode']; privacy: TikTokPrivacyLevel | null; title: string },
): TikTokPublish {
  const prefix = input.media === 'PHOTO' ? 'p' : 'v';
  const kind = input.mode === 'DIRECT_POST' ? 'pub' : 'inbox';
  return {
    id: `${prefix}_${kind}_url~v2.${ctx.state.ids.numeric('tiktok-publish', '7', 19)}`,
    creatorId: creator.id,
    clientId: token.clientId,
    media: input.media,
    mode: input.mode,
    source: 'PULL_FROM_URL',
    privacyLevel: input.privacy,
    title: input.title,
    description: input.title,
    createdAt: ctx.state.clock.now(),
    transferredAt: null,
    failReason: null,
    urls: [],
    downloadedBytes: 0,
    uploadedBytes: 0,
    videoSize: 0,
    chunkSize: 0,
    totalChunkCount: 0,
    chunksReceived: 0,
    head: null,
    uploadId: null,
    uploadToken: null,
    postId: null,
  };
}

function store(ctx: RouteContext, publish: TikTokPublish): void {
  if (publish.source === 'FILE_UPLOAD') publish.id = publish.id.replace('_url~', '_file~');
  ctx.state.tiktok.publishes.set(publish.id, publish);
}
