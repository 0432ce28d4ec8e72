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
