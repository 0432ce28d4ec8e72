// Who may touch a WhatsApp Business Account (platforms.md §7 "Auth"): a Facebook user token
// (Embedded Signup, or any Facebook Login with the WhatsApp permissions) of the WABA's owner,
// holding `whatsapp_business_management` (numbers, templates, webhooks) or
// `whatsapp_business_messaging` (messages, media). Other people's WABAs do not exist for the
// token (100/33), as Graph answers for objects it will not show.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { graphToken } from '../meta/auth.ts';
import { graphError, unsupportedRequest } from '../meta/graph-error.ts';
import type { GraphInput } from '../meta/params.ts';
import type { Waba } from './store.ts';

export type WhatsAppScope = 'whatsapp_business_management' | 'whatsapp_business_messaging';

export function wabaToken(ctx: RouteContext, input: GraphInput, waba: Waba, scope: WhatsAppScope, objectId: string): TokenRecord {
  const token = graphToken(ctx, input, { platforms: ['facebook'] });
  if (token.type !== 'user' || token.userId !== waba.ownerUserId) throw unsupportedRequest(ctx.method, objectId);
  if (!token.scopes.includes(scope)) {
    throw graphError({
      code: 200,
      message:
        scope === 'whatsapp_business_messaging'
          ? '(#200) You do not have the necessary permissions required to send messages on behalf of this WhatsApp Business Account'
          : '(#200) You do not have the necessary permissions required to manage this WhatsApp Business Account',
      status: 403,
    });
  }
  return token;
}

/** The WABAs a token's WhatsApp granular scopes name (debug_token `target_ids`, Embedded Signup). */
export function whatsappTargets(state: SandboxState, token: TokenRecord): string[] {
  return state.whatsapp.wabasOf(token.userId).map((w) => w.id);
}
