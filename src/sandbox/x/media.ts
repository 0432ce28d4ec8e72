// Media upload v2 (platforms/x.md §4, scope media.write): initialize (type, size, category),
// append (multipart chunks ≤ 5 MB, segment_index 0–999), finalize (every byte arrived; videos and
// GIFs then process: pending → in_progress → succeeded, or failed when the bytes are not what the
// type said), STATUS, the one-shot upload for images, and alt text through /2/media/metadata.
// A media id expires after expires_after_secs; a post may name only succeeded, unexpired media.
import type { RouteContext } from '../core/router.ts';
import { isMultipartFile } from '../core/multipart.ts';
import { sniff } from '../media/sniff.ts';
import { xAuth } from './auth.ts';
import { invalidRequest, notFound } from './errors.ts';
import type { XMedia } from './store.ts';

const MB = 1024 * 1024;
const CHUNK_MAX = 5 * MB;
const EXPIRES_AFTER_SECS = 86_400;
const MEDIA_SCOPES = ['media.write'];
const MEDIA_LIMIT = 1875;

/** What each category takes, and its size limit. */
const CATEGORIES: Readonly<Record<string, { types: readonly string[]; maxBytes: number }>> = {
  tweet_image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], maxBytes: 5 * MB },
  tweet_gif: { types: ['image/gif'], maxBytes: 15 * MB },
  tweet_video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 512 * MB },
};

const body = (ctx: RouteContext): Record<string, unknown> => (ctx.body && typeof ctx.body === 'object' ? (ctx.body as Record<string, unknown>) : {});

function mediaOf(ctx: RouteContext, id: string, ownerId: string): XMedia {
  const media = ctx.state.x.media.get(id);
  if (!media || media.ownerId !== ownerId) throw notFound(`Could not find media with id: [${id}].`, id);
  return media;
}

function newMedia(ctx: RouteContext, ownerId: string, mediaType: string, category: string, totalBytes: number): XMedia {
  const id = ctx.state.ids.numeric('x-media', '1', 19);
  const now = ctx.state.clock.now();
  const media: XMedia = {
    id,
    mediaKey: `${category === 'tweet_image' ? 3 : category === 'tweet_gif' ? 16 : 7}_${id}`,
    ownerId,
    mediaType,
    category,
    totalBytes,
    received: 0,
    segments: [],
    state: 'uploading',
    readyAt: now,
    expiresAt: now + EXPIRES_AFTER_SECS * 1000,
    altText: null,
    used: false,
  };
  ctx.state.x.media.set(id, media);
  return media;
}

function checkKind(mediaType: unknown, totalBytes: unknown, category: unknown): { mediaType: string; totalBytes: number; category: string } {
  if (typeof category !== 'string' || !Object.hasOwn(CATEGORIES, category)) throw invalidRequest('media_category', 'media_category must be one of tweet_image, tweet_gif, tweet_video');
  const rule = CATEGORIES[category];
  if (typeof mediaType !== 'string' || !rule?.types.includes(mediaType)) throw invalidRequest('media_type', `media_type ${String(mediaType)} is not accepted for ${category}`);
  if (typeof totalBytes !== 'number' || !Number.isInteger(totalBytes) || totalBytes <= 0) throw invalidRequest('total_bytes', 'total_bytes must be a positive integer');
  if (totalBytes > rule.maxBytes) throw invalidRequest('total_bytes', `total_bytes ${totalBytes} is over the ${rule.maxBytes} bytes allowed for ${category}`);
  return { mediaType, totalBytes, category };
}

/** The answer shape of initialize, finalize and STATUS. */
function describe(ctx: RouteContext, media: XMedia): Record<string, unknown> {
  const now = ctx.state.clock.now();
  const data: Record<string, unknown> = { id: media.id, media_key: media.mediaKey, size: media.totalBytes, expires_after_secs: Math.max(0, Math.floor((media.expiresAt - now) / 1000)) };
  if (media.category !== 'tweet_image' && media.state !== 'uploading') {
    settle(ctx, media);
    const info: Record<string, unknown> = { state: media.state };
    if (media.state === 'pending' || media.state === 'in_progress') {
      info.check_after_secs = Math.max(1, Math.ceil((media.readyAt - now) / 1000));
      info.progress_percent = media.state === 'pending' ? 0 : 50;
    }
    if (media.state === 'succeeded') info.progress_percent = 100;
    if (media.state === 'failed') info.error = { code: 1, name: 'InvalidMedia', message: 'Invalid or Unsupported media, Reason: UnsupportedMedia.' };
    data.processing_info = info;
  }
  return { data };
}

/** Processing moves on with the sandbox clock: in progress once seen, done at readyAt. */
function settle(ctx: RouteContext, media: XMedia): void {
  if (media.state !== 'pending' && media.state !== 'in_progress') return;
  media.state = ctx.state.clock.now() >= media.readyAt ? 'succeeded' : 'in_progress';
}

/** Whether a post may use the media now (status.ts of the post rules). */
export function mediaProblem(ctx: RouteContext, media: XMedia | undefined): string | null {
  if (!media) return 'unknown media id';
  if (media.expiresAt <= ctx.state.clock.now()) return 'the media id has expired';
  settle(ctx, media);
  if (media.state !== 'succeeded') return media.state === 'failed' ? 'the media failed processing' : 'the media is not processed yet';
  return null;
}

