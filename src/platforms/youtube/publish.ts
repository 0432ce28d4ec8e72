// YouTube publishing (DESIGN "More platforms", Publishing and exactly once; youtube.md §4): one
// video by the resumable protocol. Nothing exists on YouTube until the last byte arrives, so the
// start request is safe to repeat, and its session URI is stored before the first byte: a later
// attempt (after a crash, a cut connection, a 5xx) asks the session where it stands with
// `Content-Range: bytes */total` and resumes from its Range (308), adopts the finished video
// (200/201), or starts a new session when YouTube no longer knows it (404: nothing was created).
// The bytes go in 8 MiB chunks (a multiple of 256 KiB, as the protocol asks). Once the video id
// is stored, the follow-ups run, each once: the thumbnail (thumbnails.set replaces, so repeating
// it is harmless; a refusal — an unverified channel — is kept as a note and the video stays
// published), the playlist item (marked before the call; an interrupted one is looked up with
// playlistItems.list?videoId=) and the first comment (marked; looked up by the channel and text).
// None of them fails the target once the video exists: a refusal is one of its warnings.
import { createOnce, isWaiting, type Waiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import { list, obj, str, text, type Json } from '../json.ts';
import type { MediaFetcher } from '../media-bytes.ts';
import { postUrl } from '../post-url.ts';
import { addPublishWarning, progressNumber } from '../publisher.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { DATA_API, UPLOAD_API, youtubeBody, type YouTubeApi } from './api.ts';
import { YOUTUBE_DEFAULT_CATEGORY, type YouTubeOptions } from './options.ts';

/** 8 MiB: 32 × 256 KiB. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

export const watchUrl = (api: YouTubeApi, id: string): string | null => postUrl(api.http, `https://www.youtube.com/watch?v=${id}`, 'https://www.youtube.com');

/** The video resource of the start request (youtube.md §5). */
export function videoResource(options: YouTubeOptions, description: string): Json {
  // publishAt: uploaded private, and YouTube makes it public at that time.
  const privacyStatus = options.publishAt ? 'private' : (options.privacyStatus ?? 'public');
  return {
    snippet: {
      title: options.title ?? '',
      description,
      ...(options.tags?.length ? { tags: options.tags } : {}),
      categoryId: options.categoryId ?? YOUTUBE_DEFAULT_CATEGORY,
      ...(options.defaultLanguage ? { defaultLanguage: options.defaultLanguage } : {}),
    },
    status: {
      privacyStatus,
      ...(options.publishAt ? { publishAt: options.publishAt } : {}),
      selfDeclaredMadeForKids: options.madeForKids ?? false,
      ...(options.containsSyntheticMedia !== undefined ? { containsSyntheticMedia: options.containsSyntheticMedia } : {}),
      ...(options.embeddable !== undefined ? { embeddable: options.embeddable } : {}),
      ...(options.license ? { license: options.license } : {}),
    },
  };
}

/** The next byte a 308 asks for: after its `Range: bytes=0-N`, or 0 when nothing arrived. */
const nextByte = (range: string | null): number => {
  const last = /bytes=0-(\d+)/.exec(range ?? '')?.[1];
  return last === undefined ? 0 : Number(last) + 1;
};

interface SessionState {
  kind: 'offset';
  offset: number;
}

/** A finished upload's video: its id, or a failure YouTube reported. */
function finished(body: unknown): string {
  const video = obj(body);
  const status = obj(video.status);
  const id = str(video.id);
  if (!id) throw new PlatformError('transient', 'YouTube finished the upload without naming the video', { platform: 'youtube' });
  const upload = text(status.uploadStatus);
  if (upload === 'failed' || upload === 'rejected') {
    const reason = text(status.failureReason) || text(status.rejectionReason) || upload;
    throw new PlatformError('invalid', `YouTube could not take the video (${upload}: ${reason}); check platformSpecificData.mediaUrl`, { platform: 'youtube', code: reason });
  }
  return id;
}

/** Attempts a follow-up gets for failures worth retrying (a 5xx, the day's quota) before it is given up. */
export const FOLLOW_UP_TRIES = 3;

interface FollowUpStep {
  /** Where the progress keeps the step's result (or `refused: …`). */
  name: 'thumbnail' | 'playlistItem' | 'comment';
  /** The platformSpecificData key a refusal's warning names. */
  key: string;
  /** What the step does, for the warning: "YouTube did not …". */
  what: string;
}

/**
 * A step after the video exists (thumbnail, playlist item, first comment), run once: its result
 * is saved under `progress[name]`. It must never fail the target: a failed target is published
 * again from the start, which would upload the video a second time. A refusal (a playlist not
 * found, comments disabled, an unverified channel's thumbnail, a lookup that cannot tell) is kept
 * as one of the target's warnings; a failure worth retrying is thrown (the job retries and the
 * next attempt comes straight back here) at most FOLLOW_UP_TRIES times, then given up the same way.
 */
async function followUp(current: PublishProgress, store: () => Promise<void>, step: FollowUpStep, run: () => Promise<string | Waiting>): Promise<Waiting | undefined> {
  if (current[step.name] !== undefined) return undefined;
  const triesKey = `${step.name}Tries`;
  try {
    const done = await run();
    if (isWaiting(done)) return done;
    current[step.name] = done;
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const tries = progressNumber(current, triesKey) + 1;
    if (error.retryable && tries < FOLLOW_UP_TRIES) {
      current[triesKey] = tries;
      await store();
      throw error;
    }
    current[step.name] = `refused: ${error.message}`;
    addPublishWarning(current, { key: step.key, message: `YouTube did not ${step.what}: ${error.message}` });
  }
  delete current[triesKey];
  await store();
  return undefined;
}

export function youtubePublisher(api: YouTubeApi, media: MediaFetcher | undefined): Publisher<YouTubeOptions> {
  /** PUT to the session URI (no quota: the start was charged). 308 is "go on", not a failure. */
  const put = async (session: string, token: string, headers: Record<string, string>, body: Uint8Array) => {
    const response = await api.http.send('youtube', { method: 'PUT', url: session, bearer: token, headers, body });
    if (response.status === 308) return { done: false as const, next: nextByte(response.headers.get('range')) };
    if (response.status === 404) return { gone: true as const };
    return { done: true as const, id: finished(youtubeBody(response)) };
  };

  /** Where the session stands: the next byte, the finished video, or gone (404). */
  const status = async (session: string, token: string, total: number): Promise<SessionState | { kind: 'done'; id: string } | { kind: 'gone' }> => {
    const answer = await put(session, token, { 'content-range': `bytes */${total}` }, new Uint8Array(0));
    if ('gone' in answer) return { kind: 'gone' };
    return answer.done ? { kind: 'done', id: answer.id } : { kind: 'offset', offset: answer.next };
  };

  async function upload(request: PublishRequest<YouTubeOptions>, current: PublishProgress, store: () => Promise<void>): Promise<string> {
    const { options, account } = request;
    const token = account.accessToken;
    if (!media) throw new PlatformError('permanent', 'this service was built without media fetching', { platform: 'youtube' });
    const url = options.mediaUrl;
    if (!url) throw new PlatformError('invalid', 'platformSpecificData.mediaUrl: required for live posts (the video)', { platform: 'youtube' });
    // A stored session is asked first, with the total it was started with: one that finished (its
    // last answer lost) is adopted without the bytes, which may no longer be fetchable (a signed
    // URL that expired) or no longer the same.
    let session = typeof current.session === 'string' && typeof current.total === 'number' ? current.session : null;
    let offset = 0;
    if (session) {
      const where = await status(session, token, Number(current.total));
      if (where.kind === 'done') return where.id;
      if (where.kind === 'gone') session = null;
      else offset = where.offset;
    }
    const { bytes, contentType } = await media.fetch(url, 'youtube');
    const total = bytes.length;
    // Other bytes than the session was started for cannot go on in it (it made nothing yet).
    if (session && current.total !== total) session = null;
    if (!session) {
      if (options.publishAt && Date.parse(options.publishAt) <= request.now()) {
        throw new PlatformError('invalid', 'platformSpecificData.publishAt: must be in the future when the video is uploaded', { platform: 'youtube' });
      }
      const type = contentType?.startsWith('video/') ? contentType.split(';')[0] ?? 'video/mp4' : 'video/mp4';
      const response = await api.call({
        method: 'POST',
        url: `${UPLOAD_API}/videos`,
        query: { uploadType: 'resumable', part: 'snippet,status', ...(options.notifySubscribers !== undefined ? { notifySubscribers: options.notifySubscribers } : {}) },
        json: videoResource(options, request.content),
        headers: { 'x-upload-content-length': String(total), 'x-upload-content-type': type },
        token,
        units: 'upload',
        now: request.now(),
      });
      session = response.headers.get('location');
      if (!session) throw new PlatformError('transient', 'YouTube started the upload without a session URI', { platform: 'youtube' });
      // Stored before the first byte: a later attempt resumes this session instead of uploading again.
      current.session = session;
      current.total = total;
      await store();
      offset = 0;
    }
    for (;;) {
      const last = Math.min(offset + CHUNK_BYTES, total) - 1;
      const answer = await put(session, token, { 'content-type': 'application/octet-stream', 'content-range': `bytes ${offset}-${last}/${total}` }, bytes.subarray(offset, last + 1));
      if ('gone' in answer) {
        // The session ended (expired): nothing was created; the next attempt starts a new one.
        delete current.session;
        delete current.total;
        await store();
        throw new PlatformError('transient', 'YouTube no longer knows the upload session (expired); a new upload starts on the next attempt', { platform: 'youtube', status: 404 });
      }
      if (answer.done) return answer.id;
      offset = answer.next;
    }
  }

  return {
    async publish(request: PublishRequest<YouTubeOptions>): Promise<PublishOutcome> {
      const { options, account } = request;
      const token = account.accessToken;
      const current: PublishProgress = { ...request.progress };
      const store = () => request.save(current);
      const once = { platform: 'youtube', progress: current, store, now: request.now, inFlightMs: request.inFlightMs };

      if (typeof current.video !== 'string') {
        current.video = await upload(request, current, store);
        delete current.session;
        delete current.total;
        await store();
      }
      const videoId = text(current.video);

      // Each follow-up runs once and never fails the target (followUp): the video is out.
      if (options.thumbnailUrl && media) {
        const thumbnailUrl = options.thumbnailUrl;
        await followUp(current, store, { name: 'thumbnail', key: 'thumbnailUrl', what: 'set the thumbnail (custom thumbnails need a verified channel)' }, async () => {
          const { bytes, contentType } = await media.fetch(thumbnailUrl, 'youtube');
          // Setting a thumbnail replaces the last one: repeating it after a crash is harmless.
          await api.call({ method: 'POST', url: `${UPLOAD_API}/thumbnails/set`, query: { videoId }, body: bytes, headers: { 'content-type': contentType?.split(';')[0] ?? 'image/jpeg' }, token, units: 50, now: request.now() });
          return 'set';
        });
      }

      if (options.playlistId) {
        const playlistId = options.playlistId;
        const waiting = await followUp(current, store, { name: 'playlistItem', key: 'playlistId', what: `add the video to the playlist ${playlistId}` }, () =>
          createOnce<string>(once, {
            key: 'playlist',
            make: async () => text((await api.json({ method: 'POST', url: `${DATA_API}/playlistItems`, query: { part: 'snippet' }, json: { snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } }, token, units: 50, now: request.now() })).id),
            find: async () => {
              const found = await api.json({ url: `${DATA_API}/playlistItems`, query: { part: 'id', playlistId, videoId }, token, units: 1, now: request.now() });
              return str(obj(list(found.items)[0]).id);
            },
          }),
        );
        if (waiting) return waiting;
      }

      if (options.firstComment) {
        const comment = options.firstComment;
        const waiting = await followUp(current, store, { name: 'comment', key: 'firstComment', what: 'post the first comment' }, () =>
          createOnce<string>(once, {
            key: 'comment',
            make: async () =>
              text((await api.json({ method: 'POST', url: `${DATA_API}/commentThreads`, query: { part: 'snippet' }, json: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: comment } } } }, token, units: 50, now: request.now() })).id),
            find: async (since) => findComment(api, token, videoId, account.platformUserId, comment, since, request.now()),
          }),
        );
        if (waiting) return waiting;
      }
      return { status: 'published', platformPostId: videoId, url: watchUrl(api, videoId) };
    },
  };
}

/** The channel's top-level comment with this text, made since `since` (newest first, one page of 100). */
async function findComment(api: YouTubeApi, token: string, videoId: string, channelId: string, comment: string, since: number, now: number): Promise<string | null> {
  const body = await api.json({ url: `${DATA_API}/commentThreads`, query: { part: 'snippet', videoId, order: 'time', maxResults: 100 }, token, units: 1, now });
  for (const thread of list(body.items).map(obj)) {
    const top = obj(obj(thread.snippet).topLevelComment);
    const snippet = obj(top.snippet);
    const at = Date.parse(text(snippet.publishedAt));
    if (text(obj(snippet.authorChannelId).value) === channelId && text(snippet.textOriginal) === comment && (Number.isNaN(at) || at >= since)) return text(top.id) || text(thread.id);
  }
  return null;
}
