// Every oauth.reddit.com call (platforms.md §6.2–6.3): a descriptive User-Agent (generic ones are
// throttled), `Authorization: bearer`, the scope the endpoint needs, and the per-client request
// window reported in X-Ratelimit-Used / -Remaining (a float string) / -Reset (seconds).
import type { TokenRecord } from '../core/model.ts';
import type { RedditUser } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import { httpError } from './errors.ts';

const GENERIC_AGENTS = /^(node|undici|node-fetch|python-requests|python-urllib|curl|wget|axios|go-http-client|okhttp|java|got)\b/i;

export interface RedditCaller {
  token: TokenRecord;
  user: RedditUser;
}

export function redditAuth(ctx: RouteContext, scope: string): RedditCaller {
  const agent = ctx.request.headers['user-agent'] ?? '';
  if (!agent.trim() || GENERIC_AGENTS.test(agent)) throw httpError(429);
  const value = /^bearer\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '')?.[1]?.trim();
  const token = value ? ctx.state.token(value) : undefined;
  const invalid = { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' };
  if (!token || token.platform !== 'reddit' || token.type !== 'user' || token.revoked || ctx.state.isExpired(token)) throw httpError(401, invalid);
  countRequest(ctx, token.clientId);
  if (!token.scopes.includes(scope) && !token.scopes.includes('*')) {
    throw httpError(403, { 'www-authenticate': 'Bearer realm="reddit", error="insufficient_scope"' });
  }
  const user = ctx.state.people.redditUsers.get(token.subjectId);
  if (!user) throw httpError(401, invalid);
  return { token, user };
}

function countRequest(ctx: RouteContext, clientId: string): void {
  const { redditRequestsPerWindow: limit, redditWindowSeconds: windowSeconds } = ctx.state.settings.limits;
  const now = ctx.state.clock.now();
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  const current = ctx.state.reddit.windows.get(clientId);
  const window = current && current.start === start ? current : { start, used: 0 };
  window.used++;
  ctx.state.reddit.windows.set(clientId, window);
  const headers = {
    'x-ratelimit-used': String(window.used),
    'x-ratelimit-remaining': Math.max(0, limit - window.used).toFixed(1),
    'x-ratelimit-reset': String(Math.ceil((start + windowMs - now) / 1000)),
  };
  void ctx.reply.headers(headers);
  if (window.used > limit) throw httpError(429, headers);
}
