// The WhatsApp Business Account node (platforms.md §7.3–7.5): GET with fields, its
// `phone_numbers`, `subscribed_apps` (§7.4: the app of the calling token subscribes the WABA to
// its webhooks, optionally with an `override_callback_uri` that is verified like any callback)
// and `message_templates` (templates.ts).
import type { RouteContext } from '../core/router.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { verifyCallback } from '../webhooks/deliver.ts';
import { wabaToken } from './auth.ts';
import { PHONE_DEFAULT_FIELDS, phoneFields } from './phone-numbers.ts';
import type { Waba } from './store.ts';
import { createTemplate, deleteTemplates, listTemplates } from './templates.ts';

function wabaFields(waba: Waba) {
  return {
    id: () => waba.id,
    name: () => waba.name,
    currency: () => waba.currency,
    timezone_id: () => waba.timezoneId,
    message_template_namespace: () => waba.namespace,
    account_review_status: () => 'APPROVED',
    business_verification_status: () => 'verified',
    ownership_type: () => 'CLIENT_OWNED',
    health_status: () => ({ can_send_message: waba.restriction === null ? 'AVAILABLE' : 'BLOCKED' }),
  };
}

async function subscribe(ctx: RouteContext, input: GraphInput, waba: Waba): Promise<unknown> {
  const token = wabaToken(ctx, input, waba, 'whatsapp_business_management', `${waba.id}/subscribed_apps`);
  const override = str(input, 'override_callback_uri') ?? null;
  const verifyToken = str(input, 'verify_token') ?? null;
  if (override) {
    if (!verifyToken) throw invalidParameter('(#100) verify_token is required with override_callback_uri');
    const handshake = await ctx.state.track(verifyCallback(override, verifyToken));
    if (!handshake.ok) throw graphError({ code: 2200, message: `(#2200) callback verification failed: ${handshake.reason}` });
  }
  waba.subscriptions = waba.subscriptions.filter((s) => s.appId !== token.clientId);
  waba.subscriptions.push({ appId: token.clientId, overrideCallbackUri: override, verifyToken });
  return { success: true };
}

export const wabaNode = defineNode<Waba>({
  type: 'WhatsAppBusinessAccount',
  find: (state, id) => state.whatsapp.wabas.get(id),
  get({ ctx, input, node }) {
    wabaToken(ctx, input, node, 'whatsapp_business_management', node.id);
    return selectFields('WhatsAppBusinessAccount', wabaFields(node), parseFields(str(input, 'fields')), ['id', 'name']);
  },
  edges: {
    phone_numbers: {
      get({ ctx, input, node }) {
        wabaToken(ctx, input, node, 'whatsapp_business_management', `${node.id}/phone_numbers`);
        const fields = parseFields(str(input, 'fields'));
        const rows = node.phoneNumberIds.flatMap((id) => {
          const phone = ctx.state.whatsapp.phoneNumbers.get(id);
          return phone ? [selectFields('WhatsAppBusinessPhoneNumber', phoneFields(phone, node), fields, PHONE_DEFAULT_FIELDS)] : [];
        });
        return pageOf(ctx, input, rows);
      },
    },
    subscribed_apps: {
      post: ({ ctx, input, node }) => subscribe(ctx, input, node),
      get({ ctx, input, node }) {
        wabaToken(ctx, input, node, 'whatsapp_business_management', `${node.id}/subscribed_apps`);
        const data = node.subscriptions.map((s) => {
          const app = ctx.state.findApp('facebook', s.appId);
          const row: Record<string, unknown> = { whatsapp_business_api_data: { id: s.appId, link: `https://www.facebook.com/games/?app_id=${s.appId}`, name: app?.name ?? 'Sandbox app' } };
          if (s.overrideCallbackUri) row.override_callback_uri = s.overrideCallbackUri;
          return row;
        });
        return { data };
      },
      delete({ ctx, input, node }) {
        const token = wabaToken(ctx, input, node, 'whatsapp_business_management', `${node.id}/subscribed_apps`);
        node.subscriptions = node.subscriptions.filter((s) => s.appId !== token.clientId);
        return { success: true };
      },
    },
    message_templates: {
      post: ({ ctx, input, node }) => createTemplate(ctx, input, node),
      get: ({ ctx, input, node }) => listTemplates(ctx, input, node),
      delete: ({ ctx, input, node }) => deleteTemplates(ctx, input, node),
    },
  },
});
