// The phone number node (platforms.md §7.3): GET with fields, POST `{pin}` (two-step PIN),
// `/register` and `/deregister`, and the `/messages` and `/media` edges. A number that is not
// registered answers 133010 to sends; registering with a PIN other than the two-step PIN
// already set is 133005.
import type { RouteContext } from '../core/router.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { wabaToken } from './auth.ts';
import { whatsappError } from './errors.ts';
import { uploadMedia } from './media.ts';
import { sendMessage } from './messages.ts';
import type { PhoneNumber, Waba } from './store.ts';

export const PHONE_DEFAULT_FIELDS = ['verified_name', 'code_verification_status', 'display_phone_number', 'quality_rating', 'platform_type', 'throughput', 'id'];

export function phoneFields(phone: PhoneNumber, waba: Waba) {
  const status = () => {
    if (waba.restriction === 'restricted') return 'RESTRICTED';
    if (waba.restriction === 'locked') return 'DISCONNECTED';
    if (phone.qualityRating === 'RED') return 'FLAGGED';
    return phone.registered ? 'CONNECTED' : 'PENDING';
  };
  return {
    id: () => phone.id,
    display_phone_number: () => phone.displayPhoneNumber,
    verified_name: () => phone.verifiedName,
    quality_rating: () => phone.qualityRating,
    messaging_limit_tier: () => phone.messagingLimitTier,
    code_verification_status: () => phone.codeVerificationStatus,
    name_status: () => phone.nameStatus,
    platform_type: () => (phone.registered ? 'CLOUD_API' : 'NOT_APPLICABLE'),
    throughput: () => ({ level: 'STANDARD' }),
    status,
    account_mode: () => (phone.testNumber ? 'SANDBOX' : 'LIVE'),
    is_official_business_account: () => false,
    is_pin_enabled: () => phone.pin !== null,
    whatsapp_business_account: () => ({ id: waba.id }),
  };
}

function context(ctx: RouteContext, phone: PhoneNumber, method: string): Waba {
  const waba = ctx.state.whatsapp.wabas.get(phone.wabaId);
  if (!waba) throw unsupportedRequest(method, phone.id);
  return waba;
}

const checkPin = (input: GraphInput): string => {
  const pin = str(input, 'pin');
  if (!pin) throw whatsappError(131008, 'The parameter pin is required.');
  if (!/^\d{6}$/.test(pin)) throw whatsappError(100, 'Param pin must be a 6-digit number.');
  return pin;
};

export const phoneNumberNode = defineNode<PhoneNumber>({
  type: 'WhatsAppBusinessPhoneNumber',
  find: (state, id) => state.whatsapp.phoneNumbers.get(id),
  get({ ctx, input, node }) {
    const waba = context(ctx, node, 'GET');
    wabaToken(ctx, input, waba, 'whatsapp_business_management', node.id);
    return selectFields('WhatsAppBusinessPhoneNumber', phoneFields(node, waba), parseFields(str(input, 'fields')), PHONE_DEFAULT_FIELDS);
  },
  /** Sets (or changes) the two-step verification PIN. */
  post({ ctx, input, node }) {
    wabaToken(ctx, input, context(ctx, node, 'POST'), 'whatsapp_business_management', node.id);
    node.pin = checkPin(input);
    return { success: true };
  },
  edges: {
    register: {
      post({ ctx, input, node }) {
        wabaToken(ctx, input, context(ctx, node, 'POST'), 'whatsapp_business_management', `${node.id}/register`);
        if (str(input, 'messaging_product') !== 'whatsapp') throw whatsappError(100, 'The parameter messaging_product is required and must be whatsapp.');
        const pin = checkPin(input);
        if (node.pin !== null && node.pin !== pin) throw whatsappError(133005, 'The two-step verification PIN is not the one set for this number.');
        node.pin = pin;
        node.registered = true;
        return { success: true };
      },
    },
    deregister: {
      post({ ctx, input, node }) {
        wabaToken(ctx, input, context(ctx, node, 'POST'), 'whatsapp_business_management', `${node.id}/deregister`);
        node.registered = false;
        return { success: true };
      },
    },
    messages: {
      post: ({ ctx, input, node }) => sendMessage(ctx, input, node),
    },
    media: {
      post: ({ ctx, input, node }) => uploadMedia(ctx, input, node, context(ctx, node, 'POST')),
    },
  },
});
