// Connecting a Bluesky account with an app password (DESIGN "More platforms", Connect; bluesky.md
// §2): the service hosts the page (GET /connect/bluesky), resolves what the person typed (a
// handle at the entryway, or a DID as given) to the DID and its PDS, and calls createSession
// there. Only the two JWTs are kept, never the password. The refresher swaps the refresh JWT
// for a new pair (the old one is revoked); health reads getSession with the access JWT.
import { Buffer } from 'node:buffer';
import { ConnectRefusal, PlatformError } from '../errors.ts';
import { obj, str, text, type Json } from '../json.ts';
import type { AccountCredentials, ConnectOutcome, PageConnector, TokenRefresher, TokenSet } from '../types.ts';
import { metaString } from '../types.ts';
import { DID_PATTERN, HANDLE_PATTERN, pdsOf, resolveHandle } from './identity.ts';
import { isXrpcError, type Session, type Xrpc } from './xrpc.ts';

export const APP_PASSWORDS_URL = 'https://bsky.app/settings/app-passwords';
/** The scope of a session made with the account's main password (app passwords have their own). */
export const MAIN_PASSWORD_SCOPE = 'com.atproto.access';

export const MAIN_PASSWORD_REFUSAL =
  'That looks like your main password: create an app password in Bluesky (Settings → Privacy and security → App passwords) and enter it here instead.';
export const WRONG_PASSWORD_REFUSAL = 'The handle or app password is wrong: check both and try again.';

