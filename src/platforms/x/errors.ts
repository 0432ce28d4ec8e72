// X's one error table (platforms/x.md §7), keyed on what X answers: the HTTP status, the problem
// `type` of the body (…/problems/client-forbidden, not-authorized-for-resource …), the one 403
// detail X gives no type of its own (duplicate content, compared whole), and the OAuth `error`
// names of the token endpoint. Connect, health and publishing read X's answers through this file.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { list, obj, str, text, type Json } from '../json.ts';

/** Problem types (the last segment of `type`), with what they mean for the service. */
export const PROBLEM_TYPES: Readonly<Record<string, PlatformErrorKind>> = {
  'invalid-request': 'invalid',
  // The app's access level lacks the endpoint (paid reads on a lower tier).
  'client-forbidden': 'permission',
  'not-authorized-for-resource': 'invalid',
  'resource-not-found': 'invalid',
  'rate-limit-exceeded': 'rate_limited',
  'usage-capped': 'rate_limited',
  'unsupported-authentication': 'auth',
};

/** The detail X answers (403, no type) to a post with the same text as a recent one. */
export const DUPLICATE_DETAIL = 'You are not allowed to create a Tweet with duplicate content.';

/** Statuses when the type says nothing more; any other 4xx is `permanent`, any 5xx `transient`. */
export const STATUSES: Readonly<Record<number, PlatformErrorKind>> = {
  400: 'invalid',
  401: 'auth',
  // about:blank 403: the token lacks a scope the call needs.
  403: 'permission',
  404: 'invalid',
  429: 'rate_limited',
};

/** `error` of the token endpoint: X names a refresh token it no longer knows invalid_request. */
export const TOKEN_ERRORS: Readonly<Record<string, PlatformErrorKind>> = {
  invalid_grant: 'auth',
  invalid_request: 'auth',
  invalid_client: 'permanent',
  unauthorized_client: 'permanent',
  unsupported_grant_type: 'permanent',
  invalid_scope: 'invalid',
};

const problemType = (body: Json): string | null => {
  const type = str(body.type);
  return type && type !== 'about:blank' ? (type.split('/').at(-1) ?? null) : null;
};

export const isDuplicate = (error: unknown): boolean => error instanceof PlatformError && error.details.code === 'duplicate-content';

/** The message: X's detail, and each parameter error's message. */
function messageOf(body: Json, status: number): string {
  const parts = list(body.errors).map((e) => {
    const item = obj(e);
    const parameter = Object.keys(obj(item.parameters))[0] ?? str(item.parameter);
    return `${text(item.message) || text(item.detail)}${parameter ? ` (${parameter})` : ''}`;
  });
  const detail = text(body.detail) || text(body.title) || (typeof body.error === 'string' ? body.error : '');
  return [detail, ...parts].filter(Boolean).join('; ') || `HTTP ${status}`;
}

/**
 * A failed call as a PlatformError. `now` (ms, the caller's clock) turns x-rate-limit-reset, the
 * window's end in epoch seconds, into how long to wait; X sends no Retry-After.
 */
export function xError(response: PlatformResponse, now: number | null = null): PlatformError {
  const body = obj(response.body);
  const status = response.status;
  const type = problemType(body);
  const duplicate = status === 403 && text(body.detail) === DUPLICATE_DETAIL;
  const kind: PlatformErrorKind = duplicate
    ? 'invalid'
    : type && Object.hasOwn(PROBLEM_TYPES, type)
      ? (PROBLEM_TYPES[type] ?? 'permanent')
      : (STATUSES[status] ?? (status >= 500 ? 'transient' : 'permanent'));
  const reset = Number(response.headers.get('x-rate-limit-reset'));
  const retryAfterMs = kind === 'rate_limited' && now !== null && Number.isFinite(reset) && reset > 0 ? Math.max(1000, reset * 1000 - now) : undefined;
  return new PlatformError(kind, messageOf(body, status), {
    platform: 'x',
    status,
    ...(duplicate ? { code: 'duplicate-content' } : type ? { code: type } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(kind === 'permission' ? { permission: type === 'client-forbidden' ? 'the X API access level (paid reads)' : 'a scope of the token' } : {}),
  });
}

/** The body of a successful call; throws the classified error otherwise. */
export function xBody(response: PlatformResponse, now: number | null = null): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  throw xError(response, now);
}

/** The body of a successful token answer; throws the classified error otherwise. */
export function xTokenBody(response: PlatformResponse): Json {
  const body = obj(response.body);
  if (response.status < 300 && str(body.access_token)) return body;
  const code = typeof body.error === 'string' ? body.error : null;
  // A refused client id or secret (401) is our configuration, not the person's grant.
  const kind: PlatformErrorKind =
    response.status >= 500 ? 'transient' : response.status === 429 ? 'rate_limited' : code !== null && Object.hasOwn(TOKEN_ERRORS, code) ? (TOKEN_ERRORS[code] ?? 'permanent') : 'permanent';
  throw new PlatformError(response.status === 401 ? 'permanent' : kind, messageOf(body, response.status), { platform: 'x', status: response.status, ...(code ? { code } : {}) });
}
