// POST /whatsapp/accounts/{id}/messages and …/messages/{messageId}/read (contract "WhatsApp";
// DESIGN "WhatsApp"). Checked before any platform call, in order: the account (404, 400
// not_supported), the body (400 naming the field), approval (403), the conversation (404), the
// 24-hour customer-service window from the person's last message for anything but a template
// (409 outside_messaging_window), the token (409 reconnect_required). A message WhatsApp took is
// stored at once, its conversation created when new, and emits message.sent (eventId null), in
// one transaction; its statuses arrive later by webhook (inbound-messages.ts).
import type { AccountRow, ConversationRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';
import { refuseUnapprovedSend } from '../conversations/access.ts';
import { emitMessageEvent, messageEventData } from '../conversations/events.ts';
import { conversationOf, markSending } from '../conversations/queries.ts';
import { createConversation, insertMessage, presentMessage, storedMessage, touchConversation } from '../conversations/records.ts';
import type { MessageView } from '../conversations/schemas.ts';
import { requireOpenWindow } from '../conversations/window.ts';
import { uploadMedia } from './media.ts';
import { contentOf, recipientDigits, type SendInput } from './message-content.ts';
import { callWhatsApp, type WhatsAppDeps } from './platform-call.ts';

const TARGETS = ['to', 'recipient', 'conversationId'] as const;
/** How long a status of a message not yet stored waits for the send storing it. */
export const SENDING_HOLD_MS = 60_000;

/** The person to write to and the account's conversation with them, if there is one. */
async function targetOf(deps: WhatsAppDeps, tenant: Tenant, row: AccountRow, input: SendInput): Promise<{ waId: string; conversation: ConversationRow | undefined }> {
  const given = TARGETS.filter((k) => input[k] !== undefined);
  if (!given.length) throw errors.invalid('to', 'required (or recipient or conversationId)');
  if (given.length > 1) throw errors.invalid(given[1] ?? 'recipient', 'give one of to, recipient and conversationId');
  if (input.conversationId !== undefined) {
    const conversation = await tenant.selectFrom('conversations').selectAll().where('id', '=', input.conversationId).where('account_id', '=', row.id).executeTakeFirst();
    if (!conversation) throw errors.notFound('Conversation');
    return { waId: conversation.participant_id, conversation };
  }
  const waId = input.to !== undefined ? recipientDigits('to', input.to) : recipientDigits('recipient', input.recipient ?? '');
  const [conversation] = (await conversationOf.execute(deps.store.db, row.id, waId)).rows;
  return { waId, conversation };
}

export async function sendMessage(deps: WhatsAppDeps, tenant: Tenant, caller: Caller, row: AccountRow, input: SendInput, signal: AbortSignal): Promise<MessageView> {
  const content = contentOf(input);
  const { waId, conversation: known } = await targetOf(deps, tenant, row, input);
  refuseUnapprovedSend(caller, row);
  if (content.type !== 'template') {
    const lastInbound = known?.last_inbound_at == null ? null : Number(known.last_inbound_at);
    requireOpenWindow('whatsapp', lastInbound, deps.clock.now(), undefined);
  }
  const payload = { ...content.payload };
  if (content.ourMediaId !== null) {
    // Our media goes to WhatsApp first; the message names it by the id WhatsApp gives it.
    const whatsappMediaId = await uploadMedia(deps, tenant, row, { mediaId: content.ourMediaId }, signal);
    payload[content.type] = { ...(payload[content.type] as Record<string, unknown>), id: whatsappMediaId };
  }
  // The conversation exists before the call and says a send is in flight, so a status webhook
  // that outruns the storing of the message waits for it (inbound-messages.ts) instead of
  // finding no message. A new conversation is created with that mark (one write, not two); one
  // made here for nothing is removed if the send fails.
  const { db } = deps.store;
  const sendingUntil = deps.clock.now() + SENDING_HOLD_MS;
  const conversation = known ?? (await createConversation(db, row, { id: waId, username: null, name: null }, deps.clock.now(), deps.clock.now(), null, sendingUntil));
  // Marked by its creation, unless another writer created it first (then it carries no mark).
  if (conversation.sending_until !== sendingUntil) await markSending.execute(db, conversation.id, sendingUntil);
  let sent;
  try {
    sent = await callWhatsApp(deps, row, (cloud, credentials) =>
      cloud.sendMessage(credentials, { to: waId, type: content.type, ...payload, ...(input.replyTo !== undefined ? { context: { message_id: input.replyTo } } : {}) }),
    );
  } catch (error) {
    await markSending.execute(db, conversation.id, null);
    if (!known) {
      await db
        .deleteFrom('conversations')
        .where('id', '=', conversation.id)
        .where('last_inbound_at', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('messages').select('id').where('conversation_id', '=', conversation.id))))
        .execute();
    }
    throw error;
  }
  const now = deps.clock.now();
  const platformMessageId = sent.platformMessageId;
  return db.transaction().execute(async (trx) => {
    const { text, attachments, reaction } = content.stored;
    const stored = await insertMessage(trx, conversation, { direction: 'outbound', platformMessageId, text, attachments, status: 'sent', sentAt: now }, now);
    const message = stored ?? (await storedMessage(trx, row.id, platformMessageId));
    if (stored && reaction !== null) {
      await trx.updateTable('messages').set({ reaction }).where('id', '=', message.id).execute();
      message.reaction = reaction;
    }
    await touchConversation(trx, conversation.id, message, now, 0, true);
    if (stored) {
      const data = messageEventData(null, row, conversation, { messageId: message.id, platformMessageId, direction: 'outbound', text, attachments, sentAt: now }, now);
      await emitMessageEvent({ db: trx, store: deps.store, now }, row.organization_id, 'message.sent', data);
    }
    return presentMessage(message);
  });
}

/**
 * Marks an inbound message read on WhatsApp (and so every earlier one of the person), with the
 * typing indicator when asked. `messageId` is ours or the platform's id of a stored message of
 * this account; the conversation's unread count drops to what is newer.
 */
export async function markMessageRead(deps: WhatsAppDeps, tenant: Tenant, row: AccountRow, messageId: string, typing: boolean): Promise<MessageView> {
  const message = await tenant
    .selectFrom('messages')
    .selectAll()
    .where('account_id', '=', row.id)
    .where((eb) => eb.or([eb('id', '=', messageId), eb('platform_message_id', '=', messageId)]))
    .executeTakeFirst();
  if (!message) throw errors.notFound('Message');
  if (message.direction !== 'inbound' || !message.platform_message_id) throw errors.invalid('messageId', 'only a message the person sent can be marked read');
  const platformId = message.platform_message_id;
  await callWhatsApp(deps, row, (cloud, credentials) => cloud.markRead(credentials, platformId, typing));
  const now = deps.clock.now();
  await deps.store.db.transaction().execute(async (trx) => {
    await trx.updateTable('messages').set({ status: 'read' }).where('conversation_id', '=', message.conversation_id).where('direction', '=', 'inbound').where('sent_at', '<=', Number(message.sent_at)).where('status', '<>', 'read').execute();
    const left = await trx.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('conversation_id', '=', message.conversation_id).where('direction', '=', 'inbound').where('status', '<>', 'read').executeTakeFirst();
    await trx.updateTable('conversations').set({ unread: Number(left?.n ?? 0), updated_at: now }).where('id', '=', message.conversation_id).execute();
  });
  return presentMessage({ ...message, status: 'read' });
}
