// videos.insert by the resumable protocol (youtube.md §4): the start request (the video resource,
// X-Upload-Content-Length and -Type) answers a session URI in Location and creates nothing; PUTs
// to it carry the bytes whole or in chunks (Content-Range `bytes first-last/total`; every chunk
// but the last a multiple of 256 KiB), answered 308 with `Range: bytes=0-N` until the last byte,
// then 201 with the video. `Content-Range: bytes */total` with no body asks where the upload
// stands: 308 (with Range once bytes arrived), or 200 with the video when complete. An unknown or
// expired session is 404: nothing was created, the client starts again. The insert is charged to
// the project's uploads bucket at the start; each channel has its own daily upload limit
// (400 uploadLimitExceeded). Videos of a project YouTube has not audited are locked private.
import type { RouteContext } from '../core/router.ts';
import { isRawBody } from '../core/body.ts';
import { obj } from '../core/control.ts';
import { sniff } from '../media/sniff.ts';
import { actingChannel, chargeUpload, pacificDay, UPLOAD, youtubeAuth } from './auth.ts';
import { badRequest, googleError } from './errors.ts';
import type { UploadSession, YouTubeVideo } from './store.ts';
import { checkSnippet, checkStatus, partsOf, videoResource } from './videos.ts';

export const CHUNK_MULTIPLE = 256 * 1024;
const MAX_BYTES = 256 * 1024 ** 3;
const UPLOAD_PATH = 'https://www.googleapis.com/upload/youtube/v3/videos';

const header = (ctx: RouteContext, name: string): string | undefined => {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** POST /upload/youtube/v3/videos?uploadType=resumable&part=…: the session. */
export function startUpload(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, UPLOAD);
  if (ctx.query.uploadType !== 'resumable') throw badRequest('invalidUploadType', 'The sandbox simulates resumable uploads only: uploadType=resumable.');
  const parts = partsOf(ctx);
  const channel = actingChannel(caller);
  const total = Number(header(ctx, 'x-upload-content-length') ?? Number.NaN);
  if (!Number.isInteger(total) || total <= 0) throw badRequest('mediaBodyRequired', 'X-Upload-Content-Length must give the size of the video in bytes.');
  if (total > MAX_BYTES) throw badRequest('fileTooLarge', 'The video is larger than 256 GB.');
  const contentType = header(ctx, 'x-upload-content-type') ?? 'application/octet-stream';
  if (!contentType.startsWith('video/') && contentType !== 'application/octet-stream') throw badRequest('invalidContentType', `Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`);
  const body = obj(ctx.body);
  const now = ctx.state.clock.now();
  const snippet = checkSnippet(obj(body.snippet));
  const status = checkStatus(obj(body.status), now);
  const dayKey = `${channel.id}:${pacificDay(now)}`;
  if ((ctx.state.youtube.channelUploads.get(dayKey) ?? 0) >= ctx.state.settings.youtube.channelDailyUploads) {
    throw badRequest('uploadLimitExceeded', 'The user has exceeded the number of videos they may upload. Try again in 24 hours.');
  }
  chargeUpload(ctx, caller);
  const session: UploadSession = {
    id: ctx.state.ids.opaque('youtube-upload', 40),
    clientId: caller.token.clientId,
    channelId: channel.id,
    total,
    contentType,
    received: 0,
    sniffed: null,
    resource: { ...snippet, ...status, parts, notifySubscribers: ctx.query.notifySubscribers !== 'false' },
    createdAt: now,
    expiresAt: now + ctx.state.settings.youtube.sessionSeconds * 1000,
    videoId: null,
  };
  ctx.state.youtube.sessions.set(session.id, session);
  const location = `${UPLOAD_PATH}?uploadType=resumable&part=${encodeURIComponent(parts.join(','))}&upload_id=${session.id}`;
  return ctx.reply.status(200).header('location', location).header('x-guploader-uploadid', session.id).send();
}

