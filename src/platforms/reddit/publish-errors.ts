// reddit's publishing errors (platforms.md §6.2): HTTP statuses for the transport, and the
// `[CODE, message, field]` triplets of the api_type=json envelope, classified by CODE.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';

const ENVELOPE_KINDS: Record<string, PlatformErrorKind> = {
  RATELIMIT: 'rate_limited',
  SUBREDDIT_NOEXIST: 'invalid',
  SUBREDDIT_NOTALLOWED: 'permission',
  SUBREDDIT_REQUIRED: 'invalid',
  NO_TEXT: 'invalid',
  TOO_LONG: 'invalid',
  NO_URL: 'invalid',
  BAD_URL: 'invalid',
  ALREADY_SUB: 'invalid',
  NO_SELFS: 'invalid',
  NO_LINKS: 'invalid',
  DOMAIN_BANNED: 'invalid',
  INVALID_OPTION: 'invalid',
  SUBMIT_VALIDATION_FLAIR_REQUIRED: 'invalid',
  USER_REQUIRED: 'auth',
  BAD_CAPTCHA: 'permanent',
  IN_TIMEOUT: 'permanent',
  THREAD_LOCKED: 'permanent',
  TOO_OLD: 'permanent',
};

export function redditHttpError(status: number): PlatformError {
  const details = { platform: 'reddit', status };
  if (status === 401) return new PlatformError('auth', 'the token is invalid or expired (HTTP 401)', details);
  if (status === 403) return new PlatformError('permission', 'forbidden: the account may not post there, or the submit scope is missing (HTTP 403)', details);
  if (status === 429) return new PlatformError('rate_limited', 'too many requests (HTTP 429)', details);
  if (status >= 500) return new PlatformError('transient', `reddit is unavailable (HTTP ${status})`, details);
  return new PlatformError('permanent', `unexpected answer (HTTP ${status})`, details);
}

/** The first triplet decides the kind; the message keeps all of them, as reddit wrote them. */
export function redditEnvelopeError(errors: Array<[string, string, string]>): PlatformError {
  const [first] = errors;
  const code = first?.[0] ?? 'UNKNOWN';
  const kind = ENVELOPE_KINDS[code] ?? 'permanent';
  const message = errors.map(([c, text, field]) => `${c}: ${text}${field ? ` (${field})` : ''}`).join('; ');
  return new PlatformError(kind, message, { platform: 'reddit', code });
}
