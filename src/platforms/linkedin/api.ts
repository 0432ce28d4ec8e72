// Calls to LinkedIn (linkedin.md §1, §8): every /rest request carries `LinkedIn-Version` (the
// LINKEDIN_VERSION setting) and `X-Restli-Protocol-Version: 2.0.0`; URNs in paths are encoded.
// Answers are classified by HTTP status (plus the code LinkedIn gives), never by their text.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformHttp, PlatformRequest, PlatformResponse } from '../http.ts';
import { list, obj, str, text, type Json } from '../json.ts';

export const LINKEDIN_API = 'https://api.linkedin.com';
export const LINKEDIN_WWW = 'https://www.linkedin.com';

export interface LinkedInSettings {
  /** `LinkedIn-Version`, a month YYYYMM (versions are sunset about a year after release). */
  version: string;
  /** The app has the Community Management product: organizations are offered at connect. */
  organizations: boolean;
}

function kindOf(status: number): PlatformErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 429) return 'rate_limited';
  if (status === 426) return 'permanent';
  if (status >= 500) return 'transient';
  if (status >= 400 && status < 500) return 'invalid';
  return 'permanent';
}

/** The input error code of a 422 (`DUPLICATE_POST` …), if any. */
export function inputErrorCode(body: unknown): string | null {
  return str(obj(list(obj(obj(body).errorDetails).inputErrors)[0]).code);
}

/** The body of a 2xx answer; any other answer throws its PlatformError. */
export function linkedinBody(response: PlatformResponse): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  const body = obj(response.body);
  const code = inputErrorCode(body) ?? str(body.code) ?? str(body.serviceErrorCode) ?? str(body.error) ?? undefined;
  const message = text(body.message) || text(body.error_description) || `HTTP ${response.status}`;
  const kind = kindOf(response.status);
  const details = { platform: 'linkedin', status: response.status, ...(code !== undefined ? { code } : {}) };
  if (kind === 'rate_limited') {
    // No Retry-After: LinkedIn's daily limits reset at 00:00 UTC (linkedin.md §9); the publisher adds when.
    throw new PlatformError(kind, `LinkedIn's daily limit is reached: ${message}`, details);
  }
  throw new PlatformError(kind, message, details);
}

export interface RestRequest {
  method?: PlatformRequest['method'];
  /** After /rest, with URNs already encoded. */
  path: string;
  token: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  headers?: Record<string, string>;
}

export interface LinkedInApi {
  readonly http: PlatformHttp;
  readonly settings: LinkedInSettings;
  /** A versioned /rest call; the raw answer once it is a 2xx (headers carry created ids). */
  rest(request: RestRequest): Promise<PlatformResponse>;
  /** A versioned /rest call's JSON body. */
  restJson(request: RestRequest): Promise<Json>;
}

export function linkedinApi(http: PlatformHttp, settings: LinkedInSettings): LinkedInApi {
  const rest = async (request: RestRequest): Promise<PlatformResponse> => {
    const response = await http.send('linkedin', {
      method: request.method ?? 'GET',
      url: `${LINKEDIN_API}/rest${request.path}`,
      bearer: request.token,
      ...(request.query ? { query: request.query } : {}),
      ...(request.json !== undefined ? { json: request.json } : {}),
      headers: { 'linkedin-version': settings.version, 'x-restli-protocol-version': '2.0.0', ...request.headers },
    });
    linkedinBody(response);
    return response;
  };
  return { http, settings, rest, restJson: async (request) => obj((await rest(request)).body) };
}

/** A URN as a path segment (linkedin.md §1: `urn%3Ali%3Ashare%3A123`). */
export const urnPath = (urn: string): string => encodeURIComponent(urn);
