// TikTok Content Posting API errors (platforms.md §5.6), classified by `error.code`, and the
// `fail_reason` of a FAILED publish (§5.5).
import { PlatformError, type PlatformErrorKind } from '../errors.ts';

const BY_CODE: Record<string, PlatformErrorKind> = {
  access_token_invalid: 'auth',
  scope_not_authorized: 'permission',
  scope_permission_missed: 'permission',
  invalid_params: 'invalid',
  invalid_param: 'invalid',
  invalid_file_upload: 'invalid',
  privacy_level_option_mismatch: 'invalid',
  url_ownership_unverified: 'invalid',
  unaudited_client_can_only_post_to_private_accounts: 'invalid',
  rate_limit_exceeded: 'rate_limited',
  // The creator's daily cap and the client's daily user cap free up later.
  spam_risk_too_many_posts: 'rate_limited',
  reached_active_user_cap: 'rate_limited',
  spam_risk_user_banned_from_posting: 'permanent',
  internal_error: 'transient',
};

const BY_FAIL_REASON: Record<string, PlatformErrorKind> = {
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

export interface TikTokEnvelope {
  data?: Record<string, unknown>;
  error?: { code?: string; message?: string };
}

export function tiktokError(status: number, body: unknown): PlatformError {
  const error = (body && typeof body === 'object' ? (body as TikTokEnvelope).error : undefined) ?? {};
  const code = error.code ?? '';
  const kind = BY_CODE[code] ?? (status >= 500 ? 'transient' : 'permanent');
  return new PlatformError(kind, error.message ? `${code}: ${error.message}` : `unexpected answer (HTTP ${status})`, { platform: 'tiktok', status, ...(code ? { code } : {}) });
}

export function tiktokFailure(reason: string): PlatformError {
  return new PlatformError(BY_FAIL_REASON[reason] ?? 'permanent', `TikTok could not publish: ${reason || 'unknown reason'}`, { platform: 'tiktok', code: reason });
}
