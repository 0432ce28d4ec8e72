// The one error every adapter throws. Adapters classify a platform's answer by its parsed error
// code (a table per platform, never substrings of messages); the caller decides what a kind
// means: the job runner retries `transient` and `rate_limited`, marks the account on `auth`, and
// fails the rest at once. toApiError() gives the contract's answer for a request that called
// the platform directly.
import { apiError, type ApiError, type ErrorCode } from '../http/errors.ts';

export type PlatformErrorKind =
  /** The token is no longer valid: the account needs reconnecting. */
  | 'auth'
  /** A permission (scope) was not granted. */
  | 'permission'
  /** The platform rejected the input. */
  | 'invalid'
  /** The platform asked us to slow down. */
  | 'rate_limited'
  /** Worth retrying: timeouts, 5xx, temporary outages. */
  | 'transient'
  /** Anything else that retrying will not fix. */
  | 'permanent'
  /** The platform does not offer this feature for this account or content. */
  | 'not_supported'
  /** Direct messages: the person's messaging window is closed. */
  | 'outside_window'
  /** Direct messages: the person cannot receive the account's messages right now. */
  | 'recipient_unavailable';

export interface PlatformErrorDetails {
  platform: string;
  /** The HTTP status of the platform's answer, when there was one. */
  status?: number;
  /** The platform's own error code (Graph `code`, TikTok `error.code`, reddit error name …). */
  code?: string | number;
  subcode?: string | number;
  /** How long the platform asked us to wait, when it said. */
  retryAfterMs?: number;
  /** For `permission`: the permission that is missing, when known. */
  permission?: string;
}

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly details: PlatformErrorDetails;
  constructor(kind: PlatformErrorKind, message: string, details: PlatformErrorDetails) {
    super(message);
    this.name = 'PlatformError';
    this.kind = kind;
    this.details = details;
  }

  get retryable(): boolean {
    return this.kind === 'transient' || this.kind === 'rate_limited';
  }
}

/**
 * A sign-in on the service's connect page that the platform refused for what the person typed (a
 * wrong password, a main password where an app password is needed): the page is shown again with
 * this message, in words the person can act on.
 */
export class ConnectRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectRefusal';
  }
}

/** The catalogue's code for each kind of platform failure (Errors table of the contract). */
const API_CODES = {
  auth: 'reconnect_required',
  permission: 'missing_permission',
  invalid: 'invalid_request',
  rate_limited: 'rate_limited',
  not_supported: 'not_supported',
  outside_window: 'outside_messaging_window',
  recipient_unavailable: 'recipient_unavailable',
  transient: 'platform_error',
  permanent: 'platform_error',
} as const satisfies Record<PlatformErrorKind, ErrorCode>;

/** The contract's answer for a failed platform call: the catalogue entry of its kind. */
export function toApiError(error: PlatformError): ApiError {
  const message = `${error.details.platform}: ${error.message}`;
  return apiError(API_CODES[error.kind], error.kind === 'auth' ? `${message}; reconnect the account` : message);
}
