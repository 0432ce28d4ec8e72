// GET /debug_token?input_token=…&access_token=… (platforms.md §1.5 step 4): what a token is,
// whether it is valid, its scopes and, per scope, the Pages or Instagram accounts it covers.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import type { TokenRecord } from '../core/model.ts';
import { graphToken } from '../meta/auth.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { graphInput, str } from '../meta/params.ts';
import { whatsappTargets } from '../whatsapp/auth.ts';

const seconds = (ms: number | null) => (ms === null ? 0 : Math.floor(ms / 1000));

export function debugToken(ctx: RouteContext): unknown {
  const input = graphInput(ctx);
  graphToken(ctx, input, { platforms: ['facebook', 'instagram', 'threads'], allowAppToken: true });
  const value = str(input, 'input_token');
  if (!value) throw invalidParameter('(#100) The parameter input_token is required');
  const token = ctx.state.token(value);
  if (!token || token.type === 'refresh') {
    return { data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] } };
  }
  const data: Record<string, unknown> = {
    app_id: token.clientId,
    type: token.type === 'page' ? 'PAGE' : 'USER',
    application: ctx.state.findApp(token.platform, token.clientId)?.name ?? 'Sandbox app',
    data_access_expires_at: seconds(token.issuedAt) + 90 * 86_400,
    expires_at: seconds(token.expiresAt),
    is_valid: token.revoked === null && !ctx.state.isExpired(token),
    issued_at: token.longLived ? seconds(token.issuedAt) : undefined,
    scopes: token.scopes,
    granular_scopes: granularScopes(ctx.state, token),
    user_id: token.userId,
  };
  if (token.type === 'page') data.profile_id = token.subjectId;
  if (token.revoked) data.error = { code: 190, subcode: token.revoked === 'logout' ? 467 : token.revoked === 'deauthorized' ? 458 : 460, message: 'Error validating access token' };
  else if (ctx.state.isExpired(token)) data.error = { code: 190, subcode: 463, message: 'Error validating access token: Session has expired' };
  return { data };
}

/** pages_* scopes list the granted Pages; instagram_* list the Instagram accounts of those Pages. */
function granularScopes(state: SandboxState, token: TokenRecord) {
  const igIds = token.pageIds.flatMap((id) => {
    const ig = state.people.pages.get(id)?.instagramAccountId;
    return ig ? [ig] : [];
  });
  return token.scopes.map((scope) => {
    if (scope.startsWith('pages_') || scope === 'business_management') return { scope, target_ids: token.pageIds };
    if (scope.startsWith('instagram_')) return { scope, target_ids: igIds };
    // Embedded Signup: the WhatsApp scopes name the WABAs shared (platforms.md §7).
    if (scope.startsWith('whatsapp_business_')) return { scope, target_ids: whatsappTargets(state, token) };
    return { scope };
  });
}
