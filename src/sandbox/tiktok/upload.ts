// FILE_UPLOAD transfers (platforms.md §5.3, media transfer guide): `PUT {upload_url}` with
// `Content-Range: bytes {first}-{last}/{total}`, chunks in order, each of chunk_size except the
// last; 206 while chunks are missing, 201 when the file is complete.
import { isRawBody } from '../core/body.ts';
import type { RouteContext } from '../core/router.ts';
import { acceptedType } from './download.ts';
import { sniff } from '../media/sniff.ts';
import { invalidParams, tiktokError } from './envelope.ts';

export function uploadChunk(ctx: RouteContext): unknown {
  const publishId = ctx.state.tiktok.uploads.get(ctx.query.upload_id ?? '');
  const publish = publishId ? ctx.state.tiktok.publishes.get(publishId) : undefined;
  if (!publish || publish.uploadToken !== ctx.query.upload_token) throw tiktokError('invalid_params', 'The upload_url is invalid or has expired.', 404);
  if (publish.transferredAt !== null) throw invalidParams('The upload is already complete.');
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(ctx.request.headers['content-range'] ?? '');
  if (!range) throw invalidParams('Content-Range must be "bytes {first}-{last}/{total}"');
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  const size = isRawBody(ctx.body) ? ctx.body.size : 0;
  if (total !== publish.videoSize) throw invalidParams('The total size in Content-Range differs from video_size');
  if (first !== publish.uploadedBytes) throw tiktokError('invalid_params', `Chunks must be uploaded in order: expected the range to start at ${publish.uploadedBytes}`, 416);
  if (last - first + 1 !== size) throw invalidParams('The body size differs from the Content-Range');
  const index = publish.chunksReceived;
  const isLast = index === publish.totalChunkCount - 1;
  const expected = isLast ? publish.videoSize - index * publish.chunkSize : publish.chunkSize;
  if (size !== expected) throw invalidParams(`Chunk ${index + 1} must be ${expected} bytes`);
  if (index === 0 && isRawBody(ctx.body)) publish.head = ctx.body.head;
  publish.uploadedBytes += size;
  publish.chunksReceived++;
  if (!isLast) return ctx.reply.status(206).send();
  publish.transferredAt = ctx.state.clock.now();
  if (!acceptedType(publish, publish.head ? sniff(publish.head) : null)) publish.failReason = 'file_format_check_failed';
  return ctx.reply.status(201).send();
}
