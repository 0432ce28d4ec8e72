// The publishers registry: which platforms this service can publish to, and the adapter for
// each. Kept apart from the OAuth/health registry (registry.ts).
import type { Config } from '../config.ts';
import { platformApiBase } from './base-url.ts';
import { facebookPublisher } from './facebook/publish.ts';
import { createPlatformHttp, type FetchFn } from './http.ts';
import { instagramPublisher } from './instagram/publish.ts';
import type { Publisher } from './publisher.ts';
import { redditPublisher } from './reddit/publish.ts';
import { threadsPublisher } from './threads/publish.ts';
import { tiktokPublisher } from './tiktok/publish.ts';

export type Publishers = ReadonlyMap<string, Publisher>;

const DEFAULT_REDDIT_AGENT = 'web:socialapi:v1.0.0 (by /u/socialapi)';

export function createPublishers(config: Pick<Config, 'platformApiBase' | 'sandbox' | 'publicBaseUrl' | 'platforms' | 'platformTimeoutMs' | 'tiktokSettleMs'>, fetchFn: FetchFn = fetch): Publishers {
  const http = createPlatformHttp({ base: platformApiBase(config), userAgent: 'socialapi/1.0', timeoutMs: config.platformTimeoutMs, fetch: losslessJsonFetch(fetchFn) });
  const list = [redditPublisher(http, config.platforms.redditUserAgent ?? DEFAULT_REDDIT_AGENT), threadsPublisher(http), tiktokPublisher(http, config.tiktokSettleMs), instagramPublisher(http), facebookPublisher(http)];
  return new Map(list.map((p) => [p.platform, p]));
}

/**
 * Platforms send 64-bit ids as bare JSON numbers (TikTok's publicaly_available_post_id, Threads
 * and Instagram user ids, platforms.md §12), which JSON.parse would round. This wrapper quotes
 * every integer of 16 digits or more outside strings before the client parses the answer.
 */
export function losslessJsonFetch(fetchFn: FetchFn): FetchFn {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    return new Response(quoteBigIntegers(text), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

export function quoteBigIntegers(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json.charAt(i);
    if (inString) {
      out += ch;
      if (ch === '\\') out += json.charAt(++i);
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const match = /^-?\d{16,}(?![.eE\d])/.exec(json.slice(i, i + 40));
    if (match && !/[\w.]/.test(json.charAt(i - 1))) {
      out += `"${match[0]}"`;
      i += match[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}