function complete(ctx: RouteContext, session: UploadSession): YouTubeVideo {
  const now = ctx.state.clock.now();
  const r = session.resource as unknown as ReturnType<typeof checkSnippet> & ReturnType<typeof checkStatus>;
  const audited = ctx.state.settings.youtube.audited;
  const video: YouTubeVideo = {
    id: ctx.state.ids.opaque('youtube-video', 11),
    channelId: session.channelId,
    title: r.title,
    description: r.description,
    tags: r.tags,
    categoryId: r.categoryId,
    defaultLanguage: r.defaultLanguage,
    requestedPrivacy: r.privacyStatus,
    // Unaudited projects (created after 2020-07-28): every upload is locked private.
    privacyStatus: audited ? r.privacyStatus : 'private',
    publishAt: audited ? r.publishAt : null,
    selfDeclaredMadeForKids: r.selfDeclaredMadeForKids,
    containsSyntheticMedia: r.containsSyntheticMedia,
    embeddable: r.embeddable,
    license: r.license,
    lockedPrivate: !audited,
    uploadStatus: session.sniffed ? 'uploaded' : 'failed',
    failureReason: session.sniffed ? null : 'invalidFile',
    mimeType: session.sniffed ?? session.contentType,
    size: session.total,
    hasCustomThumbnail: false,
    createdAt: now,
    readyAt: now + ctx.state.settings.processing.youtubeVideoMs,
    deleted: false,
    stats: { viewCount: 0, likeCount: 0, favoriteCount: 0, shares: 0, estimatedMinutesWatched: 0, subscribersGained: 0 },
  };
  ctx.state.youtube.videos.set(video.id, video);
  const dayKey = `${session.channelId}:${pacificDay(now)}`;
  ctx.state.youtube.channelUploads.set(dayKey, (ctx.state.youtube.channelUploads.get(dayKey) ?? 0) + 1);
  session.videoId = video.id;
  return video;
}

function incomplete(ctx: RouteContext, session: UploadSession): unknown {
  const reply = ctx.reply.status(308);
  if (session.received > 0) reply.header('range', `bytes=0-${session.received - 1}`);
  return reply.send();
}

/** PUT {session URI}: a chunk, the whole file, or a status query. */
export function putUpload(ctx: RouteContext): unknown {
  const session = ctx.state.youtube.sessions.get(ctx.query.upload_id ?? '');
  const now = ctx.state.clock.now();
  if (!session || session.expiresAt <= now) throw googleError(404, 'notFound', 'The upload session does not exist or has expired. Start a new upload.', 'global');
  const parts = (session.resource.parts as string[] | undefined) ?? ['snippet', 'status'];
  const finished = () => {
    const video = ctx.state.youtube.videos.get(session.videoId ?? '');
    return video ? videoResource(ctx, video, parts) : {};
  };
  const body = isRawBody(ctx.body) ? ctx.body : null;
  const size = body?.size ?? 0;
  const range = header(ctx, 'content-range');
  const query = range ? /^bytes \*\/(\d+|\*)$/.exec(range) : null;
  if (query) {
    if (size !== 0) throw badRequest('badRequest', 'A status query (Content-Range: bytes */total) has no body.');
    if (session.videoId) return ctx.reply.status(200).send(finished());
    return incomplete(ctx, session);
  }
  if (session.videoId) return ctx.reply.status(200).send(finished());
  let first = 0;
  let last = size - 1;
  let total = session.total;
  if (range) {
    const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range);
    if (!match) throw badRequest('badRequest', `Invalid Content-Range: ${range}`);
    first = Number(match[1]);
    last = Number(match[2]);
    total = match[3] === '*' ? session.total : Number(match[3]);
  }
  if (total !== session.total) throw badRequest('badRequest', `The Content-Range total ${total} is not the X-Upload-Content-Length ${session.total} of the session.`);
  if (last < first || last - first + 1 !== size) throw badRequest('badRequest', `The Content-Range ${range ?? '(none)'} does not match the ${size} bytes sent.`);
  if (last >= session.total) throw badRequest('badRequest', `The Content-Range ends past the ${session.total} bytes of the upload.`);
  if (first > session.received) throw badRequest('badRequest', `The upload continues at byte ${session.received}, not ${first}: ask where it stands with Content-Range: bytes */${session.total}.`);
  const isLast = last === session.total - 1;
  if (!isLast && size % CHUNK_MULTIPLE !== 0) throw badRequest('badRequest', `Every chunk but the last must be a multiple of 256 KiB (${CHUNK_MULTIPLE} bytes); this one is ${size}.`);
  if (first === 0 && body) {
    const type = sniff(body.head);
    session.sniffed = type?.kind === 'video' ? type.mime : null;
  }
  // Bytes already received (a chunk sent again) are taken once.
  session.received = Math.max(session.received, last + 1);
  if (session.received < session.total) return incomplete(ctx, session);
  const video = complete(ctx, session);
  return ctx.reply.status(201).send(videoResource(ctx, video, parts));
}
