// Every api.x.com call with a user token (platforms/x.md §2, §9): `Authorization: Bearer`, the
// scopes the endpoint needs, and the per-user 15-minute window of the endpoint, reported on every
// answer in x-rate-limit-limit / -remaining / -reset (epoch seconds); over it, 429 with the same
// headers and no Retry-After.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { clientForbidden, forbidden, rateLimited, unauthorized } from './errors.ts';
import type { XUser } from './people.ts';

export interface XCaller {
  token: TokenRecord;
  user: XUser;
}

const WINDOW_MS = 15 * 60_000;

export function xAuth(ctx: RouteContext, scopes: readonly string[], endpoint: string, limit: number): XCaller {
  const value = /^Bearer\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '')?.[1]?.trim();
  const token = value ? ctx.state.token(value) : undefined;
  if (!token || token.platform !== 'x' || token.type !== 'user' || token.revoked || ctx.state.isExpired(token)) throw unauthorized();
  const user = ctx.state.people.xUsers.get(token.subjectId);
  if (!user) throw unauthorized();
  countRequest(ctx, `${user.id}:${endpoint}`, limit);
  if (scopes.some((s) => !token.scopes.includes(s))) throw forbidden('Forbidden');
  return { token, user };
}

/** Reads (timelines, lookups, search) need a paid access level: off in settings.x.reads → 403 client-forbidden. */
export function requireReads(ctx: RouteContext): void {
  if (!ctx.state.settings.x.reads) throw clientForbidden();
}

function countRequest(ctx: RouteContext, key: string, limit: number): void {
  const now = ctx.state.clock.now();
  const current = ctx.state.x.windows.get(key);
  const window = current && now < current.start + WINDOW_MS ? current : { start: now, used: 0 };
  window.used++;
  ctx.state.x.windows.set(key, window);
  const headers = {
    'x-rate-limit-limit': String(limit),
    'x-rate-limit-remaining': String(Math.max(0, limit - window.used)),
    'x-rate-limit-reset': String(Math.ceil((window.start + WINDOW_MS) / 1000)),
  };
  void ctx.reply.headers(headers);
  if (window.used > limit) throw rateLimited(headers);
}
