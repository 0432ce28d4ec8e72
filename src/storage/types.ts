// The media store: where uploaded bytes live. Two implementations, local disk (local.ts) and an
// S3-compatible bucket (s3.ts); the media service only sees this interface.
import type { Readable } from 'node:stream';
import type { MediaStorage } from '../db/schema.ts';

export interface MediaStore {
  readonly kind: MediaStorage;
  /**
   * Streams `body` into the object `key`, never holding it whole in memory. Resolves once the
   * object is complete. On any failure (the body errors, e.g. the client went away or a limit was
   * passed; the store fails) nothing of the object is left behind and the promise rejects with
   * the body's own error when there is one, so callers can tell a 413 from a disk failure.
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** Removes the object; removing one that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** Where the public can fetch the object, or null when no public base is configured. */
  publicUrl(key: string): string | null;
}

/** Cache-Control of stored objects: a key never names other bytes, so caches may keep them. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
