// WhatsApp media (contract "WhatsApp"; DESIGN: 201 {whatsappMediaId}; download=1 streams the
// bytes with their Content-Type). An upload takes our media (mediaId) or a URL the service
// fetches under the SSRF guard of lib/safe-fetch.ts; either way the bytes are streamed through
// to the Cloud API, never held whole. A download reads the media's short-lived URL and streams
// it back with the account's token, which never leaves the service.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors, type ApiError } from '../../http/errors.ts';
import { FetchFailedError, ResponseTooLargeError, safeFetch, UrlRefusedError } from '../../lib/safe-fetch.ts';
import type { MediaBytes, MediaDownload } from '../../platforms/types.ts';
import { localMediaStore, storeFor } from '../../storage/index.ts';
import { reconnectRequired } from '../accounts/platform-call.ts';
import { tooLarge } from '../media/ingest.ts';
import { callWhatsApp, type WhatsAppDeps } from './platform-call.ts';
import { isPlatformId, type MediaView } from './schemas.ts';

/** The largest file the Cloud API takes (documents, 100 MB): a URL's body is cut there. */
export const URL_MAX_BYTES = 100 * 1024 * 1024;
const URL_FETCH_TIMEOUT_MS = 10 * 60_000;

/** Our stored media, streamed from where it is kept. */
async function ourMedia(deps: WhatsAppDeps, tenant: Tenant, mediaId: string): Promise<MediaBytes> {
  const media = await tenant.selectFrom('media').selectAll().where('id', '=', mediaId).executeTakeFirst();
  if (!media) throw errors.notFound('Media');
  const base = { mimeType: media.mime_type, fileName: media.file_name };
  if (media.storage === 'local') {
    const path = localMediaStore(deps.config).pathOf(media.storage_key);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw errors.invalid('mediaId', 'the file is no longer stored');
    return { ...base, body: createReadStream(path), size: info.size };
  }
  // Object storage is read back through its public URL: our own bucket, not a client's address.
  const url = storeFor(deps.config, media.storage)?.publicUrl(media.storage_key);
  if (!url) throw errors.invalid('mediaId', 'the stored file cannot be read back (the bucket has no public URL configured)');
  const response = await fetch(url).catch(() => null);
  if (!response?.ok || !response.body) {
    await response?.body?.cancel();
    throw errors.invalid('mediaId', 'the stored file could not be read back from object storage');
  }
  return { ...base, body: Readable.fromWeb(response.body as WebStream<Uint8Array>), size: media.size };
}

function explainFetch(error: unknown): ApiError | null {
  if (error instanceof UrlRefusedError) return errors.invalid('url', `refused: ${error.message}`);
  if (error instanceof FetchFailedError) return errors.invalid('url', `fetch failed: ${error.message}`);
  if (error instanceof ResponseTooLargeError) return tooLarge('url', error.limit);
  return null;
}

/** The last path segment of a URL, as a file name for the upload. */
function fileNameOf(url: string): string | null {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  return /^[\w.-]{1,200}$/.test(segment) ? segment : null;
}

/** A client's URL, fetched under the SSRF guard and streamed with its Content-Type. */
async function fromUrl(deps: WhatsAppDeps, url: string, signal: AbortSignal): Promise<MediaBytes> {
  let response;
  try {
    response = await safeFetch(url, { allowPrivate: deps.config.allowPrivateUrls, maxBytes: URL_MAX_BYTES, timeoutMs: URL_FETCH_TIMEOUT_MS, headers: { 'user-agent': 'socialapi-media/1.0' }, signal });
  } catch (error) {
    throw explainFetch(error) ?? error;
  }
  if (response.status < 200 || response.status > 299) {
    response.body.destroy();
    throw errors.invalid('url', `fetch failed: the server answered HTTP ${response.status}`);
  }
  const mimeType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(mimeType)) {
    response.body.destroy();
    throw errors.invalid('url', 'the server gave no Content-Type; WhatsApp needs the type of the file');
  }
  const length = Number(response.headers['content-length']);
  return { body: response.body, mimeType, size: Number.isFinite(length) && response.headers['content-length'] !== undefined ? length : null, fileName: fileNameOf(response.url) };
}

/** Uploads our media or a URL's bytes to the number; the WhatsApp media id. */
export async function uploadMedia(deps: WhatsAppDeps, tenant: Tenant, row: AccountRow, input: { mediaId?: string | undefined; url?: string | undefined }, signal: AbortSignal): Promise<string> {
  if (input.mediaId !== undefined && input.url !== undefined) throw errors.invalid('url', 'give mediaId or url, not both');
  if (input.mediaId === undefined && input.url === undefined) throw errors.invalid('mediaId', 'required (or url)');
  // Refused before anything is fetched.
  if (row.status === 'needs_reconnect') throw reconnectRequired(row);
  const media = input.mediaId !== undefined ? await ourMedia(deps, tenant, input.mediaId) : await fromUrl(deps, input.url ?? '', signal);
  // A failure of the source surfaces at the Cloud API call as a broken request: keep it to say why.
  let sourceError: unknown = null;
  media.body.once('error', (error) => {
    sourceError ??= error;
  });
  try {
    return await callWhatsApp(deps, row, (cloud, credentials) => cloud.uploadMedia(credentials, media));
  } catch (error) {
    if (sourceError !== null) throw explainFetch(sourceError) ?? (signal.aborted ? errors.invalid('body', 'the client went away') : error);
    throw error;
  } finally {
    media.body.destroy();
  }
}

export async function mediaInfo(deps: WhatsAppDeps, row: AccountRow, waMediaId: string): Promise<MediaView & { url: string }> {
  if (!isPlatformId(waMediaId)) throw errors.notFound('WhatsApp media');
  const info = await callWhatsApp(deps, row, (cloud, credentials) => cloud.mediaInfo(credentials, waMediaId));
  if (!info) throw errors.notFound('WhatsApp media');
  return { whatsappMediaId: info.id, mimeType: info.mimeType, sha256: info.sha256, fileSize: info.fileSize, url: info.url };
}

/** The media's bytes from its short-lived URL (read just now), streamed. */
export async function downloadMedia(deps: WhatsAppDeps, row: AccountRow, waMediaId: string): Promise<MediaDownload> {
  const { url } = await mediaInfo(deps, row, waMediaId);
  return callWhatsApp(deps, row, (cloud, credentials) => cloud.downloadMedia(credentials, url));
}

export async function deleteMedia(deps: WhatsAppDeps, row: AccountRow, waMediaId: string): Promise<void> {
  if (!isPlatformId(waMediaId)) throw errors.notFound('WhatsApp media');
  const deleted = await callWhatsApp(deps, row, (cloud, credentials) => cloud.deleteMedia(credentials, waMediaId));
  if (!deleted) throw errors.notFound('WhatsApp media');
}
