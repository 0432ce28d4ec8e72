// Video media (platforms/pinterest.md §4): POST /v5/media {media_type: "video"} registers an
// upload and answers an S3 form-upload URL with its parameters; the bytes go there as a
// multipart POST carrying every parameter unchanged and then `file` (S3 answers 204, and a form
// missing a field or with a field changed 403); GET /v5/media/{id} reports registered,
// processing, then succeeded (or failed when the bytes are no video) after
// settings.processing.pinterestVideoMs.
import { createHash } from 'node:crypto';
import type { RouteContext } from '../core/router.ts';
import { isMultipartFile } from '../core/multipart.ts';
import { PlatformError } from '../core/platform-error.ts';
import { sniff } from '../media/sniff.ts';
import { pinterestAuth } from './auth.ts';
import { invalidField, notFound } from './errors.ts';
import type { PinterestMedia } from './store.ts';

export const UPLOAD_HOST = 'pinterest-media-upload.s3-accelerate.amazonaws.com';
const MAX_VIDEO_BYTES = 2 * 1024 * 1024 * 1024;

function parametersOf(media: PinterestMedia): Record<string, string> {
  const sign = (what: string) => createHash('sha256').update(`pinterest-upload:${what}:${media.key}`).digest('hex');
  return {
    'x-amz-date': '20261129T000000Z',
    'x-amz-signature': sign('signature'),
    'x-amz-security-token': sign('token').slice(0, 40),
    'x-amz-algorithm': 'AWS4-HMAC-SHA256',
    key: media.key,
    policy: Buffer.from(JSON.stringify({ key: media.key })).toString('base64'),
    'x-amz-credential': 'SANDBOXKEY/20261129/us-east-1/s3/aws4_request',
    'Content-Type': 'multipart/form-data',
  };
}

/** POST /v5/media. */
export function registerMedia(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['pins:write'], 'org_write');
  const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Record<string, unknown>;
  if (body.media_type !== 'video') throw invalidField('media_type', 'must be video');
  const id = ctx.state.ids.numeric('pinterest-media', '6', 19);
  const media: PinterestMedia = { id, ownerId: user.id, mediaType: 'video', status: 'registered', key: `uploads/${ctx.state.ids.opaque('pinterest-key', 24)}/${id}.mp4`, size: 0, readyAt: null, used: false, createdAt: ctx.state.clock.now() };
  ctx.state.pinterest.media.set(id, media);
  void ctx.reply.status(201);
  return { media_id: id, media_type: 'video', upload_url: `https://${UPLOAD_HOST}/`, upload_parameters: parametersOf(media) };
}

/** The media's status now (processing ends at readyAt). */
export function settle(ctx: RouteContext, media: PinterestMedia): PinterestMedia {
  if (media.status === 'processing' && media.readyAt !== null && media.readyAt <= ctx.state.clock.now()) media.status = 'succeeded';
  return media;
}

/** GET /v5/media/{media_id}. */
export function mediaStatus(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['pins:read'], 'org_read');
  const media = ctx.state.pinterest.media.get(ctx.params.media_id ?? '');
  if (!media || media.ownerId !== user.id) throw notFound('Media');
  settle(ctx, media);
  return { media_id: media.id, media_type: media.mediaType, status: media.status };
}

const s3Error = (status: number, code: string, message: string) => new PlatformError(status, `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`, { 'content-type': 'application/xml' });

/** POST {upload_url}: the S3 form upload, every parameter as given, then the file. */
export function formUpload(ctx: RouteContext): unknown {
  const fields = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Record<string, unknown>;
  const key = typeof fields.key === 'string' ? fields.key : '';
  const media = [...ctx.state.pinterest.media.values()].find((m) => m.key === key);
  if (!media) throw s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key"]');
  for (const [name, value] of Object.entries(parametersOf(media))) {
    if (fields[name] !== value) throw s3Error(403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}"]`);
  }
  const names = Object.keys(fields);
  const file = fields.file;
  if (!isMultipartFile(file)) throw s3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  if (names.at(-1) !== 'file') throw s3Error(400, 'InvalidArgument', 'Bucket POST must contain the file as the last field.');
  if (file.size === 0 || file.size > MAX_VIDEO_BYTES) throw s3Error(400, 'EntityTooLarge', 'Your proposed upload is outside the allowed size.');
  if (media.status !== 'registered') throw s3Error(403, 'AccessDenied', 'The upload of this media was already made.');
  media.size = file.size;
  const video = sniff(file.bytes.subarray(0, 64))?.kind === 'video';
  media.status = video ? 'processing' : 'failed';
  media.readyAt = video ? ctx.state.clock.now() + ctx.state.settings.processing.pinterestVideoMs : null;
  return ctx.reply.status(204).send();
}
