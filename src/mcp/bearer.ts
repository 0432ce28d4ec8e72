// Who may use /mcp, by the bearer token they send. Today that is an API key; the MCP
// authorization flow will add a second kind (access tokens a remote client gets through the
// dashboard), which is one more BearerKind in the list and, in WWW-Authenticate, the address of
// its protected-resource metadata.
import type { Authenticator } from '../http/caller.ts';

export interface McpPrincipal {
  organizationId: string;
  /** The bearer each tool call carries to the API, whose own auth hook checks it again. */
  credential: string;
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
      return caller ? { organizationId: caller.organizationId, credential: token } : null;
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

/** The challenge of a 401 (RFC 6750); `invalid` when a token was sent but refused. */
export function wwwAuthenticate(invalid: boolean): string {
  return invalid ? 'Bearer realm="socialapi", error="invalid_token", error_description="unknown or revoked API key"' : 'Bearer realm="socialapi"';
}
