// Access to ad accounts (platforms.md §9, §1.4): a Facebook user token of the account's owner;
// `ads_read` or `ads_management` to read, `ads_management` to write (code 200 otherwise). Every
// call counts against the account's usage: the X-Ad-Account-Usage and X-Business-Use-Case-Usage
// headers report it, and at 100 % calls are throttled with 80004 (ads management) or 80000
// (insights), subcode 2446079 (§1.3), until the window (settings.ads.usageWindowSeconds) rolls.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { graphToken } from '../meta/auth.ts';
import { graphError, unsupportedRequest } from '../meta/graph-error.ts';
import type { GraphInput } from '../meta/params.ts';
import type { AdAccount } from './store.ts';

export type AdsAccess = 'read' | 'write' | 'insights';

export function adsToken(ctx: RouteContext, input: GraphInput, account: AdAccount, access: AdsAccess, objectId: string): TokenRecord {
  const token = graphToken(ctx, input, { platforms: ['facebook'] });
  const scopes = token.scopes;
  if (access === 'write' ? !scopes.includes('ads_management') : !scopes.includes('ads_management') && !scopes.includes('ads_read')) {
    throw graphError({
      code: 200,
      message: access === 'write' ? '(#200) Requires ads_management permission to manage the object' : '(#200) Ad account owner has NOT grant ads_management or ads_read permission',
    });
  }
  if (token.userId !== account.ownerUserId || token.type !== 'user') throw unsupportedRequest(ctx.method, objectId);
  countCall(ctx, account, access);
  return token;
}

function countCall(ctx: RouteContext, account: AdAccount, access: AdsAccess): void {
  const settings = ctx.state.settings.ads;
  const now = ctx.state.clock.now();
  const windowMs = settings.usageWindowSeconds * 1000;
  account.calls = account.calls.filter((at) => at > now - windowMs);
  const pct = (n: number) => Math.min(100, Math.round((n * 10_000) / settings.callsPerWindow) / 100);
  const oldest = account.calls[0] ?? now;
  const regainSeconds = Math.max(0, Math.ceil((oldest + windowMs - now) / 1000));
  if (pct(account.calls.length) >= 100) {
    const headers = usageHeaders(account, 100, access, regainSeconds);
    throw access === 'insights'
      ? graphError({ code: 80000, subcode: 2446079, message: '(#80000) There have been too many calls from this ad-account. Wait a bit and try again.', headers })
      : graphError({ code: 80004, subcode: 2446079, message: '(#80004) There have been too many calls to this ad-account. Wait a bit and try again.', headers });
  }
  account.calls.push(now);
  const used = pct(account.calls.length);
  void ctx.reply.headers(usageHeaders(account, used, access, used >= 100 ? regainSeconds : 0));
}

function usageHeaders(account: AdAccount, pct: number, access: AdsAccess, regain: number): Record<string, string> {
  const type = access === 'insights' ? 'ads_insights' : 'ads_management';
  return {
    'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: pct, reset_time_duration: regain, ads_api_access_tier: 'standard_access' }),
    'x-business-use-case-usage': JSON.stringify({
      [account.accountId]: [{ type, call_count: Math.round(pct), total_cputime: Math.round(pct / 2), total_time: Math.round(pct / 2), estimated_time_to_regain_access: Math.ceil(regain / 60), ads_api_access_tier: 'standard_access' }],
    }),
  };
}
