// The Graph error object (platforms.md §1.2–1.3) and the errors every Graph host shares.
// Behaviour is keyed on `code`/`error_subcode`; the HTTP statuses are best knowledge (§1: 400
// for OAuthException including 190 and throttling, 403 for code 10, 500/503 for codes 1/2).
import { IdGenerator } from '../core/ids.ts';
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

const traces = new IdGenerator('fbtrace');

export interface GraphErrorInput {
  code: number;
  message?: string | undefined;
  subcode?: number | undefined;
  type?: string | undefined;
  userTitle?: string | undefined;
  userMessage?: string | undefined;
  isTransient?: boolean | undefined;
  status?: number | undefined;
  headers?: Record<string, string> | undefined;
}

const DEFAULT_MESSAGES: Record<number, string> = {
  1: 'An unknown error occurred',
  2: 'An unexpected error has occurred. Please retry your request later.',
  4: '(#4) Application request limit reached',
  9: '(#9) The user has reached the daily publishing limit',
  10: '(#10) Application does not have permission for this action',
  17: '(#17) User request limit reached',
  32: '(#32) Page request limit reached',
  100: '(#100) Invalid parameter',
  190: 'Invalid OAuth access token - Cannot parse access token',
  200: '(#200) Permissions error',
  341: '(#341) Application limit reached',
  368: '(#368) The action attempted has been deemed abusive or is otherwise disallowed',
  506: '(#506) Duplicate status message',
  613: '(#613) Calls to this api have exceeded the rate limit.',
  80001: "(#80001) There have been too many calls to this Page account. Wait a bit and try again.",
  80002: "(#80002) There have been too many calls to this Instagram account. Wait a bit and try again.",
};

const TRANSIENT = new Set([1, 2, 4, 17, 32, 341, 613, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);

function statusFor(code: number): number {
  if (code === 1) return 500;
  if (code === 2) return 503;
  if (code === 10) return 403;
  return 400;
}

export function graphError(input: GraphErrorInput): PlatformError {
  const body: Record<string, unknown> = {
    message: input.message ?? DEFAULT_MESSAGES[input.code] ?? `(#${input.code}) An error occurred`,
    type: input.type ?? (input.code === 100 && input.subcode === 33 ? 'GraphMethodException' : 'OAuthException'),
    code: input.code,
  };
  if (input.subcode !== undefined) body.error_subcode = input.subcode;
  if (input.userTitle) body.error_user_title = input.userTitle;
  if (input.userMessage) body.error_user_msg = input.userMessage;
  body.is_transient = input.isTransient ?? TRANSIENT.has(input.code);
  body.fbtrace_id = traces.opaque('trace', 27);
  return new PlatformError(input.status ?? statusFor(input.code), { error: body }, input.headers ?? {});
}

/** Error 190 with the `WWW-Authenticate` header Graph sends with it. */
export function tokenError(message: string, subcode?: number): PlatformError {
  return graphError({
    code: 190,
    subcode,
    message,
    headers: { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message.replace(/"/g, "'")}"` },
  });
}

export const invalidParameter = (message: string, subcode?: number): PlatformError =>
  graphError({ code: 100, message: message.startsWith('(#') ? message : `(#100) ${message}`, subcode });

export const missingPermission = (permission: string, code: 10 | 200 = 200): PlatformError =>
  graphError({ code, message: code === 10 ? DEFAULT_MESSAGES[10] : `(#200) Requires ${permission} permission to manage the object` });

export function unsupportedRequest(method: string, id: string): PlatformError {
  return graphError({
    code: 100,
    subcode: 33,
    message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
  });
}

/** The errors of a Graph host for the sandbox's generic failures. */
export const graphHostErrors: HostErrors = {
  notFound(method, path) {
    const segments = path.split('/').filter(Boolean);
    if (segments.length >= 1 && segments.length <= 2) return unsupportedRequest(method, segments[0] ?? '');
    return graphError({ code: 2500, message: `Unknown path components: ${path}` });
  },
  badRequest: (message) => invalidParameter(message),
  serverError: (status) => graphError({ code: status === 503 ? 2 : 1, status, isTransient: true }),
  rateLimited: () => graphError({ code: 4, isTransient: true }),
  custom: (fault) =>
    graphError({
      code: typeof fault.code === 'number' ? fault.code : Number(fault.code ?? 100) || 100,
      subcode: fault.subcode,
      message: fault.message,
      status: fault.status,
    }),
};

/**
 * The OAuth error shape of the Instagram Login and Threads token endpoints (platforms.md §4.1):
 * `{"error_type":"OAuthException","code":400,"error_message":"…"}`.
 */
export function oauthEndpointError(message: string, status = 400): PlatformError {
  return new PlatformError(status, { error_type: 'OAuthException', code: status, error_message: message });
}
