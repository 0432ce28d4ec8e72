// Sessions with an app password (bluesky.md §2): createSession by handle, DID or email; JWT-shaped
// tokens (jwt.ts) of scope com.atproto.appPass (com.atproto.access for the main password of an
// account without email 2FA, which the PDS accepts): access 2 hours, refresh 90 days, both
// settings. A refresh hands out a new pair and shortens the old refresh token to a grace period
// (2 hours in the PDS's account manager, `bluesky.refreshGraceSeconds`), during which presenting
// it again hands out the same successor; past it, or after deleteSession or the app password's
// revocation, 400 ExpiredToken "Token has been revoked". Access tokens: expired → 400
// ExpiredToken, not ours / malformed / a refresh token → 400 InvalidToken, none → 401 AuthMissing;
// a taken-down account → 401 AccountTakedown.
import { obj } from '../core/control.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { authRequired, invalidRequest } from './errors.ts';
import { charge, requestPolicies, sessionPolicies } from './limits.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import type { AccessGrant, RefreshGrant } from './store.ts';
import { readJwt, signJwt } from './jwt.ts';

export const PDS_HOST = 'bsky.social';
export const PDS_DID = `did:web:${PDS_HOST}`;
export const VIDEO_DID = 'did:web:video.bsky.app';
const APP_PASS_SCOPE = 'com.atproto.appPass';
/** The scope of a session made with the account's main password. */
const ACCESS_SCOPE = 'com.atproto.access';
const REFRESH_SCOPE = 'com.atproto.refresh';

export function bearer(ctx: RouteContext): string | null {
  return /^Bearer\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '')?.[1]?.trim() ?? null;
}

export const seconds = (ms: number): number => Math.floor(ms / 1000);

interface Pair {
  accessJwt: string;
  refreshJwt: string;
  grant: RefreshGrant;
}

function issuePair(ctx: RouteContext, account: BlueskyAccount, appPassword: string, refresh?: RefreshGrant): Pair {
  const { state } = ctx;
  const now = state.clock.now();
  const tokens = state.settings.tokens;
  const grant: RefreshGrant = refresh ?? {
    jti: state.ids.opaque('bluesky-refresh', 43),
    did: account.did,
    appPassword,
    expiresAt: now + tokens.blueskyRefresh * 1000,
    nextJti: null,
    revoked: false,
  };
  state.bluesky.refreshGrants.set(grant.jti, grant);
  const access: AccessGrant = { jti: state.ids.opaque('bluesky-access', 43), did: account.did, refreshJti: grant.jti, expiresAt: now + tokens.blueskyAccess * 1000 };
  state.bluesky.accessGrants.set(access.jti, access);
  const accessJwt = signJwt(state, { typ: 'at+jwt', alg: 'HS256' }, { scope: appPassword ? APP_PASS_SCOPE : ACCESS_SCOPE, sub: account.did, aud: PDS_DID, jti: access.jti, iat: seconds(now), exp: seconds(access.expiresAt) });
  const refreshJwt = signJwt(state, { typ: 'refresh+jwt', alg: 'HS256' }, { scope: REFRESH_SCOPE, sub: account.did, aud: PDS_DID, jti: grant.jti, iat: seconds(now), exp: seconds(grant.expiresAt) });
  return { accessJwt, refreshJwt, grant };
}

function sessionBody(account: BlueskyAccount, { accessJwt, refreshJwt }: Pair) {
  return { accessJwt, refreshJwt, handle: account.handle, did: account.did, didDoc: didDocument(account), email: account.email, emailConfirmed: account.emailConfirmed, emailAuthFactor: account.emailAuthFactor, active: true };
}

/** The DID document plc.directory serves: the handle and the PDS's endpoint. */
export function didDocument(account: BlueskyAccount) {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: account.did,
    alsoKnownAs: [`at://${account.handle}`],
    verificationMethod: [],
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: `https://${PDS_HOST}` }],
  };
}

export const takedown = () => authRequired('Account has been taken down', 'AccountTakedown');

/** POST com.atproto.server.createSession. */
export function createSession(ctx: RouteContext): unknown {
  charge(ctx, requestPolicies(ctx), 'client');
  const body = obj(ctx.body);
  if (typeof body.identifier !== 'string') throw invalidRequest('Input must have the property "identifier"');
  if (typeof body.password !== 'string') throw invalidRequest('Input must have the property "password"');
  charge(ctx, sessionPolicies(ctx), body.identifier.toLowerCase());
  const account = findAccount(ctx.state, body.identifier);
  if (!account) throw authRequired('Invalid identifier or password');
  const appPassword = account.appPasswords.find((p) => !p.revoked && p.password === body.password);
  if (!appPassword) {
    if (body.password !== account.password) throw authRequired('Invalid identifier or password');
    // The main password of an account with email 2FA: a code was mailed, sign in again with it.
    if (account.emailAuthFactor && body.authFactorToken === undefined) throw authRequired('A sign in code has been sent to your email address', 'AuthFactorTokenRequired');
    if (account.emailAuthFactor) throw authRequired('Token is invalid', 'InvalidToken');
  }
  if (account.takenDown) throw takedown();
  return sessionBody(account, issuePair(ctx, account, appPassword?.name ?? ''));
}

