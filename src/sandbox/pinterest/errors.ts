// Pinterest's error answers (platforms/pinterest.md §6): `{code, message}` with the HTTP status
// carrying the meaning (the integer codes are not documented per endpoint; the sandbox's are its
// own, except 29, the Trial-access refusal Pinterest answers on production Pin creation).
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

export const pinterestError = (status: number, code: number, message: string, headers: Record<string, string> = {}): PlatformError => new PlatformError(status, { code, message }, headers);

/** A 400 naming the field at fault, as Pinterest's validation messages do. */
export const invalidField = (field: string, message: string): PlatformError => pinterestError(400, 1, `Invalid parameters. ${field}: ${message}`);

export const unauthorized = (): PlatformError => pinterestError(401, 2, 'Authentication failed.');

export const missingScope = (scopes: readonly string[]): PlatformError => pinterestError(403, 3, `Not authorized to access the resource: the token needs ${scopes.join(', ')}.`);

export const notFound = (what: string): PlatformError => pinterestError(404, 4, `${what} not found.`);

export const rateLimited = (): PlatformError => pinterestError(429, 8, 'You have exceeded your rate limit. Try again later.');

/** What Pinterest answers an app with Trial access creating a Pin on api.pinterest.com. */
export const trialRefused = (): PlatformError =>
  pinterestError(403, 29, 'Apps with Trial access may not create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead.');

export const pinterestHostErrors: HostErrors = {
  notFound: (method, path) => pinterestError(404, 4, `Not found: ${method} ${path}`),
  badRequest: (message) => pinterestError(400, 1, `Invalid request: ${message}`),
  serverError: (status) => pinterestError(status, 0, 'Something went wrong on our end. Sorry about that.'),
  rateLimited,
  custom: (fault) => pinterestError(fault.status ?? 400, typeof fault.code === 'number' ? fault.code : 1, fault.message ?? 'The sandbox was told to refuse this request.'),
};
