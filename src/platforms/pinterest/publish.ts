// Pinterest publishing (DESIGN "More platforms", Publishing and exactly once; pinterest.md §3, §4):
// the board (and section) are first checked against the account's own listing, so a board of
// another account is a 400-like failure naming boardId. Images go by URL (Pinterest fetches
// them). A video is registered with POST /v5/media and its media_id saved before anything else;
// the bytes are then posted to the S3 upload URL with every upload parameter (repeatable: a
// registered media that got no bytes is uploaded again), and the Pin waits until the media
// status is `succeeded`. POST /v5/pins has no idempotency key: it goes through createOnce, and
// an interrupted call is looked for on the board's Pins, newest first, matched on title,
// description and link, made since the marker (less the clock skew).
import { randomBytes } from 'node:crypto';
import { createOnce, isWaiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import { list, obj, str, text, type Json } from '../json.ts';
import { confirmedLook } from '../look-back.ts';
import type { MediaFetcher } from '../media-bytes.ts';
import { postUrl } from '../post-url.ts';
import { processingDelay, progressNumber } from '../publisher.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { pinterestBody, pinterestTime, type PinterestApi } from './api.ts';
import type { PinterestOptions } from './options.ts';

/** About 30 minutes of checks (1, 2, 4 … 60 s) for Pinterest's video processing. */
const MAX_CHECKS = 35;
const PAGE = 100;
const UPLOAD_TIMEOUT_MS = 600_000;

export const pinUrl = (api: PinterestApi, id: string): string | null => postUrl(api.http, `https://www.pinterest.com/pin/${id}/`, 'https://www.pinterest.com');

const invalid = (field: string, message: string) => new PlatformError('invalid', `platformSpecificData.${field}: ${message}`, { platform: 'pinterest' });

/** Every page of a listing (`{items, bookmark}`), up to a bound. */
async function readAll(api: PinterestApi, token: string, path: string, maxPages = 20): Promise<Json[]> {
  const items: Json[] = [];
  let bookmark: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const body = await api.json(token, { path, query: { page_size: 250, ...(bookmark ? { bookmark } : {}), ...(path === '/boards' ? { privacy: 'ALL' } : {}) } });
    items.push(...list(body.items).map(obj));
    bookmark = str(body.bookmark);
    if (!bookmark) break;
  }
  return items;
}

/** The board and section must be the account's own (Pinterest refuses others at create time; checked first so the message names the key). */
async function checkBoard(api: PinterestApi, token: string, options: PinterestOptions): Promise<string> {
  const boardId = options.boardId;
  if (!boardId) throw invalid('boardId', 'required for live posts');
  const boards = await readAll(api, token, '/boards');
  if (!boards.some((b) => text(b.id) === boardId)) throw invalid('boardId', `${boardId} is not a board of this Pinterest account (GET /accounts/{id}/boards lists them)`);
  if (options.boardSectionId) {
    const sections = await readAll(api, token, `/boards/${encodeURIComponent(boardId)}/sections`);
    if (!sections.some((s) => text(s.id) === options.boardSectionId)) throw invalid('boardSectionId', `${options.boardSectionId} is not a section of board ${boardId}`);
  }
  return boardId;
}

