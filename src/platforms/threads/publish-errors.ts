// Graph API errors as Threads answers them (platforms.md §1.2–1.3, §4), classified by `code`
// and `error_subcode`, never by message text.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';

interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
}

const BY_CODE: Record<number, PlatformErrorKind> = {
  1: 'transient',
  2: 'transient',
  3: 'permission',
  4: 'rate_limited',
  10: 'permission',
  17: 'rate_limited',
  24: 'invalid',
  32: 'rate_limited',
  100: 'invalid',
  190: 'auth',
  200: 'permission',
  368: 'permanent',
  613: 'rate_limited',
};

const BY_SUBCODE: Record<string, PlatformErrorKind> = {
  // Publishing limit reached (250 posts / 24 h): it frees up as the window moves.
  '9:2207042': 'rate_limited',
  // Container not ready yet.
  '9007:2207027': 'transient',
};

export function graphErrorOf(body: unknown): GraphError | null {
  if (!body || typeof body !== 'object' || !('error' in body)) return null;
  const { error } = body;
  return error && typeof error === 'object' ? error : null;
}

export function threadsError(status: number, body: unknown): PlatformError {
  const error = graphErrorOf(body);
  const details = { platform: 'threads', status, ...(error?.code !== undefined ? { code: error.code } : {}), ...(error?.error_subcode !== undefined ? { subcode: error.error_subcode } : {}) };
  if (!error) {
    return new PlatformError(status >= 500 ? 'transient' : 'permanent', `unexpected answer (HTTP ${status})`, details);
  }
  const code = error.code ?? 0;
  let kind: PlatformErrorKind = BY_SUBCODE[`${code}:${error.error_subcode ?? ''}`] ?? BY_CODE[code] ?? (status >= 500 ? 'transient' : 'permanent');
  if (error.is_transient === true && kind === 'permanent') kind = 'transient';
  return new PlatformError(kind, error.message ?? `error ${code}`, details);
}
