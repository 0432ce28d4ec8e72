// TikTok's answers (platforms.md §5): every API response is `{data, error:{code, message,
// log_id}}` with `error.code == "ok"` on success; OAuth endpoints answer `{error,
// error_description, log_id}` instead (§5.1). HTTP statuses per error code follow §5.6.
import { IdGenerator } from '../core/ids.ts';
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

const logIds = new IdGenerator('tiktok-log');

/** `202206221854370101130062072500FFA2`: a timestamp, then opaque hex. */
export function logId(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return `${stamp}${logIds.opaque('log', 20, 'hex').toUpperCase()}`;
}

const STATUS: Record<string, number> = {
  access_token_invalid: 401,
  scope_not_authorized: 401,
  scope_permission_missed: 401,
  invalid_params: 400,
  invalid_param: 400,
  invalid_file_upload: 400,
  privacy_level_option_mismatch: 400,
  rate_limit_exceeded: 429,
  internal_error: 500,
  spam_risk_too_many_posts: 403,
  spam_risk_user_banned_from_posting: 403,
  reached_active_user_cap: 403,
  unaudited_client_can_only_post_to_private_accounts: 403,
  url_ownership_unverified: 403,
};

export function ok<T>(data: T): { data: T; error: { code: 'ok'; message: ''; log_id: string } } {
  return { data, error: { code: 'ok', message: '', log_id: logId() } };
}

export function tiktokError(code: string, message: string, status = STATUS[code] ?? 400): PlatformError {
  return new PlatformError(status, { data: {}, error: { code, message, log_id: logId() } });
}

export const invalidParams = (message: string): PlatformError => tiktokError('invalid_params', message);

export function oauthError(error: string, description: string, status = error === 'invalid_client' ? 401 : 400): PlatformError {
  return new PlatformError(status, { error, error_description: description, log_id: logId() });
}

export const tiktokHostErrors: HostErrors = {
  notFound: (method, path) => tiktokError('invalid_params', `No such API: ${method} ${path}`, 404),
  badRequest: (message) => invalidParams(message),
  serverError: (status) => tiktokError('internal_error', 'Something went wrong. Please try again later.', status),
  rateLimited: () => tiktokError('rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.'),
  custom: (fault) => tiktokError(String(fault.code ?? 'internal_error'), fault.message ?? 'Injected error', fault.status),
};
