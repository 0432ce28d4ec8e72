// The API's view of an MCP access token: a caller acting for the organization the person
// approved, like a key of that organization without settings of its own (the service's default
// rate limit, its own budget counted under the connection's id; posts held for approval when the
// organization holds them). No cache: every request reads the token's row, so a revoked or
// expired token is refused at once, on every node.
import type { AppDeps } from '../../deps.ts';
import type { Authenticator } from '../../http/caller.ts';
import { verifyAccessToken } from './connections.ts';
import { ACCESS_PREFIX } from './secrets.ts';

export const isAccessToken = (token: string): boolean => token.startsWith(ACCESS_PREFIX);

export function mcpTokenAuthenticator(deps: Pick<AppDeps, 'store' | 'clock'>): Authenticator {
  return {
    async authenticate(token) {
      const holder = await verifyAccessToken(deps.store.db, deps.clock.now(), token);
      return holder ? { keyId: holder.grantId, organizationId: holder.organizationId, rateLimit: null, approvalRequired: holder.approvalRequired } : null;
    },
    close: () => Promise.resolve(),
  };
}
