// Bearer tokens, scopes and per-token rate limits of the TikTok API (platforms.md §5.6: 401
// access_token_invalid / scope_not_authorized; §5.3: 6 init calls a minute per token, 429
// rate_limit_exceeded).
import type { TokenRecord } from '../core/model.ts';
import type { TikTokCreator } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import { tiktokError } from './envelope.ts';

export function tiktokAuth(ctx: RouteContext): { token: TokenRecord; creator: TikTokCreator } {
  const header = ctx.request.headers.authorization ?? '';
  const value = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  const token = value ? ctx.state.token(value) : undefined;
  if (!token || token.platform !== 'tiktok' || token.type !== 'user') {
    throw tiktokError('access_token_invalid', 'The access token is invalid or not found in the request.');
  }
  if (token.revoked) throw tiktokError('access_token_invalid', 'The access token has been revoked.');
  if (ctx.state.isExpired(token)) throw tiktokError('access_token_invalid', 'The access token is expired.');
  const creator = ctx.state.people.tiktokCreators.get(token.subjectId);
  if (!creator) throw tiktokError('access_token_invalid', 'The access token is invalid or not found in the request.');
  return { token, creator };
}

export function requireScope(token: TokenRecord, scope: string): void {
  if (!token.scopes.includes(scope)) throw tiktokError('scope_not_authorized', `The user did not authorize the scope required for completing this request (${scope}).`);
}

/** A sliding one-minute window per token and bucket. */
export function rateLimit(ctx: RouteContext, token: TokenRecord, bucket: string, perMinute: number): void {
  const key = `${token.value}:${bucket}`;
  const now = ctx.state.clock.now();
  const recent = (ctx.state.tiktok.calls.get(key) ?? []).filter((t) => t > now - 60_000);
  if (recent.length >= perMinute) {
    ctx.state.tiktok.calls.set(key, recent);
    throw tiktokError('rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
  }
  recent.push(now);
  ctx.state.tiktok.calls.set(key, recent);
}
