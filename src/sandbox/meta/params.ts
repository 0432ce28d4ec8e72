// Graph parameters arrive in the query string, a form body or a JSON body, interchangeably
// (platforms.md "Conventions"); handlers read them from one merged record.
import { isRawBody } from '../core/body.ts';
import type { RouteContext } from '../core/router.ts';

export type GraphInput = Record<string, unknown>;

export function graphInput(ctx: RouteContext): GraphInput {
  const body = ctx.body && typeof ctx.body === 'object' && !isRawBody(ctx.body) && !Array.isArray(ctx.body) ? (ctx.body as GraphInput) : {};
  return { ...ctx.query, ...body };
}

/** A scalar parameter as a string (JSON numbers and booleans included); undefined when absent. */
export function str(input: GraphInput, key: string): string | undefined {
  const value = input[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function bool(input: GraphInput, key: string): boolean | undefined {
  const value = str(input, key);
  if (value === undefined) return undefined;
  return value === 'true' || value === '1';
}

/** A list parameter: a JSON array, a JSON-encoded array string, or a comma-separated string. */
export function list(input: GraphInput, key: string): string[] | undefined {
  const value = input[key];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // not JSON: fall through to the comma list
    }
  }
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The access token: `access_token` parameter, or `Authorization: Bearer|OAuth <token>`. */
export function accessToken(ctx: RouteContext, input: GraphInput): string | undefined {
  const param = str(input, 'access_token');
  if (param) return param;
  const header = ctx.request.headers.authorization;
  const match = header ? /^(?:Bearer|OAuth)\s+(.+)$/i.exec(header) : null;
  return match?.[1]?.trim();
}
