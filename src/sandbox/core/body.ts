// Body parsers of the sandbox's own scope (it is mounted inside the service's app, whose parsers
// and limits are not the platforms'): JSON (an empty JSON body is `{}`: TikTok's creator_info
// query is a POST with no body), form-urlencoded (Graph and reddit), and raw bytes for upload
// endpoints, counted, sniffed and hashed but not kept (content-addressed stores, like Bluesky's
// blobs, name them by the hash); multipart bodies are buffered and split (multipart.ts).
import { createHash } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { SNIFF_BYTES } from '../media/sniff.ts';
import { boundaryOf, parseMultipart } from './multipart.ts';

const TEXT_LIMIT = 16 * 1024 * 1024;
/** WhatsApp documents go up to 100 MB (platforms.md §7.2), plus the multipart envelope. */
const MULTIPART_LIMIT = 101 * 1024 * 1024;

export interface RawBody {
  raw: true;
  size: number;
  head: Buffer;
  /** SHA-256 of the whole body, hex. */
  sha256: string;
}

export function isRawBody(body: unknown): body is RawBody {
  return typeof body === 'object' && body !== null && (body as { raw?: unknown }).raw === true;
}

class BodyError extends Error {
  readonly statusCode = 400;
}

export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: TEXT_LIMIT }, (_req, text, done) => {
    const source = typeof text === 'string' ? text : text.toString('utf8');
    if (!source.trim()) return done(null, {});
    try {
      done(null, JSON.parse(source) as unknown);
    } catch {
      done(new BodyError('Request body is not valid JSON'), undefined);
    }
  });
  await app.register(formbody, { bodyLimit: TEXT_LIMIT });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: MULTIPART_LIMIT }, (req, raw, done) => {
    const boundary = boundaryOf(req.headers['content-type']);
    if (!boundary) return done(new BodyError('multipart body without a boundary'), undefined);
    try {
      done(null, parseMultipart(Buffer.isBuffer(raw) ? raw : Buffer.from(raw), boundary));
    } catch (error) {
      done(new BodyError(error instanceof Error ? error.message : String(error)), undefined);
    }
  });
  app.addContentTypeParser('*', (_req, payload, done) => {
    const head: Buffer[] = [];
    let headSize = 0;
    let size = 0;
    const hash = createHash('sha256');
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
      if (headSize < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - headSize);
        head.push(part);
        headSize += part.length;
      }
    });
    payload.on('end', () => done(null, { raw: true, size, head: Buffer.concat(head), sha256: hash.digest('hex') } satisfies RawBody));
    payload.on('error', (error) => done(error, undefined));
  });
}
