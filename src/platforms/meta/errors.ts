// The Graph API's one error table (platforms.md §1.2–1.3, §2.4, §4, §7.6), keyed on the parsed
// `code` and `error_subcode`, never on message text. Shared by the Meta family: facebook,
// instagram, threads and whatsapp, for connect, health and publishing alike; Instagram's
// container failures (a subcode in the container's `status`) are read from the same rows.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';

export interface GraphErrorBody {
  message: string;
  code: number | null;
  subcode: number | null;
  isTransient: boolean;
}

/** Codes whose meaning does not depend on the subcode. */
export const BY_CODE: ReadonlyMap<number, PlatformErrorKind> = new Map<number, PlatformErrorKind>([
  [1, 'transient'], // API Unknown
  [2, 'transient'], // API Service
  [3, 'permission'], // API Method (capability)
  [4, 'rate_limited'], // app-level limit
  [9, 'rate_limited'], // Instagram/Threads publishing limit (2207042)
  [10, 'permission'],
  [17, 'rate_limited'],
  [24, 'invalid'], // Instagram/Threads: the media or container asked for is not there
  [32, 'rate_limited'],
  [100, 'invalid'],
  [324, 'invalid'], // Pages: the photo file is missing or unreadable
  [102, 'auth'],
  [190, 'auth'],
  [341, 'rate_limited'],
  [368, 'permanent'], // temporarily blocked for policy: do not hammer
  [506, 'invalid'], // duplicate post
  [613, 'rate_limited'],
  [1609005, 'invalid'],
  [80007, 'rate_limited'], // WhatsApp WABA limit
  [130429, 'rate_limited'],
  [131056, 'rate_limited'],
  [131000, 'transient'],
  [131016, 'transient'],
  [133004, 'transient'],
]);

/** Authentication subcodes (with 190/102): always a token problem. */
export const AUTH_SUBCODES: ReadonlySet<number> = new Set([458, 459, 460, 463, 464, 467, 492]);

export interface SubcodeRow {
  /** The code the subcode comes with (null: not documented, any code). */
  code: number | null;
  kind: PlatformErrorKind;
  /** What is wrong, as a target's error says it when the container's status gives only the subcode. */
  text: string;
}

/**
 * Instagram publishing errors (platforms.md §2.4), by subcode. Looked up before the code table,
 * as their codes alone would mislead (1/2207057 is a bad thumb_offset, not an outage; 4/2207051
 * is a spam block, not an app rate limit); a Graph error matches a row with its code, a
 * container's status (which carries only the subcode) matches on the subcode.
 */
export const BY_SUBCODE: ReadonlyMap<number, SubcodeRow> = new Map<number, SubcodeRow>([
  [2207001, { code: -1, kind: 'transient', text: 'Instagram had a server error' }],
  [2207003, { code: -2, kind: 'transient', text: 'Instagram timed out downloading the media' }],
  [2207004, { code: 36000, kind: 'invalid', text: 'the image is larger than 8 MB' }],
  [2207005, { code: 36001, kind: 'invalid', text: 'the image format is not supported (JPEG only)' }],
  [2207006, { code: 24, kind: 'invalid', text: 'the media was not found' }],
  // The container expired: a new one is made on retry.
  [2207008, { code: 24, kind: 'transient', text: 'the media container expired' }],
  [2207009, { code: 36003, kind: 'invalid', text: 'the aspect ratio is outside 4:5 to 1.91:1' }],
  [2207010, { code: 36004, kind: 'invalid', text: 'the caption is too long (2200 characters, 30 hashtags, 20 mentions)' }],
  // The media expired: a new container is made on retry.
  [2207020, { code: -2, kind: 'transient', text: 'the media expired' }],
  [2207023, { code: 100, kind: 'invalid', text: 'the media type is unknown' }],
  [2207026, { code: 352, kind: 'invalid', text: 'the video format is not supported (MP4 or MOV)' }],
  [2207027, { code: 9007, kind: 'transient', text: 'the media is not ready yet' }],
  [2207032, { code: -1, kind: 'transient', text: 'Instagram could not create the media' }],
  [2207042, { code: 9, kind: 'rate_limited', text: 'the daily publishing limit is reached' }],
  [2207050, { code: 25, kind: 'permanent', text: 'the account is inactive or restricted' }],
  [2207051, { code: 4, kind: 'permanent', text: 'the account is restricted (suspected spam)' }],
  [2207052, { code: 9004, kind: 'invalid', text: 'the media could not be fetched from its URL' }],
  // An unknown upload error: a new container is made on retry.
  [2207053, { code: -1, kind: 'transient', text: 'the video upload failed' }],
  [2207057, { code: 1, kind: 'invalid', text: 'thumb_offset is out of range' }],
  [2207076, { code: null, kind: 'invalid', text: 'the video does not meet the Reels format' }],
]);

