// What happens to a message after the send was accepted (platforms.md §7.7 statuses): `sent`,
// then `delivered`, then `read`, each a `messages`-field webhook at a moment of sandbox time
// (settings.whatsapp.sentMs/deliveredMs/readMs), or `failed` with `errors[]` for the failures
// the Cloud API reports asynchronously (131026 not on WhatsApp, 131049/131050 marketing,
// 131052/131053 media, 131047 in `windowErrorMode: webhook`). Statuses only move forward.
import type { SandboxState } from '../core/state.ts';
import { statusError } from './errors.ts';
import type { MessageStatus, PhoneNumber, WhatsAppMessage } from './store.ts';
import { emit, metadata, unix } from './webhooks.ts';

const ORDER: Record<MessageStatus, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

export interface Failure {
  code: number;
  details: string;
}

/** Schedules the life of an accepted outbound message. */
export function progress(state: SandboxState, message: WhatsAppMessage, failure: Failure | null): void {
  const s = state.settings.whatsapp;
  if (failure) return state.timers.after(s.sentMs, () => setStatus(state, message.id, 'failed', failure));
  if (!state.whatsapp.person(message.waId).onWhatsApp) {
    return state.timers.after(s.sentMs, () => setStatus(state, message.id, 'failed', { code: 131026, details: 'Message Undeliverable.' }));
  }
  state.timers.after(s.sentMs, () => setStatus(state, message.id, 'sent'));
  state.timers.after(Math.max(s.sentMs, s.deliveredMs), () => setStatus(state, message.id, 'delivered'));
  if (s.readMs !== null) state.timers.after(Math.max(s.sentMs, s.deliveredMs, s.readMs), () => setStatus(state, message.id, 'read'));
}

/** Moves a message to a later status and sends its webhook; earlier or equal statuses are ignored. */
export function setStatus(state: SandboxState, messageId: string, status: MessageStatus, failure?: Failure): boolean {
  const message = state.whatsapp.messages.get(messageId);
  if (!message || message.direction !== 'out' || message.status === 'failed' || ORDER[status] <= ORDER[message.status]) return false;
  const phone = state.whatsapp.phoneNumbers.get(message.phoneNumberId);
  const waba = phone ? state.whatsapp.wabas.get(phone.wabaId) : undefined;
  if (!phone || !waba) return false;
  message.status = status;
  const now = state.clock.now();
  const item: Record<string, unknown> = { id: message.id, status, timestamp: unix(now), recipient_id: message.waId };
  if (status === 'sent' || status === 'delivered') Object.assign(item, billing(state, phone, message, now));
  if (status === 'failed' && failure) item.errors = [statusError(failure.code, failure.details)];
  if (status === 'delivered' && message.category === 'marketing') state.whatsapp.marketingSends.push({ waId: message.waId, at: now });
  emit(state, waba, 'messages', { messaging_product: 'whatsapp', metadata: metadata(phone), statuses: [item] });
  return true;
}

/**
 * `conversation` and `pricing` of sent/delivered statuses. Per-message pricing (PMP, since
 * 1 July 2025): service replies and utility templates inside the customer-service window are
 * free (`free_customer_service`); the conversation object is kept for adapters that still read
 * it, one per person, number and category for 24 h (both details unconfirmed, §7.7).
 */
function billing(state: SandboxState, phone: PhoneNumber, message: WhatsAppMessage, now: number): Record<string, unknown> {
  const key = `${phone.id}:${message.waId}:${message.category}`;
  let conversation = state.whatsapp.conversations.get(key);
  if (!conversation || conversation.expiresAt <= now) {
    conversation = { id: state.ids.opaque('wa-conversation', 32, 'hex'), expiresAt: now + 86_400_000, origin: message.category };
    state.whatsapp.conversations.set(key, conversation);
  }
  const inWindow = state.whatsapp.windowOpen(phone.id, message.waId, message.at);
  const free = message.category === 'service' || (message.category === 'utility' && inWindow);
  return {
    conversation: { id: conversation.id, expiration_timestamp: unix(conversation.expiresAt), origin: { type: conversation.origin } },
    pricing: { billable: !free, pricing_model: 'PMP', category: message.category, type: free ? 'free_customer_service' : 'regular' },
  };
}
