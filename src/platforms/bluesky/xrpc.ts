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
  // The video service answers some refusals as a job status: `{jobStatus: {error: "unconfirmed_email"}}`.
  const name = str(body.error) ?? str(obj(body.jobStatus).error);
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
  /**
   * A query (GET) or procedure (POST, JSON or raw bytes) at `{host}/xrpc/{nsid}`. A host other
   * than Bluesky's own (the entryway, the video service) came from a DID document, which anyone
   * can publish: such calls are marked user-chosen (public https addresses only, http.ts).
   */
  call(host: string, nsid: string, request: Omit<PlatformRequest, 'url'> & { now?: number }): Promise<Json>;
  /** The raw answer of such a call, for the answers read before the error table (video's already_exists). */
  send(host: string, nsid: string, request: Omit<PlatformRequest, 'url'>): Promise<PlatformResponse>;
}

/** Bluesky's own hosts; every other one an account's DID document named. */
const OWN_HOSTS = ['video.bsky.app', 'plc.directory'];

/** `trusted`: the operator's own settings (BLUESKY_ENTRYWAY), called as Bluesky's hosts are. */
export function xrpc(http: PlatformHttp, trusted: readonly string[] = []): Xrpc {
  const own = new Set([...OWN_HOSTS, ...trusted.map((url) => new URL(url).host)]);
  const send = (host: string, nsid: string, request: Omit<PlatformRequest, 'url'>) => {
    const url = `${host.replace(/\/+$/, '')}/xrpc/${nsid}`;
    return http.send('bluesky', { ...request, url, ...(own.has(new URL(url).host) ? {} : { userChosenHost: true as const }) });
  };
  return {
    http,
    send,
    async call(host, nsid, { now, ...request }) {
      return blueskyBody(await send(host, nsid, request), now ?? null);
    },
  };
}