export function graphKind(error: GraphErrorBody, status: number): PlatformErrorKind {
  if (error.subcode !== null && AUTH_SUBCODES.has(error.subcode)) return 'auth';
  const row = error.subcode !== null ? BY_SUBCODE.get(error.subcode) : undefined;
  if (row && error.code !== null && (row.code === null || row.code === error.code)) return row.kind;
  if (error.code !== null) {
    const known = BY_CODE.get(error.code);
    if (known) return known;
    if (error.code >= 200 && error.code <= 299) return 'permission';
    if (error.code >= 80000 && error.code <= 80014) return 'rate_limited'; // BUC throttles
    if (error.code >= 36000 && error.code <= 36004) return 'invalid'; // Instagram media checks
  }
  if (error.isTransient || status >= 500) return 'transient';
  if (status === 429) return 'rate_limited';
  return 'permanent';
}

const num = (value: unknown): number | null => (typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null);

/**
 * The error object of a Graph answer: `{error:{message,code,error_subcode,is_transient}}`, or
 * the Threads/Instagram OAuth shape `{error_type, code, error_message}`. Null when it is none.
 */
export function parseGraphError(body: unknown): GraphErrorBody | null {
  if (!body || typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (inner && typeof inner === 'object') {
    const e = inner as Record<string, unknown>;
    return {
      message: typeof e.message === 'string' ? e.message : 'platform error',
      code: num(e.code),
      subcode: num(e.error_subcode),
      isTransient: e.is_transient === true,
    };
  }
  if (typeof record.error_message === 'string') {
    // The OAuth endpoints' shape: `code` is the HTTP status there, not a Graph code.
    return { message: record.error_message, code: null, subcode: null, isTransient: false };
  }
  return null;
}

/** Throws the PlatformError of a failed Graph answer; returns the body of a good one. */
export function graphBody(platform: string, response: PlatformResponse): Record<string, unknown> {
  const error = parseGraphError(response.body);
  if (response.status >= 200 && response.status < 300 && !error) {
    if (response.body && typeof response.body === 'object' && !Array.isArray(response.body)) return response.body as Record<string, unknown>;
    throw new PlatformError('transient', `unexpected answer (HTTP ${response.status})`, { platform, status: response.status });
  }
  const parsed = error ?? { message: `HTTP ${response.status}`, code: null, subcode: null, isTransient: false };
  const kind = parsed.code === null && response.status === 400 && error ? 'invalid' : graphKind(parsed, response.status);
  throw new PlatformError(kind, parsed.message, {
    platform,
    status: response.status,
    ...(parsed.code !== null ? { code: parsed.code } : {}),
    ...(parsed.subcode !== null ? { subcode: parsed.subcode } : {}),
  });
}

/**
 * A container that ended in ERROR carries its §2.4 subcode only inside its `status` text
 * ("Error: Media upload has failed with error code 2207026", platforms.md §2.3): the subcode is
 * read from that documented format and looked up in BY_SUBCODE; the message names what is wrong
 * with the media.
 */
export function containerFailure(status: string): PlatformError {
  const subcode = Number(/\b(22\d{5})\b/.exec(status)?.[1] ?? NaN);
  const known = BY_SUBCODE.get(subcode);
  const details = { platform: 'instagram', ...(Number.isFinite(subcode) ? { subcode } : {}) };
  if (!known) return new PlatformError('invalid', `Instagram could not process the media: ${status || 'ERROR'}`, details);
  return new PlatformError(known.kind, `Instagram could not process the media: ${known.text} (${subcode})`, details);
}
