// POST /{phone-number-id}/messages (platforms.md §7.1): sends, mark-as-read and the typing
// indicator. Synchronous refusals (§7.6): unregistered number 133010, locked account 131031,
// restricted account 368 for business-initiated templates, recipient = sender 131021, test
// number recipient not allowed 131030, content errors 131008/131009, template errors 132xxx,
// free-form outside the 24-hour window 131047 (or asynchronously, `windowErrorMode: webhook`).
// Accepted sends answer the contacts/messages shape and move on in statuses.ts.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { fetchMedia } from '../media/fetch.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { wabaToken } from './auth.ts';
import { whatsappError } from './errors.ts';
import { checkContent, MESSAGE_TYPES, type MediaSource } from './message-content.ts';
import { mediaTypeProblem } from './media-rules.ts';
import { progress, type Failure } from './statuses.ts';
import { digitsOf, type PhoneNumber, type WhatsAppMessage } from './store.ts';
import { checkTemplateSend } from './template-send.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);

const WINDOW_DETAILS = 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';

export function wamid(state: SandboxState): string {
  return `wamid.HBgL${state.ids.opaque('wamid', 52)}`;
}

export function sendMessage(ctx: RouteContext, input: GraphInput, phone: PhoneNumber): unknown {
  const { state } = ctx;
  const store = state.whatsapp;
  const waba = store.wabas.get(phone.wabaId);
  if (!waba) throw whatsappError(33, 'The phone number no longer belongs to a WhatsApp Business Account.');
  wabaToken(ctx, input, waba, 'whatsapp_business_messaging', `${phone.id}/messages`);
  if (str(input, 'messaging_product') !== 'whatsapp') throw whatsappError(100, 'The parameter messaging_product is required and must be whatsapp.');
  if (!phone.registered) throw whatsappError(133010, 'Phone number is not registered on the Cloud API. Register it with POST /{phone-number-id}/register.');
  if (waba.restriction === 'locked') throw whatsappError(131031, 'The WhatsApp Business Account is locked and cannot send messages.');
  if (str(input, 'status') === 'read') return markRead(state, input, phone);

  const to = str(input, 'to');
  if (!to) throw whatsappError(131008, 'The parameter to is required.');
  const recipientType = str(input, 'recipient_type') ?? 'individual';
  if (recipientType !== 'individual') throw whatsappError(131009, 'Param recipient_type: only individual recipients are simulated.');
  const waId = digitsOf(to);
  if (waId.length < 7 || waId.length > 15) throw whatsappError(131009, `Param to (${to}) is not a valid phone number.`);
  if (waId === phone.digits) throw whatsappError(131021, 'The recipient is the sender of this message.');
  if (phone.testNumber && !phone.allowedRecipients.includes(waId)) {
    throw whatsappError(131030, 'Recipient phone number not in allowed list: add it to the test number\'s recipient list in App Dashboard > WhatsApp > API Setup.');
  }
  const type = str(input, 'type') ?? 'text';
  if (!(MESSAGE_TYPES as readonly string[]).includes(type)) throw whatsappError(131009, `Param type must be one of {${MESSAGE_TYPES.join(', ')}}.`);
  const replyTo = str(obj(input.context) ?? {}, 'message_id');
  if (replyTo !== undefined && store.messages.get(replyTo)?.phoneNumberId !== phone.id) throw whatsappError(131009, `Param context['message_id'] (${replyTo}) is not a message of this number.`);

  const now = state.clock.now();
  const inWindow = store.windowOpen(phone.id, waId, now);
  let failure: Failure | null = null;
  let category: WhatsAppMessage['category'] = 'service';
  let media: MediaSource = null;
  if (type === 'template') {
    const template = checkTemplateSend(state, phone, input.template);
    category = template.category.toLowerCase() as WhatsAppMessage['category'];
    if (waba.restriction === 'restricted' && !inWindow) throw whatsappError(368, 'The account is restricted from starting conversations with customers.');
    if (category === 'marketing') failure = marketingFailure(state, waId, now);
  } else {
    media = checkContent(state, phone, type, input);
    if (!inWindow && state.settings.whatsapp.windowErrorMode === 'sync') throw whatsappError(131047, WINDOW_DETAILS);
    if (!inWindow) failure = { code: 131047, details: WINDOW_DETAILS };
  }

  const message: WhatsAppMessage = { id: wamid(state), phoneNumberId: phone.id, direction: 'out', waId, type, category, status: 'accepted', at: now, conversationId: null, readByBusiness: false };
  store.messages.set(message.id, message);
  store.person(waId);
  if (media && 'link' in media && !failure) {
    const link = media.link;
    const kind = media.type;
    void state.track(
      fetchMedia(link, state.settings.media).then((result) => {
        const problem: Failure | null = !result.ok
          ? { code: 131052, details: `Media download error: ${result.detail}` }
          : mediaTypeProblem(kind, result.type?.mime ?? null, result.size);
        progress(state, message, problem);
      }),
    );
  } else {
    if (media && 'id' in media && !failure) {
      const uploaded = store.media.get(media.id);
      failure = uploaded ? mediaTypeProblem(media.type, uploaded.mimeType, uploaded.bytes.length) : null;
    }
    progress(state, message, failure);
  }
  const sent: Json = { id: message.id };
  if (type === 'template') sent.message_status = 'accepted';
  return { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: waId }], messages: [sent] };
}

/** 131050 when the person stopped marketing messages; 131049 past the per-person cap. */
function marketingFailure(state: SandboxState, waId: string, now: number): Failure | null {
  if (state.whatsapp.person(waId).marketingOptOut) return { code: 131050, details: 'The recipient has chosen to stop receiving marketing messages from your business.' };
  const cap = state.settings.whatsapp.marketingPerUserPerDay;
  const recent = state.whatsapp.marketingSends.filter((s) => s.waId === waId && s.at > now - 86_400_000).length;
  if (cap !== null && recent >= cap) return { code: 131049, details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' };
  return null;
}

/** `{"status":"read","message_id":…,"typing_indicator"?:{"type":"text"}}` → `{"success":true}`. */
function markRead(state: SandboxState, input: GraphInput, phone: PhoneNumber): unknown {
  const id = str(input, 'message_id');
  if (!id) throw whatsappError(131008, 'The parameter message_id is required.');
  const message = state.whatsapp.messages.get(id);
  if (!message || message.direction !== 'in' || message.phoneNumberId !== phone.id) throw whatsappError(100, `Invalid message_id: ${id} is not a message this number received.`);
  const typing = obj(input.typing_indicator);
  if (typing && typing.type !== 'text') throw whatsappError(131009, "Param typing_indicator['type'] must be text.");
  for (const m of state.whatsapp.messages.values()) {
    if (m.direction === 'in' && m.phoneNumberId === phone.id && m.waId === message.waId && m.at <= message.at) m.readByBusiness = true;
  }
  return { success: true };
}
