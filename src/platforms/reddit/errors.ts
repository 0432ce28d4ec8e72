// reddit's one error table (platforms.md §6.1–6.3, §12), keyed on what reddit answers: the HTTP
// status of an API call (401 bad token, 403 scope or ban, 404 no such thing, 429 limit, 5xx
// transient), the token endpoint's `{error}` name (HTTP 200 on the code exchange, 400 on
// refresh), and the `[CODE, message, field]` triplets of the api_type=json envelope. Connect,
// health and publishing all read reddit's answers through this file.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformHeaders, PlatformResponse } from '../http.ts';
import { obj, str, type Json } from '../json.ts';

/** API statuses, with what they mean on reddit; any other 4xx is `permanent`, any 5xx `transient`. */
export const STATUSES: Readonly<Record<number, { kind: PlatformErrorKind; text: string }>> = {
  401: { kind: 'auth', text: 'the token is invalid or expired' },
  403: { kind: 'permission', text: 'forbidden: the account may not post there, or the submit scope is missing' },
  // A subreddit, user or post that does not exist (or no longer does): the request named it.
  404: { kind: 'invalid', text: 'not found' },
  429: { kind: 'rate_limited', text: 'too many requests' },
};

/** `error` of the token endpoint. */
export const TOKEN_ERRORS: Readonly<Record<string, PlatformErrorKind>> = {
  invalid_grant: 'auth',
  unsupported_grant_type: 'permanent',
  invalid_request: 'invalid',
  invalid_scope: 'invalid',
};

/** CODE of the first `[CODE, message, field]` triplet of the json envelope. */
export const ENVELOPE_CODES: Readonly<Record<string, PlatformErrorKind>> = {
  RATELIMIT: 'rate_limited',
  SUBREDDIT_NOEXIST: 'invalid',
  SUBREDDIT_NOTALLOWED: 'permission',
  SUBREDDIT_REQUIRED: 'invalid',
  NO_TEXT: 'invalid',
  TOO_LONG: 'invalid',
  NO_URL: 'invalid',
  BAD_URL: 'invalid',
  ALREADY_SUB: 'invalid',
  NO_SELFS: 'invalid',
  NO_LINKS: 'invalid',
  DOMAIN_BANNED: 'invalid',
  INVALID_OPTION: 'invalid',
  SUBMIT_VALIDATION_FLAIR_REQUIRED: 'invalid',
  // Comments: the thing replied to does not exist, or was deleted.
  NO_THING_ID: 'invalid',
  DELETED_COMMENT: 'invalid',
  DELETED_LINK: 'invalid',
  USER_REQUIRED: 'auth',
  BAD_CAPTCHA: 'permanent',
  IN_TIMEOUT: 'permanent',
  THREAD_LOCKED: 'permanent',
  TOO_OLD: 'permanent',
};

const statusRow = (status: number) => (Object.hasOwn(STATUSES, status) ? STATUSES[status] : undefined);
const statusKind = (status: number): PlatformErrorKind => statusRow(status)?.kind ?? (status >= 500 ? 'transient' : 'permanent');

/** On a 429, how long reddit says the window has left (X-Ratelimit-Reset, seconds). */
function retryAfterMs(status: number, headers: PlatformHeaders | undefined): number | undefined {
  if (status !== 429 || !headers) return undefined;
  const reset = Number(headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;
}

function statusError(status: number, headers: PlatformHeaders | undefined, message: string): PlatformError {
  const retry = retryAfterMs(status, headers);
  return new PlatformError(statusKind(status), message, { platform: 'reddit', status, ...(retry ? { retryAfterMs: retry } : {}) });
}

/** A failed API call as publishing reports it: what the status means on reddit. */
export function redditHttpError(status: number, headers?: PlatformHeaders): PlatformError {
  const row = statusRow(status);
  const message = row ? `${row.text} (HTTP ${status})` : status >= 500 ? `reddit is unavailable (HTTP ${status})` : `unexpected answer (HTTP ${status})`;
  return statusError(status, headers, message);
}

/** The body of a successful API call (connect, health); throws the classified error otherwise. */
export function redditApi(response: PlatformResponse): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  throw statusError(response.status, response.headers, `HTTP ${response.status}`);
}

/** The body of a successful token answer; throws the classified error otherwise. */
export function redditToken(response: PlatformResponse): Json {
  const body = obj(response.body);
  // reddit's own error bodies carry `error` as a name (invalid_grant) or as the HTTP status number.
  const code = typeof body.error === 'string' ? body.error : null;
  if (response.status < 300 && !code && str(body.access_token)) return body;
  // A bad client id/secret is a 401 here: our configuration, not the person's token.
  const known = code !== null && Object.hasOwn(TOKEN_ERRORS, code) ? TOKEN_ERRORS[code] : undefined;
  const kind = response.status >= 500 || response.status === 429 ? statusKind(response.status) : code ? (known ?? 'permanent') : response.status === 401 ? 'permanent' : statusKind(response.status);
  throw new PlatformError(kind, code ?? `HTTP ${response.status}`, { platform: 'reddit', status: response.status, ...(code ? { code } : {}) });
}

/** The first triplet decides the kind; the message keeps all of them, as reddit wrote them. */
export function redditEnvelopeError(errors: Array<[string, string, string]>): PlatformError {
  const [first] = errors;
  const code = first?.[0] ?? 'UNKNOWN';
  const kind = Object.hasOwn(ENVELOPE_CODES, code) ? (ENVELOPE_CODES[code] ?? 'permanent') : 'permanent';
  const message = errors.map(([c, text, field]) => `${c}: ${text}${field ? ` (${field})` : ''}`).join('; ');
  return new PlatformError(kind, message, { platform: 'reddit', code });
}
