// rupload.facebook.com (platforms.md §3.1): `POST /video-upload/{version}/{video-id}` with
// `Authorization: OAuth {page-token}` and either a `file_url` header (fetched for real) or the
// bytes as the body with `offset` and `file_size` headers (resumable: a wrong offset is
// OffsetInvalidError). Errors use the `debug_info` shape clients report for this host
// (**unconfirmed** beyond the type names of §3.1).
import type { RouteContext } from '../core/router.ts';
import { Host } from '../core/router.ts';
import { isRawBody } from '../core/body.ts';
import { PlatformError, type HostErrors } from '../core/platform-error.ts';
import { sniff } from '../media/sniff.ts';
import { graphToken } from '../meta/auth.ts';
import { graphInput } from '../meta/params.ts';
import { fetchVideo, uploadDone } from './video-status.ts';

const ruploadError = (status: number, type: string, message: string) => new PlatformError(status, { debug_info: { retriable: status >= 500, type, message } });

const errors: HostErrors = {
  notFound: (method, path) => ruploadError(404, 'NotFoundError', `No upload session at ${method} ${path}`),
  badRequest: (message) => ruploadError(400, 'PartialRequestError', message),
  serverError: (status) => ruploadError(status, 'ProcessingFailedError', 'Processing failed, please retry'),
  rateLimited: () => ruploadError(429, 'RateLimitError', 'Too many requests'),
  custom: (fault) => ruploadError(fault.status ?? 400, String(fault.code ?? 'ProcessingFailedError'), fault.message ?? 'Upload failed'),
};

function upload(ctx: RouteContext): unknown {
  const video = ctx.state.meta.fbVideos.get(ctx.params.videoId ?? '');
  if (!video) throw errors.notFound(ctx.method, ctx.path);
  const token = graphToken(ctx, graphInput(ctx), { platforms: ['facebook'] });
  if (token.type !== 'page' || token.subjectId !== video.pageId) throw ruploadError(401, 'AuthError', 'A Page access token of the video\'s Page is required');
  if (video.upload === 'complete') throw ruploadError(400, 'PartialRequestError', 'The upload of this video is already complete');
  const header = (name: string) => {
    const value = ctx.request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const fileUrl = header('file_url') ?? header('file-url');
  if (fileUrl) {
    void ctx.state.track(fetchVideo(ctx.state, video, fileUrl));
    return { success: true };
  }
  const body = ctx.body;
  if (!isRawBody(body)) throw ruploadError(400, 'PartialRequestError', 'Send the file as the request body (application/octet-stream) or a file_url header');
  const offset = Number(header('offset') ?? '0');
  const fileSize = Number(header('file_size') ?? header('file-size') ?? NaN);
  if (!Number.isFinite(fileSize) || fileSize <= 0) throw ruploadError(400, 'PartialRequestError', 'The file_size header is required');
  if (offset !== video.bytes) throw ruploadError(400, 'OffsetInvalidError', `Expected offset ${video.bytes}, got ${offset}`);
  if (offset === 0) video.error = null;
  const type = offset === 0 ? sniff(body.head) : null;
  video.bytes += body.size;
  video.upload = 'in_progress';
  if (offset === 0 && type?.kind !== 'video') video.error = 'The video file you selected is in a format that we don\'t support.';
  if (video.bytes >= fileSize) {
    const failed = video.error;
    uploadDone(ctx.state, video, failed ? null : { kind: 'video', mime: 'video/mp4' });
  }
  return { success: true };
}

export function ruploadHost(): Host {
  const host = new Host('rupload.facebook.com', errors);
  host.post('/video-upload/:version/:videoId', upload);
  return host;
}
