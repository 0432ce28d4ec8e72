// TikTok answers (platforms.md §5.1, §5.6): the API envelope `{data, error:{code,message,log_id}}`
// with `error.code == "ok"` on success, and the OAuth shape `{error, error_description}`.
// Classified by the parsed code.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { obj, str, type Json } from '../json.ts';

const API_CODES: Record<string, PlatformErrorKind> = {
  access_token_invalid: 'auth',
  scope_not_authorized: 'permission',
  scope_permission_missed: 'permission',
  invalid_params: 'invalid',
  invalid_param: 'invalid',
  invalid_file_upload: 'invalid',
  privacy_level_option_mismatch: 'invalid',
  rate_limit_exceeded: 'rate_limited',
  spam_risk_too_many_posts: 'rate_limited',
  reached_active_user_cap: 'rate_limited',
  spam_risk_user_banned_from_posting: 'permanent',
  unaudited_client_can_only_post_to_private_accounts: 'permission',
  url_ownership_unverified: 'permission',
  internal_error: 'transient',
};

const OAUTH_CODES: Record<string, PlatformErrorKind> = {
  // A refresh token that is invalid, expired or revoked: the person must connect again.
  invalid_grant: 'auth',
  access_denied: 'auth',
  invalid_client: 'permanent',
  invalid_request: 'invalid',
  invalid_scope: 'invalid',
  unauthorized_client: 'permanent',
  unsupported_grant_type: 'permanent',
};

/** The `data` of a successful API answer; throws the classified error otherwise. */
export function tiktokData(response: PlatformResponse): Json {
  const body = obj(response.body);
  const error = obj(body.error);
  const code = str(error.code);
  if (response.status < 300 && code === 'ok') return obj(body.data);
  const kind = (code ? API_CODES[code] : undefined) ?? (response.status >= 500 ? 'transient' : response.status === 429 ? 'rate_limited' : 'permanent');
  throw new PlatformError(kind, str(error.message) ?? `HTTP ${response.status}`, { platform: 'tiktok', status: response.status, ...(code ? { code } : {}) });
}

/** The body of a successful OAuth answer; throws the classified error otherwise. */
export function tiktokOAuth(response: PlatformResponse): Json {
  const body = obj(response.body);
  const code = str(body.error);
  if (response.status < 300 && !code && str(body.access_token)) return body;
  const kind = (code ? OAUTH_CODES[code] : undefined) ?? (response.status >= 500 ? 'transient' : 'permanent');
  throw new PlatformError(kind, str(body.error_description) ?? code ?? `HTTP ${response.status}`, { platform: 'tiktok', status: response.status, ...(code ? { code } : {}) });
}