/** The claims of a JWT (its middle part), or {} when it is not one. */
export function jwtClaims(jwt: string): Json {
  const part = jwt.split('.')[1];
  if (!part) return {};
  try {
    return obj(JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
  } catch {
    return {};
  }
}

/** A JWT's `exp` (epoch seconds) in ms, or null. */
const expiryOf = (jwt: string): number | null => {
  const exp = jwtClaims(jwt).exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
};

/** A session answer (createSession, refreshSession) as the token set the service stores: expiries from the JWTs' `exp`. */
export function sessionTokens(body: Json): TokenSet {
  const accessToken = str(body.accessJwt);
  const refreshToken = str(body.refreshJwt);
  if (!accessToken || !refreshToken) throw new PlatformError('transient', 'Bluesky answered the session without its tokens', { platform: 'bluesky' });
  const scope = str(jwtClaims(accessToken).scope);
  return { accessToken, refreshToken, expiresAt: expiryOf(accessToken), refreshExpiresAt: expiryOf(refreshToken), scopes: scope ? [scope] : [] };
}

export const PAGE = {
  title: 'Connect a Bluesky account',
  intro: [
    'Sign in with your Bluesky handle (or DID) and an app password. The app password is used once to start a session and is never stored.',
    'Your main password is refused: create an app password in Bluesky under Settings → Privacy and security → App passwords.',
  ],
  fields: [
    { name: 'identifier', label: 'Handle or DID', autocomplete: 'username', placeholder: 'you.bsky.social', maxLength: 253 },
    { name: 'password', label: 'App password', secret: true, autocomplete: 'current-password', placeholder: 'xxxx-xxxx-xxxx-xxxx', maxLength: 128 },
  ],
  submit: 'Connect',
  help: { text: 'Create an app password in Bluesky', url: APP_PASSWORDS_URL },
} as const;

/** The DID of what the person typed (a handle, `@handle`, or a DID), or a refusal in their words. */
async function didOf(api: Xrpc, entryway: string, typed: string): Promise<string> {
  const identifier = typed.trim().replace(/^@/, '').toLowerCase();
  if (!identifier) throw new ConnectRefusal('Enter your Bluesky handle (like you.bsky.social) or your DID.');
  if (identifier.startsWith('did:')) {
    if (!DID_PATTERN.test(typed.trim())) throw new ConnectRefusal(`${typed.trim()} is not a DID Bluesky uses (did:plc:… or did:web:…).`);
    return typed.trim();
  }
  if (!HANDLE_PATTERN.test(identifier)) throw new ConnectRefusal(`${identifier} is not a Bluesky handle: a handle looks like you.bsky.social.`);
  const did = await resolveHandle(api, entryway, identifier);
  if (!did) throw new ConnectRefusal(`No Bluesky account has the handle ${identifier}.`);
  return did;
}

export function blueskyPageConnector(api: Xrpc, entryway: string): PageConnector {
  return {
    flavour: 'bluesky',
    page: PAGE,
    async complete({ fields, now }): Promise<ConnectOutcome> {
      const password = (fields.password ?? '').trim();
      const did = await didOf(api, entryway, fields.identifier ?? '');
      if (!password) throw new ConnectRefusal('Enter an app password.');
      const pds = await pdsOf(api, did);
      if (!pds) throw new ConnectRefusal(`The account ${did} has no Bluesky server (PDS) in its DID document.`);
      let body: Json;
      try {
        body = await api.call(pds, 'com.atproto.server.createSession', { method: 'POST', json: { identifier: did, password }, now });
      } catch (error) {
        if (isXrpcError(error, 'AuthFactorTokenRequired')) throw new ConnectRefusal(MAIN_PASSWORD_REFUSAL);
        if (isXrpcError(error, 'AuthenticationRequired')) throw new ConnectRefusal(WRONG_PASSWORD_REFUSAL);
        throw error;
      }
      const token = sessionTokens(body);
      if (token.scopes.includes(MAIN_PASSWORD_SCOPE)) {
        // The main password of an account without two-factor sign-in: end the session it made, and ask for an app password.
        await api.call(pds, 'com.atproto.server.deleteSession', { method: 'POST', bearer: token.refreshToken ?? '', now }).catch(() => undefined);
        throw new ConnectRefusal(MAIN_PASSWORD_REFUSAL);
      }
      if (str(body.did) !== did) throw new PlatformError('permanent', `Bluesky started a session for ${text(body.did)}, not ${did}`, { platform: 'bluesky' });
      const handle = str(body.handle);
      const profile = await api.call(pds, 'app.bsky.actor.getProfile', { query: { actor: did }, bearer: token.accessToken, now });
      return {
        kind: 'account',
        account: {
          profile: { platformUserId: did, username: handle, displayName: str(profile.displayName), avatarUrl: str(profile.avatar), metadata: { pds, handle } },
          token,
        },
      };
    },
  };
}

/** The PDS an account's calls go to (kept in metadata at connect). */
export function pdsOfAccount(metadata: Record<string, unknown>): string {
  const pds = metaString(metadata, 'pds');
  if (!pds) throw new PlatformError('auth', 'the account has no Bluesky server on record: connect it again', { platform: 'bluesky' });
  return pds;
}

/** Where a connected account's calls go: its PDS, its DID and its session's access JWT. */
export const sessionOf = (account: { platformUserId: string; accessToken: string; metadata: Record<string, unknown> }): Session => ({
  pds: pdsOfAccount(account.metadata),
  did: account.platformUserId,
  token: account.accessToken,
});

export function blueskyRefresher(api: Xrpc): TokenRefresher {
  return {
    async refresh(credentials: AccountCredentials, now: number) {
      try {
        return sessionTokens(await api.call(pdsOfAccount(credentials.metadata), 'com.atproto.server.refreshSession', { method: 'POST', bearer: credentials.refreshToken ?? '', now }));
      } catch (error) {
        // The session is gone (revoked app password, expired refresh JWT, a takedown): reconnect.
        if (error instanceof PlatformError && (isXrpcError(error, 'ExpiredToken', 'InvalidToken', 'AccountTakedown') || error.details.status === 401)) {
          throw new PlatformError('auth', error.message, error.details);
        }
        throw error;
      }
    },
  };
}

/** getSession with the access JWT: the session's handle (the current one) and whether it is active. */
export async function currentSession(api: Xrpc, credentials: AccountCredentials, now: number): Promise<{ handle: string | null; active: boolean }> {
  const body = await api.call(pdsOfAccount(credentials.metadata), 'com.atproto.server.getSession', { bearer: credentials.accessToken, now });
  if (str(body.did) !== credentials.platformUserId) throw new PlatformError('auth', 'the session belongs to another account', { platform: 'bluesky' });
  return { handle: str(body.handle), active: body.active !== false };
}
