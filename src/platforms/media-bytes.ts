// The bytes of a media URL a post names, for publishers that upload the bytes themselves instead
// of handing the platform a URL (DESIGN "More platforms": LinkedIn, X). Fetched under the guards
// of lib/safe-fetch.ts (the same policy as the media check before the first platform call), with
// the upload limit of MEDIA_MAX_BYTES; built once at start (context.ts), so adapters never read
// the environment.
import { Buffer } from 'node:buffer';
import { FetchFailedError, ResponseTooLargeError, safeFetch, UrlRefusedError } from '../lib/safe-fetch.ts';
import { messageOf } from '../lib/errors.ts';
import { PlatformError } from './errors.ts';

export interface MediaBytes {
  bytes: Buffer;
  /** The Content-Type the server sent, if any (the platform may want it). */
  contentType: string | null;
}

export interface MediaFetcher {
  /** The whole file; a refusal or a file over the limit is `invalid`, no answer `transient`. */
  fetch(url: string, platform: string): Promise<MediaBytes>;
}

export function createMediaFetcher(options: { allowPrivate: boolean; maxBytes: number }): MediaFetcher {
  return {
    async fetch(url, platform) {
      try {
        const response = await safeFetch(url, { allowPrivate: options.allowPrivate, requireHttps: !options.allowPrivate, maxBytes: options.maxBytes, timeoutMs: 300_000 });
        if (response.status !== 200) {
          response.body.destroy();
          throw new PlatformError(response.status >= 500 ? 'transient' : 'invalid', `the media ${url} answered HTTP ${response.status}`, { platform });
        }
        const chunks: Buffer[] = [];
        for await (const chunk of response.body) chunks.push(chunk as Buffer);
        return { bytes: Buffer.concat(chunks), contentType: response.headers['content-type'] ?? null };
      } catch (error) {
        if (error instanceof PlatformError) throw error;
        if (error instanceof UrlRefusedError || error instanceof ResponseTooLargeError) throw new PlatformError('invalid', `the media ${url} cannot be used: ${error.message}`, { platform });
        if (error instanceof FetchFailedError) throw new PlatformError('transient', `the media ${url} could not be fetched: ${error.message}`, { platform });
        throw new PlatformError('transient', `the media ${url} could not be fetched: ${messageOf(error)}`, { platform });
      }
    },
  };
}

/** The media type from the file's first bytes (the platforms that take bytes want it declared), else the server's Content-Type. */
export function mediaTypeOf(media: MediaBytes): string {
  const b = media.bytes;
  const ascii = (start: number, end: number) => b.subarray(start, end).toString('latin1');
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(1, 4) === 'PNG') return 'image/png';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp') return ascii(8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  return (media.contentType ?? 'application/octet-stream').split(';')[0]?.trim() ?? 'application/octet-stream';
}
