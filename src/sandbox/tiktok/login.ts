// TikTok Login Kit v2 (platforms.md §5.1): the authorize page at
// www.tiktok.com/v2/auth/authorize/, the token endpoint open.tiktokapis.com/v2/oauth/token/
// (authorization_code and refresh_token grants, rotating refresh tokens), and revoke.
import { createHash } from 'node:crypto';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import type { AppRecord, TokenRecord } from '../core/model.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { oauthError } from './envelope.ts';

export const tiktokConsent: ConsentFlow = {
  platform: 'tiktok',
  title: 'TikTok',
  scopesSelectable: true,
  subjects: (state) => [...state.people.tiktokCreators.values()].map((c) => ({ id: c.id, label: `@${c.username} (${c.displayName})` })),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_key) return sendErrorPage(ctx, 'Something went wrong', 'client_key');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, 'Something went wrong', 'redirect_uri');
    const app = ctx.state.app('tiktok', q.client_key);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return sendErrorPage(ctx, 'Something went wrong', 'redirect_uri');
    const scopes = parseScopes(q.scope);
    if (q.response_type !== 'code') return redirect(redirectUri, 'unsupported_response_type', 'response_type must be code', q.state);
    if (!scopes.length) return redirect(redirectUri, 'invalid_scope', 'scope is required', q.state);
    return { platform: 'tiktok', clientId: q.client_key, redirectUri, state: q.state ?? null, scopes, permanent: true, codeChallenge: q.code_challenge ?? null };

    function redirect(uri: string, error: string, description: string, state: string | undefined) {
      void ctx.reply.redirect(redirectTo(uri, { error, error_description: description, state: state ?? null }), 302);
      return null;
    }
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { code: code.code, scopes: code.scopes.join(','), state: request.state }),
  denyRedirect: (request) => redirectTo(request.redirectUri, { error: 'access_denied', error_description: 'The user denied the authorization request.', state: request.state }),
  codeTtlSeconds: (state) => state.settings.tokens.codeTikTok,
  // TikTok codes carry `*` and `!`, which arrive URL-encoded (platforms.md §12).
  codeValue: (state) => {
    const raw = state.ids.opaque('tiktok-code', 60);
    return `${raw.slice(0, 20)}*${raw.slice(20, 40)}!${raw.slice(40)}*3!5`;
  },
};

function form(ctx: RouteContext): Record<string, string> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') out[key] = value;
  return out;
}

function client(ctx: RouteContext, input: Record<string, string>): AppRecord {
  const app = input.client_key ? ctx.state.findApp('tiktok', input.client_key) : undefined;
  if (!app || !ctx.state.checkSecret(app, input.client_secret ?? '')) throw oauthError('invalid_client', 'Client key or secret is invalid.');
  return app;
}

/** POST /v2/oauth/token/ (form-urlencoded). */
export function tiktokToken(ctx: RouteContext): unknown {
  const input = form(ctx);
  const app = client(ctx, input);
  switch (input.grant_type) {
    case 'authorization_code':
      return fromCode(ctx.state, app, input);
    case 'refresh_token':
      return fromRefresh(ctx.state, app, input);
    default:
      throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }
}

function fromCode(state: SandboxState, app: AppRecord, input: Record<string, string>) {
  const code = input.code ? state.codes.get(input.code) : undefined;
  if (!code || code.platform !== 'tiktok' || code.clientId !== app.clientId) throw oauthError('invalid_grant', 'Authorization code is invalid.');
  if (code.used) throw oauthError('invalid_grant', 'Authorization code has been used.');
  if (code.expiresAt <= state.clock.now()) throw oauthError('invalid_grant', 'Authorization code is expired.');
  if (code.redirectUri !== input.redirect_uri) throw oauthError('invalid_grant', 'redirect_uri does not match the authorization request.');
  if (code.codeChallenge && !verifierMatches(code.codeChallenge, input.code_verifier ?? '')) throw oauthError('invalid_grant', 'Code verifier or code challenge is invalid.');
  code.used = true;
  return issuePair(state, app.clientId, code.subjectId, code.scopes);
}

/** PKCE S256; TikTok's desktop docs use the hex digest, RFC 7636 base64url: both are accepted. */
function verifierMatches(challenge: string, verifier: string): boolean {
  const digest = createHash('sha256').update(verifier).digest();
  return challenge === digest.toString('hex') || challenge === digest.toString('base64url');
}

function fromRefresh(state: SandboxState, app: AppRecord, input: Record<string, string>) {
  const refresh = input.refresh_token ? state.token(input.refresh_token) : undefined;
  if (!refresh || refresh.platform !== 'tiktok' || refresh.type !== 'refresh' || refresh.clientId !== app.clientId) {
    throw oauthError('invalid_grant', 'Refresh token is invalid or expired.');
  }
  if (refresh.revoked || state.isExpired(refresh)) throw oauthError('invalid_grant', 'Refresh token is invalid or expired.');
  // Rotation (§5.1): the used refresh token stops working; the new one must be stored.
  refresh.revoked = 'logout';
  return issuePair(state, app.clientId, refresh.subjectId, refresh.scopes);
}

function issuePair(state: SandboxState, clientId: string, creatorId: string, scopes: string[]) {
  const creator = state.people.tiktokCreators.get(creatorId);
  const base = { platform: 'tiktok' as const, clientId, subjectId: creatorId, userId: creatorId, scopes, declined: [], pageIds: [], longLived: false };
  const refreshValue = `rft.${state.ids.opaque('tiktok-refresh', 60)}`;
  const access = state.issueToken({ ...base, value: `act.${state.ids.opaque('tiktok-access', 60)}`, type: 'user', ttlSeconds: state.settings.tokens.tiktokAccess, pairedWith: refreshValue });
  state.issueToken({ ...base, value: refreshValue, type: 'refresh', ttlSeconds: state.settings.tokens.tiktokRefresh, pairedWith: access.value });
  return {
    access_token: access.value,
    expires_in: state.settings.tokens.tiktokAccess,
    open_id: creator?.openId ?? '',
    refresh_expires_in: state.settings.tokens.tiktokRefresh,
    refresh_token: refreshValue,
    scope: scopes.join(','),
    token_type: 'Bearer',
  };
}

/** POST /v2/oauth/revoke/: the access token and its refresh token stop working. */
export function tiktokRevoke(ctx: RouteContext): unknown {
  const input = form(ctx);
  const app = client(ctx, input);
  const token: TokenRecord | undefined = input.token ? ctx.state.token(input.token) : undefined;
  if (token && token.platform === 'tiktok' && token.clientId === app.clientId) ctx.state.revokeToken(token.value);
  return {};
}
