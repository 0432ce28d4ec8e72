// Errors the client throws. Every answer of the API outside 2xx is a SocialApiError carrying the
// body's `code` (invalid_request, not_supported, REQUEST_IN_PROGRESS …; when the body has none, one
// from the status: not_found, rate_limited, server_error …), the message (which names
// the field for a 400), the status and the request id to quote.
export interface ErrorBody {
  error: { code: string; message: string; [key: string]: unknown };
}

export class SocialApiError extends Error {
  override readonly name: string = 'SocialApiError';
  readonly status: number;
  readonly code: string;
  /** The whole error body, with any detail beside code and message. */
  readonly body: ErrorBody | null;
  /** The server's request-id header, for support. */
  readonly requestId: string | null;
  constructor(status: number, code: string, message: string, body: ErrorBody | null, requestId: string | null) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
    this.requestId = requestId;
  }
}

/** 400: invalid input; the message names the field. */
export class InvalidRequestError extends SocialApiError {
  override readonly name = 'InvalidRequestError';
}
/** 401: missing, unknown or revoked API key. */
export class AuthenticationError extends SocialApiError {
  override readonly name = 'AuthenticationError';
}
/** 404: unknown id, or it belongs to another organization. */
export class NotFoundError extends SocialApiError {
  override readonly name = 'NotFoundError';
}
/** 409: a state conflict (REQUEST_IN_PROGRESS, NOT_EDITABLE …). */
export class ConflictError extends SocialApiError {
  override readonly name = 'ConflictError';
}
/** 429: rate limited, after the client's retries. */
export class RateLimitError extends SocialApiError {
  override readonly name = 'RateLimitError';
}
/** 5xx: the service or the platform failed, after the client's retries. */
export class ServerError extends SocialApiError {
  override readonly name = 'ServerError';
}

/** No answer at all (connection refused or reset, timeout), after the client's retries. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code = 'network_error';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The code of an answer that has none of its own (the API gives one only when it is stable). */
const STATUS_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  429: 'rate_limited',
};

export function errorFor(status: number, body: unknown, requestId: string | null): SocialApiError {
  const parsed = typeof body === 'object' && body !== null && 'error' in body ? (body as ErrorBody) : null;
  const code = parsed?.error.code ?? STATUS_CODES[status] ?? (status >= 500 ? 'server_error' : `http_${status}`);
  const message = parsed?.error.message ?? `HTTP ${status}`;
  const Kind =
    status === 400 ? InvalidRequestError
    : status === 401 ? AuthenticationError
    : status === 404 ? NotFoundError
    : status === 409 ? ConflictError
    : status === 429 ? RateLimitError
    : status >= 500 ? ServerError
    : SocialApiError;
  return new Kind(status, code, message, parsed, requestId);
}
