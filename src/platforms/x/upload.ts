// Media upload v2 (platforms/x.md §4): initialize with the type, size and category, append the
// bytes in chunks (multipart, ≤ 5 MB each; ours 4 MiB), finalize; videos and GIFs then process
// and are polled with STATUS; alt text is set with /2/media/metadata. The bytes come from the
// post's media URL (ctx.media, under the guarded fetch).
import { randomBytes } from 'node:crypto';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { numberOf, obj, str } from '../json.ts';
import { mediaTypeOf, type MediaBytes } from '../media-bytes.ts';
import { xBody } from './errors.ts';

const API = 'https://api.x.com/2';
const CHUNK_BYTES = 4 * 1024 * 1024;
const UPLOAD_TIMEOUT_MS = 300_000;

export type XMediaCategory = 'tweet_image' | 'tweet_gif' | 'tweet_video';

/** What X says of an upload: its id, when it expires, and where its processing stands (null: nothing to wait for). */
export interface UploadState {
  id: string;
  expiresAt: number;
  processing: { state: string; checkAfterMs: number } | null;
}

export function categoryOf(mediaType: string): XMediaCategory {
  if (mediaType.startsWith('video/')) return 'tweet_video';
  return mediaType === 'image/gif' ? 'tweet_gif' : 'tweet_image';
}

function stateOf(body: Record<string, unknown>, now: number): UploadState {
  const data = obj(body.data);
  const id = str(data.id);
  if (!id) throw new PlatformError('transient', 'X answered the upload without a media id', { platform: 'x' });
  const info = obj(data.processing_info);
  const state = str(info.state);
  return {
    id,
    expiresAt: now + (numberOf(data.expires_after_secs) ?? 86_400) * 1000,
    processing: state && state !== 'succeeded' ? { state, checkAfterMs: (numberOf(info.check_after_secs) ?? 1) * 1000 } : null,
  };
}

function chunkBody(boundary: string, segment: number, bytes: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="segment_index"\r\n\r\n${segment}\r\n`),
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="media"; filename="chunk"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** Uploads one file whole (initialize, every chunk, finalize): re-made from the start if interrupted (an unfinished upload is never used). */
export async function uploadMedia(http: PlatformHttp, token: string, media: MediaBytes, now: () => number): Promise<UploadState> {
  const mediaType = mediaTypeOf(media);
  const init = xBody(
    await http.send('x', { method: 'POST', url: `${API}/media/upload/initialize`, bearer: token, json: { media_type: mediaType, total_bytes: media.bytes.length, media_category: categoryOf(mediaType) } }),
    now(),
  );
  const { id } = stateOf(init, now());
  for (let offset = 0, segment = 0; offset < media.bytes.length; offset += CHUNK_BYTES, segment++) {
    const boundary = `----socialapi${randomBytes(12).toString('hex')}`;
    const body = chunkBody(boundary, segment, media.bytes.subarray(offset, offset + CHUNK_BYTES));
    xBody(await http.send('x', { method: 'POST', url: `${API}/media/upload/${id}/append`, bearer: token, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, timeoutMs: UPLOAD_TIMEOUT_MS }), now());
  }
  return stateOf(xBody(await http.send('x', { method: 'POST', url: `${API}/media/upload/${id}/finalize`, bearer: token }), now()), now());
}

export async function uploadStatus(http: PlatformHttp, token: string, id: string, now: number): Promise<UploadState> {
  return stateOf(xBody(await http.send('x', { url: `${API}/media/upload`, query: { command: 'STATUS', media_id: id }, bearer: token }), now), now);
}

export async function setAltText(http: PlatformHttp, token: string, id: string, text: string, now: number): Promise<void> {
  xBody(await http.send('x', { method: 'POST', url: `${API}/media/metadata`, bearer: token, json: { id, metadata: { alt_text: { text } } } }), now);
}
