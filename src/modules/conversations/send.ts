// POST /inbox/conversations/{id}/messages: a live direct message to the conversation's person.
// Checked before any platform call, in order: the conversation (404), the body (400 naming the
// field), the platform (400 not_supported), approval (403), the messaging permission (403), the
// window (409 outside_messaging_window), the token (409 reconnect_required). Once the platform
// took it, the message is stored and message.sent (eventId null) emitted in one transaction.
// While the call is in flight the conversation says so (`sending_until`), so that the
// platform's echo, should it be processed before this stores the message id, waits and then
// finds it (conversations/inbound.ts) instead of recording the message a second time; on this
// node, such webhooks wait for the send itself (sends-in-flight.ts).
import type { AccountRow, ConversationRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';
import type { AttachmentType, OutgoingMessage } from '../../platforms/types.ts';
import { storeFor } from '../../storage/index.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { conversationAccount, messagingOf, refuseUnapprovedSend, requireMessagingPermission, type ConversationDeps } from './access.ts';
import { emitMessageEvent, messageEventData } from './events.ts';
import { markSending } from './queries.ts';
import { findConversation, insertMessage, presentMessage, storedMessage, touchConversation, type Attachment } from './records.ts';
import type { MessageView } from './schemas.ts';
import { trackSend } from './sends-in-flight.ts';
import { requireOpenWindow } from './window.ts';
import { sendFromInbox, WHATSAPP_ONLY, type InboxSendBody } from '../whatsapp/inbox.ts';

/** How long an echo waits for the send it answers (a platform call takes seconds at most). */
const SENDING_HOLD_MS = 60_000;

export type SendBody = InboxSendBody;

const typeOfMime = (mime: string): AttachmentType => (mime.startsWith('image/') ? 'image' : mime.startsWith('video/') ? 'video' : mime.startsWith('audio/') ? 'audio' : 'file');

/** What to send: text, or one attachment by URL (our media by its public URL). */
async function contentOf(deps: ConversationDeps, tenant: Tenant, body: SendBody): Promise<Pick<OutgoingMessage, 'text' | 'attachment'>> {
  const given = (['text', 'mediaUrl', 'mediaId'] as const).filter((k) => body[k] !== undefined);
  if (!given.length) throw errors.invalid('text', 'required (or mediaUrl or mediaId)');
  if (given.length > 1) throw errors.invalid(given[1] ?? 'mediaUrl', `give one of text, mediaUrl and mediaId (a text and an attachment are two messages)`);
  if (body.text !== undefined) {
    if (body.attachmentType !== undefined) throw errors.invalid('attachmentType', 'only with mediaUrl or mediaId');
    return { text: body.text };
  }
  if (body.mediaUrl !== undefined) {
    if (!/^https?:\/\//i.test(body.mediaUrl)) throw errors.invalid('mediaUrl', 'must be an http(s) URL the platform can fetch');
    if (body.attachmentType === undefined) throw errors.invalid('attachmentType', 'required with mediaUrl (image, video, audio or file)');
    return { attachment: { type: body.attachmentType, url: body.mediaUrl } };
  }
  const media = await tenant.selectFrom('media').selectAll().where('id', '=', body.mediaId ?? '').executeTakeFirst();
  if (!media) throw errors.invalid('mediaId', 'no such media');
  const url = storeFor(deps.config, media.storage)?.publicUrl(media.storage_key) ?? null;
  if (!url) throw errors.invalid('mediaId', 'the media has no public URL (object storage or PUBLIC_BASE_URL is not configured)');
  return { attachment: { type: body.attachmentType ?? typeOfMime(media.mime_type), url } };
}

export async function sendMessage(deps: ConversationDeps, tenant: Tenant, caller: Caller, conversationId: string, body: SendBody, signal: AbortSignal): Promise<MessageView> {
  const conversation = await findConversation(tenant, conversationId);
  // WhatsApp has its own send (whatsapp/messages.ts), with more message types and no tag.
  if (conversation.platform === 'whatsapp') return sendFromInbox(deps, tenant, caller, conversation, body, signal);
  const whatsappOnly = WHATSAPP_ONLY.find((k) => body[k] !== undefined);
  if (whatsappOnly) throw errors.invalid(whatsappOnly, 'only for WhatsApp conversations');
  const content = await contentOf(deps, tenant, body);
  const messaging = messagingOf(deps, conversation.platform);
  const account = await conversationAccount(tenant, conversation.account_id);
  refuseUnapprovedSend(caller, account);
  requireMessagingPermission(deps, messaging, account);
  const lastInbound = conversation.last_inbound_at === null ? null : Number(conversation.last_inbound_at);
  requireOpenWindow(conversation.platform, lastInbound, deps.clock.now(), body.tag);

  const { db } = deps.store;
  return trackSend(deps.store, { platform: account.platform, platformUserId: account.platform_user_id, participantId: conversation.participant_id }, async () => {
    await markSending.execute(db, conversation.id, deps.clock.now() + SENDING_HOLD_MS);
    try {
      const sent = await callPlatform(deps, account, (c) => messaging.send(c, { recipientId: conversation.participant_id, ...content, tag: body.tag }));
      const now = deps.clock.now();
      const attachments = content.attachment ? [{ type: content.attachment.type, url: content.attachment.url }] : [];
      return await recordSent(deps, account, conversation, { platformMessageId: sent.platformMessageId, text: content.text ?? null, attachments, sentAt: now }, now);
    } catch (error) {
      await markSending.execute(db, conversation.id, null);
      throw error;
    }
  });
}

/**
 * Stores a message the platform has sent (the send's answer, or one an interrupted send made:
 * find-sent.ts), touches its conversation and, when it is new here, announces it (message.sent).
 */
export async function recordSent(
  deps: Pick<ConversationDeps, 'store'>,
  account: AccountRow,
  conversation: ConversationRow,
  message: { platformMessageId: string; text: string | null; attachments: Attachment[]; sentAt: number },
  now: number,
): Promise<MessageView> {
  const { platformMessageId, text, attachments, sentAt } = message;
  return deps.store.db.transaction().execute(async (trx) => {
    const stored = await insertMessage(trx, conversation, { direction: 'outbound', platformMessageId: platformMessageId || null, text, attachments, status: 'sent', sentAt }, now);
    // The platform never gives one message id twice; should it, the stored message stands.
    const row = stored ?? (await storedMessage(trx, account.id, platformMessageId));
    await touchConversation(trx, conversation.id, row, now, 0, true);
    if (stored) {
      const data = messageEventData(null, account, conversation, { messageId: row.id, platformMessageId: row.platform_message_id, direction: 'outbound', text, attachments, sentAt }, now);
      await emitMessageEvent({ db: trx, store: deps.store, now }, account.organization_id, 'message.sent', data);
    }
    return presentMessage(row);
  });
}
