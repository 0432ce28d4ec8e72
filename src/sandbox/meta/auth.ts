// Token checks on every Graph call (platforms.md §1.3 authentication subcodes): missing token,
// unknown token, revoked (467 logout, 458 app removed, 460 password changed), expired (463),
// and permissions not granted (code 200 or 10).
import type { OAuthPlatform, TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { graphError, missingPermission, tokenError } from './graph-error.ts';
import { accessToken, type GraphInput } from './params.ts';

export interface GraphAuthOptions {
  /** The token families this host accepts (a Threads token is no use on graph.facebook.com). */
  platforms: OAuthPlatform[];
  /** Whether an app token (`{app-id}|{app-secret}`) is acceptable. */
  allowAppToken?: boolean;
}

export function graphToken(ctx: RouteContext, input: GraphInput, options: GraphAuthOptions): TokenRecord {
  const value = accessToken(ctx, input);
  if (!value) {
    throw ctx.path.startsWith('/me')
      ? graphError({ code: 2500, message: 'An active access token must be used to query information about the current user.' })
      : graphError({ code: 104, message: 'An access token is required to request this resource.' });
  }
  if (value.includes('|')) {
    const app = appToken(ctx, value, options.platforms);
    if (app && options.allowAppToken) return app;
    if (app) throw graphError({ code: 200, message: '(#200) This method must be called with a user or Page access token' });
    throw tokenError('Invalid OAuth access token - Cannot parse access token');
  }
  const token = ctx.state.token(value);
  if (!token || token.type === 'refresh' || !options.platforms.includes(token.platform)) {
    throw tokenError('Invalid OAuth access token - Cannot parse access token');
  }
  checkLive(ctx, token);
  return token;
}

/** Throws the 190 a revoked or expired token gets. */
export function checkLive(ctx: RouteContext, token: TokenRecord): void {
  switch (token.revoked) {
    case 'logout':
      throw tokenError('Error validating access token: The session is invalid because the user logged out.', 467);
    case 'deauthorized':
      throw tokenError(`Error validating access token: The user has not authorized application ${token.clientId}.`, 458);
    case 'password_changed':
      throw tokenError(
        'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
        460,
      );
    case null:
      break;
  }
  if (ctx.state.isExpired(token) && token.expiresAt !== null) {
    throw tokenError(
      `Error validating access token: Session has expired on ${fbDate(token.expiresAt)}. The current time is ${fbDate(ctx.state.clock.now())}.`,
      463,
    );
  }
}

/** `{app-id}|{app-secret}`: valid when the secret is the app's (or binds it, for an unconfigured app). */
export function appToken(ctx: RouteContext, value: string, platforms: OAuthPlatform[]): TokenRecord | null {
  const [clientId = '', secret = ''] = value.split('|');
  for (const platform of platforms) {
    const app = ctx.state.findApp(platform, clientId);
    if (app && ctx.state.checkSecret(app, secret)) {
      return {
        value,
        platform,
        type: 'app',
        clientId,
        subjectId: clientId,
        userId: clientId,
        scopes: [],
        declined: [],
        pageIds: [],
        issuedAt: 0,
        expiresAt: null,
        longLived: true,
        revoked: null,
        pairedWith: null,
      };
    }
  }
  return null;
}

/** Every permission listed must have been granted; answers the platform's permission error. */
export function requireScopes(token: TokenRecord, scopes: string[], code: 10 | 200 = 200): void {
  for (const scope of scopes) if (!token.scopes.includes(scope)) throw missingPermission(scope, code);
}

/** Graph's date wording: "Tuesday, 07-Jan-25 10:00:00 PST" (UTC here). */
function fbDate(ms: number): string {
  const d = new Date(ms);
  const day = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  const month = d.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' });
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${pad(d.getUTCDate())}-${month}-${String(d.getUTCFullYear()).slice(2)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}
