// X API v2 answers (platforms/x.md §7): problem-details JSON (`title`, `detail`, `type` under
// https://api.x.com/2/problems/…), `errors[]` naming the parameter of a 400, and the OAuth names
// of the token endpoint. Every answer of the API carries the x-rate-limit-* headers (auth.ts).
import { PlatformError, type HostErrors } from '../core/platform-error.ts';

const PROBLEMS = 'https://api.x.com/2/problems';

export function problem(status: number, type: string, title: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): PlatformError {
  return new PlatformError(status, { title, detail, type: type === 'about:blank' ? type : `${PROBLEMS}/${type}`, status, ...extra }, headers);
}

/** A 400 naming the parameter at fault, as X's schema validation does. */
export function invalidRequest(parameter: string, message: string): PlatformError {
  return problem(400, 'invalid-request', 'Invalid Request', 'One or more parameters to your request was invalid.', {
    errors: [{ parameters: { [parameter]: [] }, message }],
  });
}

export const unauthorized = (): PlatformError => problem(401, 'about:blank', 'Unauthorized', 'Unauthorized');

/** The token lacks a scope the endpoint needs. */
export const forbidden = (detail = 'Forbidden'): PlatformError => problem(403, 'about:blank', 'Forbidden', detail);

/** The app's access level does not include the endpoint (reads off: settings.x.reads). */
export const clientForbidden = (): PlatformError =>
  problem(403, 'client-forbidden', 'Client Forbidden', 'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.', {
    reason: 'client-not-enrolled',
    registration_url: 'https://developer.x.com/en/portal/dashboard',
  });

export const notAuthorizedForResource = (detail: string): PlatformError => problem(403, 'not-authorized-for-resource', 'Forbidden', detail);

export const duplicateContent = (): PlatformError => forbidden('You are not allowed to create a Tweet with duplicate content.');

export const notFound = (detail: string, resourceId = ''): PlatformError =>
  problem(404, 'resource-not-found', 'Not Found Error', detail, { resource_type: 'tweet', parameter: 'id', value: resourceId });

export function rateLimited(headers: Record<string, string>): PlatformError {
  return problem(429, 'about:blank', 'Too Many Requests', 'Too Many Requests', {}, headers);
}

/** The token endpoint's OAuth errors. */
export function oauthError(error: string, description: string, status = 400): PlatformError {
  return new PlatformError(status, { error, error_description: description });
}

export const xHostErrors: HostErrors = {
  notFound: (method, path) => problem(404, 'about:blank', 'Not Found', `Sorry, that page does not exist: ${method} ${path}`),
  badRequest: (message) => invalidRequest('body', message),
  serverError: (status) => problem(status, 'about:blank', status === 503 ? 'Service Unavailable' : 'Internal Server Error', 'Something went wrong. Try again later.'),
  rateLimited: () => rateLimited({ 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + 60) }),
  custom: (fault) =>
    problem(fault.status ?? 400, typeof fault.code === 'string' ? fault.code : 'invalid-request', 'Error', fault.message ?? 'The sandbox was told to refuse this request.'),
};