/** Reads the Bearer token as an access token (or a refresh token, for refreshSession). */
function verify(ctx: RouteContext, kind: 'access' | 'refresh'): { account: BlueskyAccount; payload: Record<string, unknown> } {
  const value = bearer(ctx);
  if (!value) throw authRequired('Authentication Required', 'AuthMissing');
  const payload = readJwt(ctx.state, value);
  if (!payload) throw invalidRequest('Token could not be verified', 'InvalidToken');
  const scope = payload.scope;
  if (kind === 'access' ? scope !== APP_PASS_SCOPE && scope !== ACCESS_SCOPE : scope !== REFRESH_SCOPE) throw invalidRequest('Bad token scope', 'InvalidToken');
  const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  if (exp <= ctx.state.clock.now()) throw invalidRequest('Token has expired', 'ExpiredToken');
  const account = ctx.state.people.blueskyAccounts.get(String(payload.sub));
  if (!account) throw invalidRequest('Token could not be verified', 'InvalidToken');
  if (account.takenDown) throw takedown();
  return { account, payload };
}

export interface BlueskyCaller {
  account: BlueskyAccount;
  access: AccessGrant;
}

/**
 * Every authenticated PDS call: the request window, then the access token. The PDS's access
 * tokens are stateless until they expire; the sandbox also ends those of a session that was
 * deleted or whose app password was revoked (400 InvalidToken), so a test need not wait 2 hours.
 */
export function blueskyAuth(ctx: RouteContext): BlueskyCaller {
  charge(ctx, requestPolicies(ctx), 'client');
  const { account, payload } = verify(ctx, 'access');
  const access = ctx.state.bluesky.accessGrants.get(String(payload.jti));
  const grant = access ? ctx.state.bluesky.refreshGrants.get(access.refreshJti) : undefined;
  if (!access || !grant || grant.revoked) throw invalidRequest('Token has been revoked', 'InvalidToken');
  return { account, access };
}

/** POST com.atproto.server.refreshSession (Bearer refreshJwt). */
export function refreshSession(ctx: RouteContext): unknown {
  charge(ctx, requestPolicies(ctx), 'client');
  const { account, payload } = verify(ctx, 'refresh');
  const { state } = ctx;
  const grant = state.bluesky.refreshGrants.get(String(payload.jti));
  const now = state.clock.now();
  if (!grant || grant.revoked || grant.expiresAt <= now) throw invalidRequest('Token has been revoked', 'ExpiredToken');
  // Within the grace period a second refresh with the same token gets the same successor.
  const next = grant.nextJti ? state.bluesky.refreshGrants.get(grant.nextJti) : undefined;
  if (next && !next.revoked) return sessionBody(account, issuePair(ctx, account, grant.appPassword, next));
  const pair = issuePair(ctx, account, grant.appPassword);
  grant.nextJti = pair.grant.jti;
  grant.expiresAt = Math.min(grant.expiresAt, now + state.settings.bluesky.refreshGraceSeconds * 1000);
  return sessionBody(account, pair);
}

/** GET com.atproto.server.getSession. */
export function getSession(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  return { handle: account.handle, did: account.did, email: account.email, emailConfirmed: account.emailConfirmed, emailAuthFactor: account.emailAuthFactor, didDoc: didDocument(account), active: true };
}

/** POST com.atproto.server.deleteSession (Bearer refreshJwt): the session ends. */
export function deleteSession(ctx: RouteContext): unknown {
  charge(ctx, requestPolicies(ctx), 'client');
  const { payload } = verify(ctx, 'refresh');
  const grant = ctx.state.bluesky.refreshGrants.get(String(payload.jti));
  if (grant) grant.revoked = true;
  return ctx.reply.status(200).send();
}

/** Revokes an app password (control API): it signs in no more and its sessions end. */
export function revokeAppPassword(state: SandboxState, account: BlueskyAccount, name?: string): number {
  let ended = 0;
  for (const password of account.appPasswords) {
    if (name !== undefined && password.name !== name) continue;
    password.revoked = true;
    for (const grant of state.bluesky.refreshGrants.values()) {
      if (grant.did === account.did && grant.appPassword === password.name && !grant.revoked) {
        grant.revoked = true;
        ended++;
      }
    }
  }
  return ended;
}
