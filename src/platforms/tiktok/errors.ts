// TikTok's one error table (platforms.md §5.1, §5.5, §5.6), keyed on the parsed codes: the API
// envelope's `error.code` (`{data, error:{code,message,log_id}}`, "ok" on success), the OAuth
// shape's `error` (`{error, error_description}`), and the `fail_reason` of a FAILED publish.
// Connect, health and publishing all read TikTok's answers through this file.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { obj, str, type Json } from '../json.ts';

/** `error.code` of the API envelope. */
export const API_CODES: Readonly<Record<string, PlatformErrorKind>> = {
  access_token_invalid: 'auth',
  scope_not_authorized: 'permission',
  scope_permission_missed: 'permission',
  invalid_params: 'invalid',
  invalid_param: 'invalid',
  invalid_file_upload: 'invalid',
  privacy_level_option_mismatch: 'invalid',
  // The media URL is not on a domain or prefix verified for the app: another URL would work,
  // and reconnecting would not (it is not a permission the person grants).
  url_ownership_unverified: 'invalid',
  // An unaudited app may post SELF_ONLY only: the target's privacy level is what must change.
  unaudited_client_can_only_post_to_private_accounts: 'invalid',
  rate_limit_exceeded: 'rate_limited',
  // The creator's daily cap and the client's daily user cap free up later.
  spam_risk_too_many_posts: 'rate_limited',
  reached_active_user_cap: 'rate_limited',
  spam_risk_user_banned_from_posting: 'permanent',
  internal_error: 'transient',
};

/** `error` of the OAuth token endpoint. */
export const OAUTH_CODES: Readonly<Record<string, PlatformErrorKind>> = {
  // A refresh token that is invalid, expired or revoked: the person must connect again.
  invalid_grant: 'auth',
  access_denied: 'auth',
  invalid_client: 'permanent',
  invalid_request: 'invalid',
  invalid_scope: 'invalid',
  unauthorized_client: 'permanent',
  unsupported_grant_type: 'permanent',
};

/** `fail_reason` of a publish whose status is FAILED (nothing was posted). */
export const FAIL_REASONS: Readonly<Record<string, PlatformErrorKind>> = {
  file_format_check_failed: 'invalid',
  duration_check_failed: 'invalid',
  frame_rate_check_failed: 'invalid',
  picture_size_check_failed: 'invalid',
  video_pull_failed: 'invalid',
  photo_pull_failed: 'invalid',
  internal: 'transient',
  publish_cancelled: 'permanent',
  auth_removed: 'auth',
  spam_risk_too_many_posts: 'rate_limited',
  spam_risk_user_banned_from_posting: 'permanent',
  spam_risk_text: 'invalid',
  spam_risk: 'permanent',
};

/** An answer without a known code: by its HTTP status. */
const byStatus = (status: number): PlatformErrorKind => (status >= 500 ? 'transient' : status === 429 ? 'rate_limited' : 'permanent');

const lookup = (table: Readonly<Record<string, PlatformErrorKind>>, code: string | null): PlatformErrorKind | undefined => (code !== null && Object.hasOwn(table, code) ? table[code] : undefined);

/** The envelope's error: its code (null when absent) and message. */
function envelopeError(body: unknown): { code: string | null; message: string | null } {
  const error = obj(obj(body).error);
  return { code: str(error.code), message: str(error.message) };
}

/** The error of an API answer that is not a success, as connect and health report it. */
export function tiktokApiError(status: number, body: unknown): PlatformError {
  const { code, message } = envelopeError(body);
  const kind = lookup(API_CODES, code) ?? byStatus(status);
  return new PlatformError(kind, message ?? `HTTP ${status}`, { platform: 'tiktok', status, ...(code ? { code } : {}) });
}

/** The error of an API answer that is not a success, as publishing reports it (the code first). */
export function tiktokPublishError(status: number, body: unknown): PlatformError {
  const { code, message } = envelopeError(body);
  const kind = lookup(API_CODES, code) ?? byStatus(status);
  return new PlatformError(kind, message ? `${code ?? ''}: ${message}` : `unexpected answer (HTTP ${status})`, { platform: 'tiktok', status, ...(code ? { code } : {}) });
}

/** The `data` of a successful API answer; throws the classified error otherwise. */
export function tiktokData(response: PlatformResponse): Json {
  const body = obj(response.body);
  if (response.status < 300 && str(obj(body.error).code) === 'ok') return obj(body.data);
  throw tiktokApiError(response.status, response.body);
}

/** The body of a successful OAuth answer; throws the classified error otherwise. */
export function tiktokOAuth(response: PlatformResponse): Json {
  const body = obj(response.body);
  const code = str(body.error);
  if (response.status < 300 && !code && str(body.access_token)) return body;
  const kind = lookup(OAUTH_CODES, code) ?? (response.status >= 500 ? 'transient' : 'permanent');
  throw new PlatformError(kind, str(body.error_description) ?? code ?? `HTTP ${response.status}`, { platform: 'tiktok', status: response.status, ...(code ? { code } : {}) });
}

/** A publish that ended FAILED: classified by its fail_reason. */
export function tiktokFailure(reason: string): PlatformError {
  return new PlatformError(lookup(FAIL_REASONS, reason) ?? 'permanent', `TikTok could not publish: ${reason || 'unknown reason'}`, { platform: 'tiktok', code: reason });
}
