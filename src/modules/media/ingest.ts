// Streams one upload into the media store. The first bytes are read to learn the type (and refuse
// a wrong one before anything is stored); the rest flows straight through to the store, counted,
// so the limit stops an upload the moment it is passed. Nothing here holds more than a chunk and
// the head in memory, whatever the size of the file.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import type { MediaStorage } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { mediaStore, storeFor } from '../../storage/index.ts';
import { detectMediaType, EXTENSIONS, MEDIA_TYPES, SNIFF_BYTES, type MediaType } from './detect.ts';
import { verifyHead } from './verify.ts';

export interface Incoming {
  /** The request field the bytes came from ('file', 'url', 'base64'); 400s name it. */
  field: 'file' | 'url' | 'base64';
  source: AsyncIterable<Uint8Array>;
  /** The client's mimeType, when given; it must match the bytes. */
  declared: MediaType | null;
  /** Turns an error of the source (a failed fetch, a dropped client) into an answer, or null. */
  explain?: (error: unknown) => ApiError | null;
}

export interface StoredUpload {
  storage: MediaStorage;
  key: string;
  type: MediaType;
  size: number;
}

/** An object name nobody can guess (144 random bits) with the extension of its type. */
export function newStorageKey(type: MediaType): string {
  return `${randomBytes(18).toString('base64url')}.${EXTENSIONS[type]}`;
}

/** What a storage key looks like; anything else is never looked up on disk. */
export const STORAGE_KEY = /^[A-Za-z0-9_-]{24}\.(?:jpg|png|webp|gif|mp4|mov)$/;

export function tooLarge(field: string, maxBytes: number): ApiError {
  return errors.tooLarge(`${field}: larger than the upload limit of ${maxBytes} bytes`);
}

export function mismatch(declared: MediaType, actual: MediaType): ApiError {
  return errors.invalid('mimeType', `declared ${declared}, but the file is ${actual}`);
}

function unsupported(field: string, found: string | null): ApiError {
  const what = found ? `${found} is not an accepted type` : 'the type of the file is not recognised';
  return errors.invalid(field, `${what}; accepted: ${MEDIA_TYPES.join(', ')}`);
}

/** Stores the upload; throws an ApiError (400, 413) or the store's own failure. */
export async function storeUpload(config: Config, incoming: Incoming): Promise<StoredUpload> {
  const { field, declared } = incoming;
  const maxBytes = config.mediaMaxBytes;
  const explain = (error: unknown): unknown => (error instanceof ApiError ? error : (incoming.explain?.(error) ?? error));
  const source = incoming.source[Symbol.asyncIterator]();
  let finished = false;
  const stop = async () => {
    if (!finished) {
      finished = true;
      await source.return?.().catch(() => undefined);
    }
  };

  const headChunks: Buffer[] = [];
  let headSize = 0;
  try {
    while (headSize < SNIFF_BYTES) {
      const next = await source.next();
      if (next.done) {
        finished = true;
        break;
      }
      headChunks.push(Buffer.from(next.value));
      headSize += next.value.length;
      if (headSize > maxBytes) throw tooLarge(field, maxBytes);
    }
  } catch (error) {
    await stop();
    throw explain(error);
  }
  const head = Buffer.concat(headChunks);
  if (head.length === 0) throw errors.invalid(field, 'the file is empty');
  // The type is read from the first SNIFF_BYTES, and the same bytes are checked to be that type.
  const sniffed = head.subarray(0, SNIFF_BYTES);
  const detection = await detectMediaType(sniffed);
  if (!detection.ok) {
    await stop();
    throw unsupported(field, detection.found);
  }
  if (declared !== null && declared !== detection.type) {
    await stop();
    throw mismatch(declared, detection.type);
  }
  // A valid signature is not enough: the bytes after it must be that type too (verify.ts).
  const verdict = verifyHead(detection.type, sniffed);
  if (verdict !== null) {
    await stop();
    throw errors.invalid(field, `${verdict}; it is not a valid ${detection.type} file`);
  }

  let size = head.length;
  async function* body() {
    try {
      yield head;
      while (!finished) {
        const next = await source.next();
        if (next.done) {
          finished = true;
          break;
        }
        size += next.value.length;
        if (size > maxBytes) throw tooLarge(field, maxBytes);
        yield next.value;
      }
    } finally {
      await stop();
    }
  }
  const store = mediaStore(config);
  const key = newStorageKey(detection.type);
  try {
    await store.put(key, Readable.from(body(), { objectMode: false }), detection.type);
  } catch (error) {
    throw explain(error);
  }
  return { storage: store.kind, key, type: detection.type, size };
}

/** Removes a stored upload that will not be recorded; a failure here is only logged by callers. */
export async function discardUpload(config: Config, stored: StoredUpload): Promise<void> {
  await storeFor(config, stored.storage)?.delete(stored.key);
}

/** A file name fit to show: its last path segment, no control characters, at most 255 characters. */
export function cleanFileName(raw: string | null | undefined, type: MediaType): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = last.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned || `media.${EXTENSIONS[type]}`;
}