/** POST /2/media/upload/initialize. */
export function initialize(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, MEDIA_SCOPES, 'media', MEDIA_LIMIT);
  const input = body(ctx);
  const kind = checkKind(input.media_type, input.total_bytes, input.media_category ?? 'tweet_image');
  return describe(ctx, newMedia(ctx, user.id, kind.mediaType, kind.category, kind.totalBytes));
}

/** POST /2/media/upload/{id}/append: multipart `media` and `segment_index`. */
export function append(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, MEDIA_SCOPES, 'media', MEDIA_LIMIT);
  const media = mediaOf(ctx, ctx.params.id ?? '', user.id);
  if (media.state !== 'uploading') throw invalidRequest('id', 'the upload was finalized already');
  const input = body(ctx);
  const chunk = input.media;
  if (!isMultipartFile(chunk)) throw invalidRequest('media', 'media is required as a multipart file part');
  const segment = Number(input.segment_index);
  if (!Number.isInteger(segment) || segment < 0 || segment > 999) throw invalidRequest('segment_index', 'segment_index must be an integer from 0 to 999');
  if (chunk.size > CHUNK_MAX) throw invalidRequest('media', `a chunk is at most ${CHUNK_MAX} bytes`);
  if (media.segments.includes(segment)) throw invalidRequest('segment_index', `segment ${segment} was sent already`);
  if (segment === 0) {
    const found = sniff(chunk.bytes);
    // The bytes are not what initialize said: images are refused at finalize, videos fail processing.
    if (found?.mime !== media.mediaType) media.mediaType = `mismatch:${media.mediaType}`;
  }
  media.segments.push(segment);
  media.received += chunk.size;
  if (media.received > media.totalBytes) throw invalidRequest('media', 'more bytes than total_bytes');
  return { data: { expires_at: Math.floor(media.expiresAt / 1000) } };
}

/** POST /2/media/upload/{id}/finalize. */
export function finalize(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, MEDIA_SCOPES, 'media', MEDIA_LIMIT);
  const media = mediaOf(ctx, ctx.params.id ?? '', user.id);
  if (media.state !== 'uploading') return describe(ctx, media);
  if (media.received !== media.totalBytes) throw invalidRequest('id', `File size mismatch: received ${media.received} of ${media.totalBytes} bytes`);
  const mismatch = media.mediaType.startsWith('mismatch:');
  if (media.category === 'tweet_image') {
    if (mismatch) throw invalidRequest('media', 'Invalid or Unsupported media: the bytes are not the declared media_type');
    media.state = 'succeeded';
    return describe(ctx, media);
  }
  media.state = mismatch ? 'failed' : 'pending';
  media.readyAt = ctx.state.clock.now() + ctx.state.settings.processing.xVideoMs;
  return describe(ctx, media);
}

/** GET /2/media/upload?command=STATUS&media_id=. */
export function status(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, MEDIA_SCOPES, 'media', MEDIA_LIMIT);
  if (ctx.query.command !== 'STATUS') throw invalidRequest('command', 'command must be STATUS');
  const media = mediaOf(ctx, ctx.query.media_id ?? '', user.id);
  return describe(ctx, media);
}

/** POST /2/media/upload: the one-shot upload of an image (multipart `media` and `media_category`). */
export function oneShot(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, MEDIA_SCOPES, 'media-one-shot', 500);
  const input = body(ctx);
  const file = input.media;
  if (!isMultipartFile(file)) throw invalidRequest('media', 'media is required as a multipart file part');
  const category = typeof input.media_category === 'string' ? input.media_category : 'tweet_image';
  if (category !== 'tweet_image') throw invalidRequest('media_category', 'the one-shot upload takes images; use initialize/append/finalize for video and GIF');
  const found = sniff(file.bytes);
  const kind = checkKind(found?.mime ?? 'unknown', file.size, category);
  const media = newMedia(ctx, user.id, kind.mediaType, category, kind.totalBytes);
  media.received = file.size;
  media.state = 'succeeded';
  return describe(ctx, media);
}

/** POST /2/media/metadata: `{id, metadata: {alt_text: {text ≤ 1000}}}`. */
export function metadata(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, MEDIA_SCOPES, 'media-metadata', 500);
  const input = body(ctx);
  const id = typeof input.id === 'string' ? input.id : '';
  const media = mediaOf(ctx, id, user.id);
  const alt = (input.metadata as { alt_text?: { text?: unknown } } | undefined)?.alt_text?.text;
  if (typeof alt !== 'string') throw invalidRequest('metadata.alt_text.text', 'metadata.alt_text.text is required');
  if ([...alt].length > 1000) throw invalidRequest('metadata.alt_text.text', 'alt text is at most 1000 characters');
  if (media.category === 'tweet_video') throw invalidRequest('id', 'alt text is for images and GIFs');
  media.altText = alt;
  return { data: { id: media.id, associated_metadata: { alt_text: { text: alt } } } };
}
