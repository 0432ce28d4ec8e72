// A person writes to a business number (issue 3 control API): the message is stored, opens (or
// renews) the 24-hour customer-service window, and reaches the subscribed apps as a `messages`
// webhook (platforms.md §7.7) with the person in `contacts` and the message in `messages`.
// Media a person sends is stored like an upload, so GET /{media-id} and its download work.
import type { SandboxState } from '../core/state.ts';
import { wamid } from './messages.ts';
import { storeMedia } from './media.ts';
import { digitsOf, type WhatsAppMessage } from './store.ts';
import { emit, metadata, unix } from './webhooks.ts';

export interface InboundInput {
  phoneNumberId: string;
  from: string;
  name?: string | undefined;
  type?: string | undefined;
  text?: string | undefined;
  /** image/video/audio/document/sticker: the bytes (base64) and their type. */
  media?: { data: string; mimeType: string; caption?: string | undefined; filename?: string | undefined } | undefined;
  reaction?: { messageId: string; emoji: string } | undefined;
  /** A template quick-reply button press. */
  button?: { payload: string; text: string } | undefined;
  /** An interactive reply: `button_reply` or `list_reply`. */
  interactive?: { type: 'button_reply' | 'list_reply'; id: string; title: string; description?: string | undefined } | undefined;
  location?: { latitude: number; longitude: number; name?: string | undefined; address?: string | undefined } | undefined;
  /** The business message this replies to. */
  contextMessageId?: string | undefined;
}

const MEDIA = ['image', 'video', 'audio', 'document', 'sticker'];

export function receiveMessage(state: SandboxState, input: InboundInput): WhatsAppMessage {
  const store = state.whatsapp;
  const phone = store.phoneNumbers.get(input.phoneNumberId);
  const waba = phone ? store.wabas.get(phone.wabaId) : undefined;
  if (!phone || !waba) throw new Error('phoneNumberId: no such phone number');
  const waId = digitsOf(input.from);
  if (!waId) throw new Error('from: a phone number is required');
  const person = store.person(waId);
  if (input.name) person.name = input.name;
  const type = input.type ?? (input.media ? 'image' : input.reaction ? 'reaction' : input.button ? 'button' : input.interactive ? 'interactive' : input.location ? 'location' : 'text');
  const now = state.clock.now();
  const message: WhatsAppMessage = { id: wamid(state), phoneNumberId: phone.id, direction: 'in', waId, type, category: 'service', status: 'delivered', at: now, conversationId: null, readByBusiness: false };
  const item: Record<string, unknown> = { from: waId, id: message.id, timestamp: unix(now), type };
  if (type === 'text') item.text = { body: input.text ?? '' };
  else if (MEDIA.includes(type)) {
    if (!input.media) throw new Error(`media: required for ${type} messages`);
    const bytes = Buffer.from(input.media.data, 'base64');
    const media = storeMedia(state, phone, bytes, input.media.mimeType, input.media.filename ?? null);
    const content: Record<string, unknown> = { mime_type: media.mimeType, sha256: media.sha256, id: media.id };
    if (input.media.caption) content.caption = input.media.caption;
    if (type === 'document' && input.media.filename) content.filename = input.media.filename;
    if (type === 'sticker') content.animated = false;
    item[type] = content;
  } else if (type === 'reaction') {
    if (!input.reaction) throw new Error('reaction: required');
    item.reaction = { message_id: input.reaction.messageId, emoji: input.reaction.emoji };
  } else if (type === 'button') {
    if (!input.button) throw new Error('button: required');
    item.button = { payload: input.button.payload, text: input.button.text };
  } else if (type === 'interactive') {
    const reply = input.interactive;
    if (!reply) throw new Error('interactive: required');
    const detail: Record<string, string> = { id: reply.id, title: reply.title };
    if (reply.type === 'list_reply' && reply.description) detail.description = reply.description;
    item.interactive = { type: reply.type, [reply.type]: detail };
  } else if (type === 'location') {
    if (!input.location) throw new Error('location: required');
    item.location = input.location;
  } else throw new Error(`type: ${type} is not simulated`);
  const replyTo = input.contextMessageId ?? (type === 'button' ? lastTemplateTo(state, phone.id, waId) : undefined);
  if (replyTo) item.context = { from: phone.digits, id: replyTo };
  store.messages.set(message.id, message);
  store.lastInbound.set(`${phone.id}:${waId}`, now);
  emit(state, waba, 'messages', { messaging_product: 'whatsapp', metadata: metadata(phone), contacts: [{ profile: { name: person.name }, wa_id: waId }], messages: [item] });
  return message;
}

/** A quick-reply button answers the latest template the person got from that number. */
function lastTemplateTo(state: SandboxState, phoneId: string, waId: string): string | undefined {
  return [...state.whatsapp.messages.values()].filter((m) => m.direction === 'out' && m.type === 'template' && m.phoneNumberId === phoneId && m.waId === waId).at(-1)?.id;
}
