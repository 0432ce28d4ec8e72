// Graph API errors (platforms.md §1.2–1.3, §2.4, §7.6) classified by their parsed `code` and
// `error_subcode`, never by message text. Shared by facebook, instagram, threads and whatsapp.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';

export interface GraphErrorBody {
  message: string;
  code: number | null;
  subcode: number | null;
  isTransient: boolean;
}

/** Codes whose meaning does not depend on the subcode. */
const BY_CODE = new Map<number, PlatformErrorKind>([
  [1, 'transient'], // API Unknown
  [2, 'transient'], // API Service
  [3, 'permission'], // API Method (capability)
  [4, 'rate_limited'], // app-level limit
  [9, 'rate_limited'], // Instagram/Threads publishing limit (2207042)
  [10, 'permission'],
  [17, 'rate_limited'],
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
const AUTH_SUBCODES = new Set([458, 459, 460, 463, 464, 467, 492]);

/**
 * Instagram publishing errors (platforms.md §2.4), keyed `code:subcode`: their codes alone
 * would mislead (1/2207057 is a bad thumb_offset, not an outage; 4/2207051 is a spam block,
 * not an app rate limit). Looked up before the code table.
 */
const BY_SUBCODE = new Map<string, PlatformErrorKind>([
  ['-2:2207003', 'transient'], // media download timed out
  ['-2:2207020', 'transient'], // media expired: a new container is made on retry
  ['-1:2207001', 'transient'], // Instagram server error
  ['-1:2207032', 'transient'], // create media failed
  ['-1:2207053', 'transient'], // unknown upload error: a new container is made on retry
  ['1:2207057', 'invalid'], // thumb_offset out of range
  ['4:2207051', 'permanent'], // suspected spam, activity restricted
  ['9:2207042', 'rate_limited'], // daily publishing limit reached
  ['24:2207006', 'invalid'], // media not found
  ['24:2207008', 'transient'], // container expired: a new container is made on retry
  ['25:2207050', 'permanent'], // account inactive or restricted
  ['352:2207026', 'invalid'], // unsupported video format
  ['9004:2207052', 'invalid'], // media could not be fetched from its URL
  ['9007:2207027', 'transient'], // container not ready yet
]);

export function graphKind(error: GraphErrorBody, status: number): PlatformErrorKind {
  if (error.subcode !== null && AUTH_SUBCODES.has(error.subcode)) return 'auth';
  const bySubcode = error.code !== null && error.subcode !== null ? BY_SUBCODE.get(`${error.code}:${error.subcode}`) : undefined;
  if (bySubcode) return bySubcode;
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
