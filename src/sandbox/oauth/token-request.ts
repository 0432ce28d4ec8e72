// What an OAuth token endpoint reads of its request, the same on every platform that takes a
// form body and HTTP Basic client authentication (reddit, x, linkedin's form).
import type { RouteContext } from '../core/router.ts';

/** The string fields of the form body. */
export const formFields = (ctx: RouteContext): Record<string, string> =>
  Object.fromEntries(Object.entries((ctx.body ?? {}) as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** A form-urlencoded part, or the part as it is when it is not valid encoding. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1: each form-urlencoded); empty when absent. */
export function basicCredentials(ctx: RouteContext): { clientId: string; secret: string } {
  const match = /^Basic\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '');
  const header = match?.[1] ? Buffer.from(match[1], 'base64').toString() : '';
  const colon = header.indexOf(':');
  if (colon <= 0) return { clientId: '', secret: '' };
  return { clientId: decoded(header.slice(0, colon)), secret: decoded(header.slice(colon + 1)) };
}
