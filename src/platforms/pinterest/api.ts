// Pinterest API v5 calls (platforms/pinterest.md §1, §6): one table from Pinterest's answers to
// the service's kinds, keyed on the HTTP status (Pinterest's integer `code` is not documented per
// endpoint and is kept for logs), except code 29, the refusal of an app with Trial access
// creating Pins on the production host. Adapters call through `pinterestApi`.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformHttp, PlatformRequest, PlatformResponse } from '../http.ts';
import { numberOf, obj, text, type Json } from '../json.ts';

export const PINTEREST_API = 'https://api.pinterest.com/v5';

/** HTTP status → kind; any other 4xx is `permanent`, any 5xx `transient`. */
export const STATUSES: Readonly<Record<number, PlatformErrorKind>> = {
  400: 'invalid',
  401: 'auth',
  403: 'permission',
  404: 'invalid',
  409: 'invalid',
  429: 'rate_limited',
};

/** Pinterest's `code` for an app with Trial access creating a Pin on api.pinterest.com. */
export const TRIAL_CODE = 29;

export function pinterestError(response: PlatformResponse): PlatformError {
  const body = obj(response.body);
  const status = response.status;
  const code = numberOf(body.code);
  const trial = code === TRIAL_CODE;
  const kind: PlatformErrorKind = trial ? 'permission' : (STATUSES[status] ?? (status >= 500 ? 'transient' : 'permanent'));
  const message = text(body.message) || `HTTP ${status}`;
  const retryAfter = Number(response.headers.get('retry-after'));
  return new PlatformError(kind, trial ? `${message} (the Pinterest app has Trial access: ask Pinterest for Standard access)` : message, {
    platform: 'pinterest',
    status,
    ...(code !== null ? { code } : {}),
    ...(kind === 'rate_limited' && Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    ...(kind === 'permission' ? { permission: trial ? 'Standard access of the Pinterest app' : 'a scope of the token' } : {}),
  });
}

/** The body of a successful answer; throws the classified error otherwise. */
export function pinterestBody(response: PlatformResponse): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  throw pinterestError(response);
}

export interface PinterestApi {
  readonly http: PlatformHttp;
  /** A call to `https://api.pinterest.com/v5{path}` with the user's token. */
  call(token: string, request: Omit<PlatformRequest, 'url' | 'bearer'> & { path: string }): Promise<PlatformResponse>;
  json(token: string, request: Omit<PlatformRequest, 'url' | 'bearer'> & { path: string }): Promise<Json>;
}

export function pinterestApi(http: PlatformHttp): PinterestApi {
  const call: PinterestApi['call'] = (token, { path, ...request }) => http.send('pinterest', { ...request, url: `${PINTEREST_API}${path}`, bearer: token });
  return { http, call, json: async (token, request) => pinterestBody(await call(token, request)) };
}

/** Pinterest's date-times (`2026-11-29T00:27:19`, UTC, sometimes without an offset) as epoch ms; null when unreadable. */
export function pinterestTime(value: unknown): number | null {
  if (typeof value !== 'string' || !value) return null;
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? null : ms;
}
