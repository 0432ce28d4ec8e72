// LinkedIn's error answers (linkedin.md §8): `{status, serviceErrorCode?, code?, message}`; the
// posts API's validation errors add `errorDetails.inputErrors[]` with a code (DUPLICATE_POST …).
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

export function linkedinError(status: number, message: string, extra: { code?: string; serviceErrorCode?: number; headers?: Record<string, string> } = {}): PlatformError {
  const body: Record<string, unknown> = { status, message };
  if (extra.serviceErrorCode !== undefined) body.serviceErrorCode = extra.serviceErrorCode;
  if (extra.code !== undefined) body.code = extra.code;
  return new PlatformError(status, body, extra.headers ?? {});
}

/** A 422 of the posts API, with its input error code. */
export function inputError(message: string, code: string, description: string): PlatformError {
  return new PlatformError(422, {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message,
    errorDetails: { inputErrors: [{ description, input: {}, code }] },
    status: 422,
  });
}

export const linkedinHostErrors: HostErrors = {
  notFound: (method, path) => linkedinError(404, `No virtual resource found for ${method} ${path}`, { code: 'NOT_FOUND' }),
  badRequest: (message) => linkedinError(400, message, { code: 'BAD_REQUEST' }),
  serverError: (status) => linkedinError(status, 'Internal Server Error', { code: 'INTERNAL_SERVER_ERROR' }),
  rateLimited: () => linkedinError(429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.', { code: 'TOO_MANY_REQUESTS' }),
  custom: (fault) =>
    linkedinError(fault.status ?? 400, fault.message ?? 'Error', {
      ...(typeof fault.code === 'string' ? { code: fault.code } : {}),
      ...(typeof fault.code === 'number' ? { serviceErrorCode: fault.code } : {}),
    }),
};

/** OAuth endpoints answer `{error, error_description}` (www.linkedin.com/oauth/v2). */
export const oauthError = (status: number, error: string, description: string): PlatformError => new PlatformError(status, { error, error_description: description });
