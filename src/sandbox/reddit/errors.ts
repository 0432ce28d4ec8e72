// reddit's answers (platforms.md §6): HTTP errors as `{"message": "Unauthorized", "error": 401}`,
// and write endpoints' validation errors inside `{"json": {"errors": [[CODE, message, field]]}}`
// with HTTP 200 (`api_type=json`).
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function httpError(status: number, headers: Record<string, string> = {}): PlatformError {
  return new PlatformError(status, { message: REASONS[status] ?? 'Error', error: status }, headers);
}

export type ErrorTriplet = [code: string, message: string, field: string];

export function envelopeError(...errors: ErrorTriplet[]): PlatformError {
  return new PlatformError(200, { json: { errors } });
}

export const redditHostErrors: HostErrors = {
  notFound: () => httpError(404),
  badRequest: () => httpError(400),
  serverError: (status) => httpError(status),
  rateLimited: () => httpError(429),
  custom: (fault) =>
    typeof fault.code === 'string'
      ? envelopeError([fault.code, fault.message ?? 'you are doing that too much. try again in 9 minutes.', ''])
      : httpError(fault.status ?? (typeof fault.code === 'number' ? fault.code : 400)),
};
