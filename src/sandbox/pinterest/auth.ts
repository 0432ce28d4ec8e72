// Every api.pinterest.com call with a user token (platforms/pinterest.md §2, §7): `Authorization:
// Bearer`, the scopes of the operation, and the rate limits: per user and category (org_read,
// org_write, org_analytics) each minute for Standard access; an app with Trial access has
// `settings.pinterest.trialDailyRequests` calls a UTC day for everything.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { missingScope, rateLimited, unauthorized } from './errors.ts';
import type { PinterestUser } from './people.ts';

export type RateCategory = 'org_read' | 'org_write' | 'org_analytics';

export interface PinterestCaller {
  token: TokenRecord;
  user: PinterestUser;
}

const MINUTE_MS = 60_000;

export function pinterestAuth(ctx: RouteContext, scopes: readonly string[], category: RateCategory): PinterestCaller {
  const value = /^Bearer\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '')?.[1]?.trim();
  const token = value ? ctx.state.token(value) : undefined;
  if (!token || token.platform !== 'pinterest' || token.type !== 'user' || token.revoked || ctx.state.isExpired(token)) throw unauthorized();
  const user = ctx.state.people.pinterestUsers.get(token.subjectId);
  if (!user) throw unauthorized();
  count(ctx, token, user, category);
  const missing = scopes.filter((s) => !token.scopes.includes(s));
  if (missing.length) throw missingScope(missing);
  return { token, user };
}

function count(ctx: RouteContext, token: TokenRecord, user: PinterestUser, category: RateCategory): void {
  const now = ctx.state.clock.now();
  const settings = ctx.state.settings.pinterest;
  if (settings.trial) {
    const day = `${token.clientId}:${new Date(now).toISOString().slice(0, 10)}`;
    const used = (ctx.state.pinterest.trialDaily.get(day) ?? 0) + 1;
    ctx.state.pinterest.trialDaily.set(day, used);
    if (used > settings.trialDailyRequests) throw rateLimited();
    return;
  }
  const key = `${user.id}:${category}`;
  const current = ctx.state.pinterest.windows.get(key);
  const window = current && now < current.start + MINUTE_MS ? current : { start: now, used: 0 };
  window.used++;
  ctx.state.pinterest.windows.set(key, window);
  const limit = category === 'org_write' ? settings.writesPerMinute : category === 'org_analytics' ? settings.analyticsPerMinute : settings.readsPerMinute;
  if (window.used > limit) throw rateLimited();
}
