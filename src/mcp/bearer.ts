// Who may use /mcp, by the bearer token they send: an API key, or an access token a remote
// client got through the MCP authorization flow (src/mcp/oauth/). A 401 names, in
// WWW-Authenticate, the protected-resource metadata where a client discovers that flow.
import type { Authenticator, Caller } from '../http/caller.ts';

export interface McpPrincipal {
  organizationId: string;
  /** The bearer each tool call carries to the API, whose own auth hook checks it again. */
  credential: string;
  /** Whose rate limit the messages no API route runs for (initialize, tools/list …) spend. */
  caller: Caller;
}

export interface BearerKind {
  /** Whether the token has this kind's shape (a prefix), so only one kind looks it up. */
  accepts(token: string): boolean;
  verify(token: string): Promise<McpPrincipal | null>;
}

export function apiKeyBearer(authenticator: Authenticator): BearerKind {
  return {
    accepts: (token) => token.startsWith('sk_'),
    async verify(token) {
      const caller = await authenticator.authenticate(token);
      return caller ? { organizationId: caller.organizationId, credential: token, caller } : null;
    },
  };
}

/** Access tokens of the OAuth flow; the credential each tool call carries is the token itself. */
export function accessTokenBearer(tokens: Authenticator, accepts: (token: string) => boolean): BearerKind {
  return {
    accepts,
    async verify(token) {
      const caller = await tokens.authenticate(token);
      return caller ? { organizationId: caller.organizationId, credential: token, caller } : null;
    },
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The principal behind an Authorization header, or null (missing, malformed, unknown or revoked). */
export async function verifyBearer(kinds: readonly BearerKind[], authorization: string | undefined): Promise<McpPrincipal | null> {
  const token = BEARER.exec(authorization ?? '')?.[1];
  if (!token) return null;
  const kind = kinds.find((k) => k.accepts(token));
  return kind ? kind.verify(token) : null;
}

/**
 * The challenge of a 401 (RFC 6750, and RFC 9728 section 5.1 for resource_metadata, which the
 * MCP authorization specification asks for); `invalid` when a token was sent but refused.
 */
export function wwwAuthenticate(resourceMetadataUrl: string, invalid: boolean): string {
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl}"`;
  return invalid ? `${challenge}, error="invalid_token", error_description="unknown, expired or revoked token"` : challenge;
}
