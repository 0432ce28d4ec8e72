// WhatsApp media (platforms.md §7.2): a multipart upload to /{phone-number-id}/media, streamed
// (the file part is piped through, never held whole); the media node's info (a URL valid five
// minutes) and delete; the download of that URL with the account's token, streamed back.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { messageOf } from '../../lib/errors.ts';
import type { PlatformContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { numberOf, str } from '../json.ts';
import { platformUrl } from '../base-url.ts';
import type { AccountCredentials } from '../types.ts';
import type { MediaBytes, MediaDownload, WhatsAppMediaInfo } from './capability.ts';
import { cloudCaller } from './cloud.ts';
import { isUnknownObject } from './errors.ts';

/** An upload of the largest kind (a 100 MB document) may take this long. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** Until the download's headers; the body then streams as fast as the client reads. */
const DOWNLOAD_HEADERS_TIMEOUT_MS = 30_000;

/** The media URL's host: Meta's CDN for attachments (lookaside.fbsbx.com). */
const MEDIA_HOST = /(^|\.)fbsbx\.com$/;

const quoted = (value: string) => value.replace(/["\r\n\\]/g, '_');

/** multipart/form-data with messaging_product, type and the file, the file's bytes piped as they come. */
function multipart(media: MediaBytes, boundary: string): ReadableStream<Uint8Array> {
  const field = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('messaging_product', 'whatsapp') +
      field('type', media.mimeType) +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${quoted(media.fileName ?? 'file')}"\r\ncontent-type: ${media.mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts(body: Readable) {
    yield head;
    for await (const chunk of body) yield chunk as Buffer;
    yield tail;
  }
  const iterator = parts(media.body);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel() {
      media.body.destroy();
    },
  });
}

export async function uploadMedia(ctx: PlatformContext, credentials: AccountCredentials, media: MediaBytes): Promise<string> {
  const boundary = `----socialapi${randomBytes(12).toString('hex')}`;
  const body = await cloudCaller(ctx, credentials.accessToken)('POST', `/${credentials.platformUserId}/media`, {
    body: multipart(media, boundary),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  const id = str(body.id);
  if (!id) throw new PlatformError('transient', 'the uploaded media has no id in the answer', { platform: 'whatsapp' });
  return id;
}

export async function mediaInfo(ctx: PlatformContext, credentials: AccountCredentials, mediaId: string): Promise<WhatsAppMediaInfo | null> {
  try {
    const body = await cloudCaller(ctx, credentials.accessToken)('GET', `/${mediaId}`, { query: { phone_number_id: credentials.platformUserId } });
    const size = str(body.file_size);
    return {
      id: str(body.id) ?? mediaId,
      mimeType: str(body.mime_type),
      sha256: str(body.sha256),
      fileSize: size !== null && /^\d+$/.test(size) ? Number(size) : numberOf(body.file_size),
      url: str(body.url) ?? '',
    };
  } catch (error) {
    if (isUnknownObject(error)) return null;
    throw error;
  }
}

export async function deleteMedia(ctx: PlatformContext, credentials: AccountCredentials, mediaId: string): Promise<boolean> {
  try {
    await cloudCaller(ctx, credentials.accessToken)('DELETE', `/${mediaId}`, { query: { phone_number_id: credentials.platformUserId } });
    return true;
  } catch (error) {
    if (isUnknownObject(error)) return false;
    throw error;
  }
}

/**
 * Where a media URL is fetched: Meta's CDN over https, rewritten onto the platform API base like
 * every call; a URL the stand-in gave on its own base is used as it is. Anything else is refused,
 * so the token is never sent to a host the answer merely named.
 */
function downloadUrl(ctx: PlatformContext, url: string): string {
  const base = ctx.http.base;
  if (base && url.startsWith(`${base}/`)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PlatformError('permanent', 'the media URL in the answer is not a URL', { platform: 'whatsapp' });
  }
  if (parsed.protocol !== 'https:' || !MEDIA_HOST.test(parsed.hostname)) {
    throw new PlatformError('permanent', `the media URL is not on Meta's media host (${parsed.hostname})`, { platform: 'whatsapp' });
  }
  return platformUrl(base, url);
}

export async function downloadMedia(ctx: PlatformContext, credentials: AccountCredentials, url: string): Promise<MediaDownload> {
  const target = downloadUrl(ctx, url);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), DOWNLOAD_HEADERS_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(target, { headers: { authorization: `Bearer ${credentials.accessToken}`, 'user-agent': 'socialapi/1.0' }, redirect: 'manual', signal: abort.signal });
  } catch (error) {
    throw new PlatformError('transient', `no answer from the media host: ${messageOf(error)}`, { platform: 'whatsapp' });
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    // The info call just before accepted the token: this is no reason to mark the account.
    throw new PlatformError('permanent', `the media host refused the token (HTTP ${response.status})`, { platform: 'whatsapp', status: response.status });
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw new PlatformError('invalid', 'the media URL expired or the media was deleted; read the media again for a new URL', { platform: 'whatsapp', status: 404 });
  }
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    throw new PlatformError(response.status >= 500 ? 'transient' : 'permanent', `the media host answered HTTP ${response.status}`, { platform: 'whatsapp', status: response.status });
  }
  const length = Number(response.headers.get('content-length'));
  return {
    body: response.body,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    contentLength: Number.isFinite(length) && response.headers.has('content-length') ? length : null,
  };
}
