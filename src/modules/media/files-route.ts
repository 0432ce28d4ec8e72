// GET/HEAD /media-files/<key>: the local store's files, where platforms fetch them. Outside
// /api/v1: no key (the unguessable key is the capability), no rate limit, not in the API
// document. What fetchers rely on (RFC 9110):
// - Content-Type from the key's extension (the type was read from the bytes at upload),
//   Content-Length, Accept-Ranges;
// - a strong ETag and Last-Modified, If-None-Match / If-Modified-Since → 304;
// - one byte range → 206 with Content-Range (platforms fetch video in ranges), If-Range;
//   an unsatisfiable one → 416 with "Content-Range: bytes */size"; several ranges or a
//   malformed header → the whole file (the RFC lets a server ignore Range);
// - a year of caching: a key never names other bytes.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../http/errors.ts';
import type { Api } from '../../http/types.ts';
import { localMediaStore } from '../../storage/index.ts';
import { IMMUTABLE_CACHE_CONTROL } from '../../storage/types.ts';
import { EXTENSIONS } from './detect.ts';
import { STORAGE_KEY } from './ingest.ts';

export const MEDIA_FILES_PREFIX = '/media-files';

const TYPES = new Map(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/** The one range a Range header asks for, 'unsatisfiable', or null to send the whole file. */
export function parseRange(header: string | undefined, size: number): ByteRange {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

function notModified(request: FastifyRequest, etag: string, modified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) <= Math.floor(since / 1000);
}

/** If-Range: the range applies only while the client's copy is still this one. */
function rangeStillValid(request: FastifyRequest, etag: string, modified: Date): boolean {
  const ifRange = request.headers['if-range'];
  if (typeof ifRange !== 'string') return true;
  if (ifRange.startsWith('"')) return ifRange === etag;
  return Date.parse(ifRange) === Math.floor(modified.getTime() / 1000) * 1000;
}

async function serveFile(request: FastifyRequest<{ Params: { key: string } }>, reply: FastifyReply, dir: string): Promise<FastifyReply> {
  const { key } = request.params;
  if (!STORAGE_KEY.test(key)) throw errors.notFound('Media file');
  const file = `${dir}/${key}`;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw errors.notFound('Media file');
  const size = info.size;
  const etag = `"${key.slice(0, key.indexOf('.'))}-${size.toString(36)}"`;
  reply.headers({
    'content-type': TYPES.get(key.slice(key.indexOf('.') + 1)) ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    etag,
    'last-modified': info.mtime.toUTCString(),
    'cache-control': IMMUTABLE_CACHE_CONTROL,
  });
  if (notModified(request, etag, info.mtime)) return reply.code(304).send();
  const range = rangeStillValid(request, etag, info.mtime) ? parseRange(request.headers.range, size) : null;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).type('application/json; charset=utf-8').send({ error: { message: `range: the file has ${size} bytes` } });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', end - start + 1);
  if (request.method === 'HEAD' || size === 0) return reply.send();
  return reply.send(createReadStream(file, { start, end }));
}

export function registerMediaFiles(app: Api): void {
  const { dir } = localMediaStore(app.deps.config);
  app.route<{ Params: { key: string } }>({
    method: ['GET', 'HEAD'],
    url: `${MEDIA_FILES_PREFIX}/:key`,
    schema: { hide: true },
    exposeHeadRoute: false,
    handler: (request, reply) => serveFile(request, reply, dir),
  });
}
