// reddit answers (platforms.md §6.1–6.3, §12): the token endpoint's `{error}` (HTTP 200 on the
// code exchange, 400 on refresh), and API statuses (401 bad token, 403 scope or ban, 429 limit,
// 5xx transient). Classified by the parsed error name and the status.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { obj, str, type Json } from '../json.ts';

const TOKEN_ERRORS: Record<string, PlatformErrorKind> = {
  invalid_grant: 'auth',
  unsupported_grant_type: 'permanent',
  invalid_request: 'invalid',
  invalid_scope: 'invalid',
};

const byStatus = (status: number): PlatformErrorKind =>
  status === 401 ? 'auth' : status === 403 ? 'permission' : status === 429 ? 'rate_limited' : status >= 500 ? 'transient' : status === 404 ? 'invalid' : 'permanent';

function retryAfterMs(response: PlatformResponse): number | undefined {
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;
}

export function redditToken(response: PlatformResponse): Json {
  const body = obj(response.body);
  // reddit's own error bodies carry `error` as a name (invalid_grant) or as the HTTP status number.
  const code = typeof body.error === 'string' ? body.error : null;
  if (response.status < 300 && !code && str(body.access_token)) return body;
  // A bad client id/secret is a 401 here: our configuration, not the person's token.
  const kind = response.status >= 500 || response.status === 429 ? byStatus(response.status) : code ? (TOKEN_ERRORS[code] ?? 'permanent') : response.status === 401 ? 'permanent' : byStatus(response.status);
  throw new PlatformError(kind, code ?? `HTTP ${response.status}`, { platform: 'reddit', status: response.status, ...(code ? { code } : {}) });
}

export function redditApi(response: PlatformResponse): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  const retry = retryAfterMs(response);
  throw new PlatformError(byStatus(response.status), `HTTP ${response.status}`, { platform: 'reddit', status: response.status, ...(retry ? { retryAfterMs: retry } : {}) });
}
