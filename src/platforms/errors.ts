// The one error every adapter throws. Adapters classify a platform's answer by its parsed error
// code (a table per platform, never substrings of messages); the caller decides what a kind
// means: the job runner retries `transient` and `rate_limited`, marks the account on `auth`, and
// fails the rest at once. toApiError() gives the contract's answer for a request that called
// the platform directly.
import { ApiError } from '../http/errors.ts';

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
  | 'not_supported';

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

/** The contract's answer for a failed platform call (Errors table of the contract). */
export function toApiError(error: PlatformError): ApiError {
  const message = `${error.details.platform}: ${error.message}`;
  switch (error.kind) {
    case 'auth':
      return new ApiError(409, `${message}; reconnect the account`, 'reconnect_required');
    case 'permission':
      return new ApiError(403, message, 'missing_permission');
    case 'invalid':
      return new ApiError(400, message, 'invalid_request');
    case 'rate_limited':
      return new ApiError(429, message, 'rate_limited');
    case 'not_supported':
      return new ApiError(400, message, 'not_supported');
    case 'transient':
    case 'permanent':
      return new ApiError(502, message, 'platform_error');
    default: {
      const unreachable: never = error.kind;
      return unreachable;
    }
  }
}
