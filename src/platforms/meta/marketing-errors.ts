// The Marketing API's error table (platforms.md §9.8, §1.3–1.4), keyed on the parsed `code` and
// `error_subcode`, never on message text. The ads throttles (17/2446079, 80000 insights, 80003
// custom audiences, 80004 ads management, 613) are rate limits whose wait is read from the usage
// headers Meta sends with them; validation errors (100 and the ads subcodes) are invalid input
// shown with Meta's own `error_user_title: error_user_msg`; 200 (ads_management or ads_read not
// granted) and 10 are missing permissions; the rest falls back to the Graph table of the family.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformHeaders, PlatformResponse } from '../http.ts';
import { list, numberOf, obj, str } from '../json.ts';
import { graphKind, parseGraphError } from './errors.ts';

/** Codes whose meaning for ads differs from, or is not in, the Graph table. */
export const MARKETING_CODES: ReadonlyMap<number, PlatformErrorKind> = new Map<number, PlatformErrorKind>([
  [17, 'rate_limited'], // user limit; with 2446079 the ads API throttle
  [613, 'rate_limited'], // custom limit (delivery estimate …)
  [80000, 'rate_limited'], // BUC: ads insights
  [80003, 'rate_limited'], // BUC: custom audiences
  [80004, 'rate_limited'], // BUC: ads management
  [200, 'permission'], // ads_management / ads_read not granted
  [10, 'permission'],
  [100, 'invalid'],
  [2635, 'permanent'], // a deprecated API version: retrying will not help
  [368, 'permanent'], // blocked for policy
]);

/** Validation subcodes that come with code 100 (or alone): the input is wrong. */
export const MARKETING_INVALID_SUBCODES: ReadonlySet<number> = new Set([
  33, // the object does not exist, or the token cannot see it
  1870227, // the Advantage audience flag is required
  2446149, // special ad category restrictions
  1885272, // the budget is too low
  1713230, // a flagged audience refuses membership changes
]);

/** Waiting time when Meta throttles without saying how long. */
export const DEFAULT_ADS_WAIT_MS = 60_000;

const parseJson = (text: string | null): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/**
 * How long to wait, from the usage headers (§1.4): the largest of X-Business-Use-Case-Usage's
 * `estimated_time_to_regain_access` (minutes) over its entries and X-Ad-Account-Usage's
 * `reset_time_duration` (seconds). Null when neither names a wait.
 */
export function usageWaitMs(headers: PlatformHeaders): number | null {
  let wait = 0;
  const buc = obj(parseJson(headers.get('x-business-use-case-usage')));
  for (const entries of Object.values(buc)) {
    for (const entry of list(entries)) wait = Math.max(wait, (numberOf(obj(entry).estimated_time_to_regain_access) ?? 0) * 60_000);
  }
  const account = obj(parseJson(headers.get('x-ad-account-usage')));
  wait = Math.max(wait, (numberOf(account.reset_time_duration) ?? 0) * 1000);
  return wait > 0 ? wait : null;
}

export function marketingKind(code: number | null, subcode: number | null, fallback: () => PlatformErrorKind): PlatformErrorKind {
  if (subcode === 2446079) return 'rate_limited';
  if (subcode !== null && MARKETING_INVALID_SUBCODES.has(subcode)) return 'invalid';
  const known = code !== null ? MARKETING_CODES.get(code) : undefined;
  return known ?? fallback();
}

/** Meta's words for the person: `error_user_title: error_user_msg`, else the message. */
function shownMessage(error: Record<string, unknown>, fallback: string): string {
  const user = str(error.error_user_msg);
  const title = str(error.error_user_title);
  if (user) return title ? `${title}: ${user}` : user;
  return fallback;
}

/** Throws the PlatformError of a failed Marketing API answer; returns the body of a good one. */
export function marketingBody(response: PlatformResponse): Record<string, unknown> {
  const error = parseGraphError(response.body);
  if (response.status >= 200 && response.status < 300 && !error) {
    if (response.body && typeof response.body === 'object' && !Array.isArray(response.body)) return response.body as Record<string, unknown>;
    throw new PlatformError('transient', `unexpected answer (HTTP ${response.status})`, { platform: 'facebook', status: response.status });
  }
  const parsed = error ?? { message: `HTTP ${response.status}`, code: null, subcode: null, isTransient: false };
  const kind = marketingKind(parsed.code, parsed.subcode, () => graphKind(parsed, response.status));
  const wait = kind === 'rate_limited' ? (usageWaitMs(response.headers) ?? DEFAULT_ADS_WAIT_MS) : null;
  const raw = obj(obj(response.body).error);
  const message = kind === 'permission' ? `${parsed.message} (grant ads_management and ads_read, then reconnect)` : shownMessage(raw, parsed.message);
  throw new PlatformError(kind, message, {
    platform: 'facebook',
    status: response.status,
    ...(parsed.code !== null ? { code: parsed.code } : {}),
    ...(parsed.subcode !== null ? { subcode: parsed.subcode } : {}),
    ...(wait !== null ? { retryAfterMs: wait } : {}),
    ...(kind === 'permission' ? { permission: 'ads_management' } : {}),
  });
}
