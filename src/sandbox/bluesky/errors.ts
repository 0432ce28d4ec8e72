// XRPC answers (bluesky.md §1, §8): errors are `{"error": Name, "message": text}` with the HTTP
// status of the error's class (400 InvalidRequest and friends, 401 AuthenticationRequired /
// AuthMissing, 429 RateLimitExceeded, 500 InternalServerError, 501 MethodNotImplemented).
// plc.directory answers its own `{"message"}` shape.
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

export function xrpcError(status: number, error: string, message: string, headers: Record<string, string> = {}): PlatformError {
  return new PlatformError(status, { error, message }, headers);
}

/** 400 InvalidRequest: the lexicon's and the handlers' refusals. */
export const invalidRequest = (message: string, error = 'InvalidRequest'): PlatformError => xrpcError(400, error, message);

/** A record refused by lexicon validation, worded as the PDS words it (`Record/text must …`). */
export const invalidRecord = (collection: string, message: string): PlatformError => invalidRequest(`Invalid ${collection} record: ${message}`);

export const authRequired = (message: string, error = 'AuthenticationRequired'): PlatformError => xrpcError(401, error, message);

export const rateLimitExceeded = (headers: Record<string, string>): PlatformError => xrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', headers);

/** What the PDS answers when the repository refuses a write it did not foresee (a key already taken). */
export const internalServerError = (): PlatformError => xrpcError(500, 'InternalServerError', 'Internal Server Error');

const SERVER_ERRORS: Record<number, [string, string]> = {
  500: ['InternalServerError', 'Internal Server Error'],
  502: ['UpstreamFailure', 'Upstream Failure'],
  503: ['NotEnoughResources', 'Service Unavailable'],
  504: ['UpstreamTimeout', 'Upstream Timeout'],
};

export const xrpcHostErrors: HostErrors = {
  notFound: (method, path) =>
    path.startsWith('/xrpc/') ? xrpcError(501, 'MethodNotImplemented', 'Method Not Implemented') : xrpcError(404, 'NotFound', `Cannot ${method} ${path}`),
  badRequest: (message) => invalidRequest(message),
  serverError: (status) => {
    const [error, message] = SERVER_ERRORS[status] ?? ['InternalServerError', 'Internal Server Error'];
    return xrpcError(status, error, message);
  },
  rateLimited: () => rateLimitExceeded({ 'ratelimit-limit': '3000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 300), 'ratelimit-policy': '3000;w=300' }),
  custom: (fault) => xrpcError(fault.status ?? 400, typeof fault.code === 'string' ? fault.code : 'InvalidRequest', fault.message ?? 'The sandbox was told to refuse this request.'),
};

export const plcHostErrors: HostErrors = {
  notFound: (method, path) => new PlatformError(404, { message: `Cannot ${method} ${path}` }),
  badRequest: (message) => new PlatformError(400, { message }),
  serverError: (status) => new PlatformError(status, { message: 'Internal Server Error' }),
  rateLimited: () => new PlatformError(429, { message: 'Too Many Requests' }),
  custom: (fault) => new PlatformError(fault.status ?? 400, { message: fault.message ?? 'The sandbox was told to refuse this request.' }),
};
