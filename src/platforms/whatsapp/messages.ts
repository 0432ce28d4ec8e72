// Sending and marking read (platforms.md §7.1): both are POST /{phone-number-id}/messages. The
// message itself is built by the module in the Cloud API's shape; this adds the common fields
// and reads the id WhatsApp gave it and the person's wa_id.
import type { PlatformContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { list, obj, str } from '../json.ts';
import type { AccountCredentials } from '../types.ts';
import { cloudCaller } from './cloud.ts';

export interface WhatsAppSent {
  platformMessageId: string;
  /** The person's WhatsApp id (their number's digits as WhatsApp knows it). */
  waId: string | null;
}

export async function sendWhatsAppMessage(ctx: PlatformContext, credentials: AccountCredentials, message: Record<string, unknown>): Promise<WhatsAppSent> {
  const body = await cloudCaller(ctx, credentials.accessToken)('POST', `/${credentials.platformUserId}/messages`, {
    json: { messaging_product: 'whatsapp', recipient_type: 'individual', ...message },
  });
  const id = str(obj(list(body.messages)[0]).id);
  if (!id) throw new PlatformError('transient', 'the send was answered without a message id', { platform: 'whatsapp' });
  return { platformMessageId: id, waId: str(obj(list(body.contacts)[0]).wa_id) };
}

/** Marks a received message (and the ones before it) read; `typing` shows the typing indicator. */
export async function markWhatsAppRead(ctx: PlatformContext, credentials: AccountCredentials, messageId: string, typing: boolean): Promise<void> {
  await cloudCaller(ctx, credentials.accessToken)('POST', `/${credentials.platformUserId}/messages`, {
    json: { messaging_product: 'whatsapp', status: 'read', message_id: messageId, ...(typing ? { typing_indicator: { type: 'text' } } : {}) },
  });
}