function formBody(boundary: string, parameters: Json, bytes: Buffer, filename: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(parameters)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${text(value)}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** Registers a video: its media_id and the one-time S3 upload form (URL and signed parameters). */
async function registerVideo(api: PinterestApi, token: string): Promise<{ mediaId: string; upload: Json }> {
  const registered = await api.json(token, { method: 'POST', path: '/media', json: { media_type: 'video' } });
  const mediaId = str(registered.media_id);
  if (!mediaId) throw new PlatformError('transient', 'Pinterest registered the video without a media id', { platform: 'pinterest' });
  return { mediaId, upload: { url: text(registered.upload_url), parameters: obj(registered.upload_parameters) } };
}

/**
 * Registers the video (media_id saved first), uploads it, and answers once it succeeded, or a wait.
 * The upload form's signed parameters are a credential for Pinterest's storage: they stay in memory
 * and are never saved with the target. A run that finds a registered media without bytes and
 * without them (a crash between the two) registers a new one; the old one expires unused.
 */
async function videoReady(api: PinterestApi, media: MediaFetcher | undefined, request: PublishRequest<PinterestOptions>, current: PublishProgress, store: () => Promise<void>): Promise<string | PublishOutcome> {
  const token = request.account.accessToken;
  const url = request.options.mediaUrls?.[0] ?? '';
  let upload: Json | null = null;
  const register = async () => {
    const registered = await registerVideo(api, token);
    current.mediaId = registered.mediaId;
    upload = registered.upload;
    await store();
  };
  if (typeof current.mediaId !== 'string') await register();
  let status = text((await api.json(token, { path: `/media/${encodeURIComponent(text(current.mediaId))}` })).status);
  if (status === 'registered' && current.uploaded !== true) {
    if (!media) throw new PlatformError('permanent', 'this service was built without a media fetcher', { platform: 'pinterest' });
    if (upload === null) await register();
    const form = obj(upload);
    const file = await media.fetch(url, 'pinterest');
    const boundary = `----socialapi${randomBytes(12).toString('hex')}`;
    const response = await api.http.send('pinterest', {
      method: 'POST',
      url: text(form.url),
      body: formBody(boundary, obj(form.parameters), file.bytes, 'video.mp4'),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
    if (response.status >= 300) {
      throw new PlatformError(response.status >= 500 ? 'transient' : 'permanent', `the video upload to Pinterest's storage answered HTTP ${response.status}`, { platform: 'pinterest', status: response.status });
    }
    current.uploaded = true;
    await store();
    status = 'processing';
  }
  const mediaId = text(current.mediaId);
  if (status === 'succeeded') return mediaId;
  if (status === 'failed') throw invalid('mediaUrls[0]', `Pinterest could not process the video ${url}`);
  const checks = progressNumber(current, 'checks');
  if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'Pinterest did not finish processing the video in time', { platform: 'pinterest' });
  current.checks = checks + 1;
  await store();
  return { status: 'processing', checkAfterMs: processingDelay(checks) };
}

function mediaSource(options: PinterestOptions, mediaId: string | null): Json {
  const urls = options.mediaUrls ?? [];
  if (options.mediaType === 'VIDEO') {
    const cover = options.coverImageUrl ? { cover_image_url: options.coverImageUrl } : { cover_image_key_frame_time: options.coverImageKeyFrameTime ?? 0 };
    return { source_type: 'video_id', media_id: mediaId, ...cover };
  }
  if (options.mediaType === 'CAROUSEL') return { source_type: 'multiple_image_urls', items: urls.map((url) => ({ url })) };
  return { source_type: 'image_url', url: urls[0] };
}

export function pinterestPublisher(api: PinterestApi, media: MediaFetcher | undefined): Publisher<PinterestOptions> {
  return {
    async publish(request: PublishRequest<PinterestOptions>): Promise<PublishOutcome> {
      const { account, options, progress } = request;
      const token = account.accessToken;
      const current: PublishProgress = { ...progress };
      const store = () => request.save(current);
      if (typeof current.pin !== 'string') {
        if (!options.mediaUrls?.length) throw invalid('mediaUrl', 'required for live posts');
        const boardId = await checkBoard(api, token, options);
        let mediaId: string | null = null;
        if (options.mediaType === 'VIDEO') {
          const ready = await videoReady(api, media, request, current, store);
          if (typeof ready !== 'string') return ready;
          mediaId = ready;
        }
        const description = request.content.length ? request.content : null;
        const body: Json = {
          board_id: boardId,
          ...(options.boardSectionId ? { board_section_id: options.boardSectionId } : {}),
          ...(options.title ? { title: options.title } : {}),
          ...(description ? { description } : {}),
          ...(options.link ? { link: options.link } : {}),
          ...(options.altText && options.mediaType !== 'VIDEO' ? { alt_text: options.altText } : {}),
          media_source: mediaSource(options, mediaId),
        };
        const made = await createOnce<string>(
          { platform: 'pinterest', progress: current, store, now: request.now, inFlightMs: request.inFlightMs },
          {
            key: 'pin',
            async make() {
              const pin = pinterestBody(await api.call(token, { method: 'POST', path: '/pins', json: body }));
              const id = str(pin.id);
              if (!id) throw new PlatformError('permanent', 'Pinterest created the Pin without naming it', { platform: 'pinterest' });
              return id;
            },
            find: (since) => findPin(api, token, boardId, { title: options.title ?? null, description, link: options.link ?? null }, since, request.isTaken),
          },
        );
        if (isWaiting(made)) return made;
        current.pin = made;
        delete current.checks;
        await store();
      }
      const id = text(current.pin);
      return { status: 'published', platformPostId: id, url: pinUrl(api, id) };
    },
  };
}

const same = (value: unknown, expected: string | null): boolean => (str(value) ?? null) === expected;

/** The Pin an interrupted call made: on the board, newest first, with the same title, description and link, made since `since`. */
async function findPin(api: PinterestApi, token: string, boardId: string, fields: { title: string | null; description: string | null; link: string | null }, since: number, isTaken: (id: string) => Promise<boolean>): Promise<string | null> {
  const found = await confirmedLook<Json, string>(since, {
    page: async (bookmark) => {
      const body = await api.json(token, { path: `/boards/${encodeURIComponent(boardId)}/pins`, query: { page_size: PAGE, ...(bookmark ? { bookmark } : {}) } });
      return { items: list(body.items).map(obj), next: str(body.bookmark) };
    },
    madeAt: (pin) => pinterestTime(pin.created_at),
    matches: async (pin) => same(pin.title, fields.title) && same(pin.description, fields.description) && same(pin.link, fields.link) && !(await isTaken(text(pin.id))),
  });
  return found ? text(found.id) : null;
}
