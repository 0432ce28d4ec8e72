// Google's error answers (youtube.md §9): `{error: {code, message, errors: [{domain, reason,
// message}], status}}`, keyed by `errors[0].reason`; the OAuth endpoints answer `{error,
// error_description}`.
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

const STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

export function googleError(code: number, reason: string, message: string, domain = 'youtube.api', headers: Record<string, string> = {}): PlatformError {
  return new PlatformError(code, { error: { code, message, errors: [{ domain, reason, message }], status: STATUS[code] ?? 'UNKNOWN' } }, headers);
}

export const oauthError = (status: number, error: string, description: string): PlatformError => new PlatformError(status, { error, error_description: description });

export const unauthorized = (): PlatformError =>
  googleError(401, 'authError', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'global');

export const insufficient = (): PlatformError => googleError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');

export const badRequest = (reason: string, message: string): PlatformError => googleError(400, reason, message);

export const youtubeHostErrors: HostErrors = {
  notFound: (method, path) => googleError(404, 'notFound', `Not Found: ${method} ${path}`, 'global'),
  badRequest: (message) => googleError(400, 'badRequest', message, 'global'),
  serverError: (status) => googleError(status, 'backendError', 'Backend Error', 'global'),
  rateLimited: () => googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.', 'youtube.quota'),
  custom: (fault) => googleError(fault.status ?? 400, typeof fault.code === 'string' ? fault.code : 'badRequest', fault.message ?? 'Error'),
};
