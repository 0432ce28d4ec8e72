// Media URLs checked before a target's first platform call (issue 6 item 7): each must answer
// over https (http and loopback only where ALLOW_PRIVATE_URLS allows them, as in sandbox mode)
// under the guards of lib/safe-fetch.ts, and its first bytes must be a type the platform takes
// (instagram images are JPEG only …: each platform's media rules, src/platforms/<platform>/
// media-rules.ts, in its definition). The type comes from the bytes, never from the name or the
// Content-Type. A failure is permanent for the target, with a message naming the URL, instead
// of the platform's generic "media could not be fetched" minutes later.
import { Buffer } from 'node:buffer';
import { targetError } from '../../../http/errors.ts';
import { FetchFailedError, safeFetch, UrlRefusedError } from '../../../lib/safe-fetch.ts';
import { messageOf } from '../../../lib/errors.ts';
import { detectMediaType, SNIFF_BYTES } from '../../media/detect.ts';
import type { MediaItem, MediaKind, MediaRules } from '../../../platforms/definition.ts';
import { strings } from '../../../platforms/json.ts';
import { definitionOf } from '../../../platforms/registry.ts';

/** The platform's media rules (src/platforms/<platform>/media-rules.ts); undefined when it names none. */
const rulesOf = (platform: string): MediaRules | undefined => definitionOf(platform)?.publishing?.media;

/** The media URLs of a target's validated options, with the kind each place needs. */
export function mediaItems(platform: string, options: Record<string, unknown>): MediaItem[] {
  return rulesOf(platform)?.items(options) ?? [];
}

export type MediaCheck = { ok: true; kinds: MediaKind[] } | { ok: false; message: string };
export type MediaChecker = (platform: string, options: Record<string, unknown>) => Promise<MediaCheck>;

export interface MediaCheckOptions {
  /** ALLOW_PRIVATE_URLS: http and loopback/private addresses (sandbox and development). */
  allowPrivate: boolean;
  timeoutMs?: number;
}

/** The first bytes of a URL (a ranged GET; a server that ignores Range is cut off after them). */
async function head(url: string, options: MediaCheckOptions): Promise<Buffer> {
  const response = await safeFetch(url, {
    allowPrivate: options.allowPrivate,
    requireHttps: !options.allowPrivate,
    headers: { range: `bytes=0-${SNIFF_BYTES - 1}`, accept: 'image/*, video/*' },
    connectTimeoutMs: 5000,
    timeoutMs: options.timeoutMs ?? 15_000,
  });
  if (response.status !== 200 && response.status !== 206) {
    response.body.destroy();
    throw new FetchFailedError(`the server answered HTTP ${response.status}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= SNIFF_BYTES) break;
  }
  response.body.destroy();
  return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
}

async function checkItem(platform: string, item: MediaItem, options: MediaCheckOptions): Promise<{ kind: MediaKind } | { problem: string }> {
  const rules = rulesOf(platform);
  let bytes: Buffer;
  try {
    bytes = await head(item.url, options);
  } catch (error) {
    const why = error instanceof UrlRefusedError ? `is not allowed (${error.message})` : `could not be fetched (${error instanceof FetchFailedError ? error.message : messageOf(error)})`;
    return { problem: `${item.field} ${item.url} ${why}` };
  }
  const detected = await detectMediaType(bytes);
  const type = detected.ok ? detected.type : detected.found;
  if (!rules) return { kind: type?.startsWith('video/') ? 'video' : 'image' };
  const kind: MediaKind | null = type && rules.image.includes(type) ? 'image' : type && rules.video.includes(type) ? 'video' : null;
  const what = type ?? 'not an image or a video';
  if (!kind || (item.only && type && !item.only.includes(type))) {
    return { problem: `${item.field} ${item.url} is ${what}; ${platform} takes ${item.only ? item.only.join(', ') : rules.label}` };
  }
  if (item.kind && kind !== item.kind) return { problem: `${item.field} ${item.url} is ${what}, but this ${platform} post needs ${item.kind === 'image' ? 'an image' : 'a video'}` };
  return { kind };
}

export function mediaChecker(options: MediaCheckOptions): MediaChecker {
  return async (platform, targetOptions) => {
    const items = mediaItems(platform, targetOptions);
    const results = await Promise.all(items.map((item) => checkItem(platform, item, options)));
    const problems = results.flatMap((r) => ('problem' in r ? [r.problem] : []));
    if (problems.length) return { ok: false, message: targetError('invalid_media', problems.join('; ')) };
    // The kinds of mediaUrls, in order (cover and thread items are not among them).
    const kinds = results.slice(0, strings(targetOptions.mediaUrls).length).map((r) => ('kind' in r ? r.kind : 'image'));
    return { ok: true, kinds };
  };
}
