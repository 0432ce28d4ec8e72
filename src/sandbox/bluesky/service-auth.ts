// Service tokens (bluesky.md §5): com.atproto.server.getServiceAuth at the PDS makes one for another
// service (`aud`, `lxm`, `exp` at most an hour ahead, 60 s by default); the video service checks
// its audience, method, expiry and signature, each refusal a 401 named as xrpc-server names it.
import type { RouteContext } from '../core/router.ts';
import { authRequired, invalidRequest } from './errors.ts';
import { readJwt, signJwt } from './jwt.ts';
import type { BlueskyAccount } from './people.ts';
import { bearer, blueskyAuth, seconds, takedown } from './sessions.ts';

/**
 * GET com.atproto.server.getServiceAuth?aud&lxm&exp: a short token for another service (the
 * video service). `exp` at most an hour ahead (60 s by default).
 */
export function getServiceAuth(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  const aud = ctx.query.aud;
  if (!aud) throw invalidRequest('Params must have the property "aud"');
  const now = ctx.state.clock.now();
  const exp = ctx.query.exp !== undefined ? Number(ctx.query.exp) : seconds(now) + 60;
  if (!Number.isInteger(exp)) throw invalidRequest('exp must be an integer');
  if (exp * 1000 <= now) throw invalidRequest('expiration is in past', 'BadExpiration');
  if (exp * 1000 - now > 3600_000) throw invalidRequest('cannot request a token with an expiration more than an hour in the future', 'BadExpiration');
  const payload: Record<string, unknown> = { iss: account.did, aud, exp, iat: seconds(now), jti: ctx.state.ids.opaque('bluesky-service', 32, 'hex') };
  if (ctx.query.lxm) payload.lxm = ctx.query.lxm;
  return { token: signJwt(ctx.state, { typ: 'JWT', alg: 'ES256K' }, payload) };
}

/** A service token for `aud` and `lxm` (video.bsky.app), or a 401 naming what is wrong. */
export function serviceAuth(ctx: RouteContext, aud: string, lxm: string): BlueskyAccount {
  const value = bearer(ctx);
  if (!value) throw authRequired('Authentication Required', 'AuthMissing');
  const payload = readJwt(ctx.state, value);
  if (!payload || typeof payload.iss !== 'string') throw authRequired('could not verify jwt signature', 'BadJwtSignature');
  if (typeof payload.exp !== 'number' || payload.exp * 1000 <= ctx.state.clock.now()) throw authRequired('jwt expired', 'JwtExpired');
  if (payload.aud !== aud) throw authRequired(`jwt audience does not match service did`, 'BadJwtAudience');
  if (payload.lxm !== lxm) throw authRequired(payload.lxm === undefined ? 'missing jwt lexicon method ("lxm"). must match: ' + lxm : `bad jwt lexicon method ("lxm"). must match: ${lxm}`, 'BadJwtLexiconMethod');
  const account = ctx.state.people.blueskyAccounts.get(payload.iss);
  if (!account) throw authRequired('could not resolve iss did', 'BadJwt');
  if (account.takenDown) throw takedown();
  return account;
}
