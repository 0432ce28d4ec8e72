// Bluesky's XRPC calls and its one error table (bluesky.md §1, §8). Every call names a real host
// (the account's PDS, the entryway, the video service), so the HTTP client rewrites each onto
// the sandbox like any platform URL. Errors are `{error, message}`; the `error` name decides the
// kind, then the status. A 429 waits until `ratelimit-reset` (epoch seconds), as x's reset does.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformHttp, PlatformRequest, PlatformResponse } from '../http.ts';
import { obj, str, text, type Json } from '../json.ts';

/** Error names, with what they mean for the service. */
export const XRPC_ERRORS: Readonly<Record<string, PlatformErrorKind>> = {
  AuthenticationRequired: 'auth',
  AuthMissing: 'auth',
  InvalidToken: 'auth',
  AccountTakedown: 'auth',
  // On an access JWT the refresh job runs ahead of expiry, so a retry goes out with the new one;
  // on refreshSession it means the session is gone (connect.ts treats it as `auth`).
  ExpiredToken: 'transient',
  InvalidRequest: 'invalid',
  RecordNotFound: 'invalid',
  NotFound: 'invalid',
  BlobTooLarge: 'invalid',
  InvalidSwap: 'transient',
  RateLimitExceeded: 'rate_limited',
};

/** Statuses when the name says nothing more; any other 4xx is `permanent`, any 5xx `transient`. */
export const XRPC_STATUSES: Readonly<Record<number, PlatformErrorKind>> = {
  400: 'invalid',
  401: 'auth',
  403: 'permission',
  404: 'invalid',
  413: 'invalid',
  429: 'rate_limited',
};

export function blueskyError(response: PlatformResponse, now: number | null = null): PlatformError {
  const body = obj(response.body);
  const status = response.status;
  const name = str(body.error);
  const kind: PlatformErrorKind = status === 429 ? 'rate_limited' : status >= 500 ? 'transient' : name !== null && Object.hasOwn(XRPC_ERRORS, name) ? (XRPC_ERRORS[name] ?? 'permanent') : (XRPC_STATUSES[status] ?? 'permanent');
  const reset = Number(response.headers.get('ratelimit-reset'));
  const retryAfterMs = kind === 'rate_limited' && now !== null && Number.isFinite(reset) && reset > 0 ? Math.max(1000, reset * 1000 - now) : undefined;
  const message = [name, text(body.message)].filter(Boolean).join(': ') || (typeof response.body === 'string' && response.body ? response.body.slice(0, 200) : `HTTP ${status}`);
  return new PlatformError(kind, message, { platform: 'bluesky', status, ...(name ? { code: name } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
}

/** The body of a successful answer; throws the classified error otherwise. */
export function blueskyBody(response: PlatformResponse, now: number | null = null): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  throw blueskyError(response, now);
}

export const isXrpcError = (error: unknown, ...names: string[]): boolean => error instanceof PlatformError && names.includes(String(error.details.code));

/** Where an account's calls go: its PDS and the session's access JWT. */
export interface Session {
  pds: string;
  did: string;
  token: string;
}

export interface Xrpc {
  readonly http: PlatformHttp;
  /** A query (GET) or procedure (POST, JSON or raw bytes) at `{host}/xrpc/{nsid}`. */
  call(host: string, nsid: string, request: Omit<PlatformRequest, 'url'> & { now?: number }): Promise<Json>;
}

export function xrpc(http: PlatformHttp): Xrpc {
  return {
    http,
    async call(host, nsid, { now, ...request }) {
      const response = await http.send('bluesky', { ...request, url: `${host.replace(/\/+$/, '')}/xrpc/${nsid}` });
      return blueskyBody(response, now ?? null);
    },
  };
}
