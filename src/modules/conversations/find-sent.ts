// What an interrupted POST /inbox/conversations/{id}/messages sent (http/idempotency.ts `find`):
// the account's message with the same text in the conversation since the call began. The store
// is read first (the platform's echo may have recorded it); then the platform's newest messages
// of the conversation, and one found there is stored and announced (message.sent) as the send
// would have done. Only a text can be matched; an attachment, or a WhatsApp conversation (the
// Cloud API lists no messages), cannot be looked for unless the store has it.
import type { FastifyRequest } from 'fastify';
import { tenantOf } from '../../http/auth.ts';
import { apiError } from '../../http/errors.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { conversationAccount, messagingOf } from './access.ts';
import { findConversation, presentMessage } from './records.ts';
import type { MessageView } from './schemas.ts';
import { recordSent } from './send.ts';

/** The newest messages read from the platform: a send retried within minutes is among them. */
const LOOK_BACK = 25;

const cannotLook = (why: string) =>
  apiError(
    'REQUEST_OUTCOME_UNKNOWN',
    `The earlier request with this x-request-id was interrupted after the platform call began, and ${why}, so it may have been sent; nothing was sent again. Check the conversation, and send it with a new x-request-id if it is missing`,
  );

const textOf = (body: unknown): string | null => {
  const text = typeof body === 'object' && body !== null ? (body as { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text : null;
};

const idOf = (params: unknown): string => {
  const id = typeof params === 'object' && params !== null ? (params as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '';
};

export async function findSentMessage(request: FastifyRequest, sinceMs: number): Promise<{ message: MessageView } | null> {
  const { deps } = request.server;
  const tenant = tenantOf(request);
  const conversation = await findConversation(tenant, idOf(request.params));
  const text = textOf(request.body);
  if (text !== null) {
    const stored = await tenant
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversation.id)
      .where('direction', '=', 'outbound')
      .where('sent_at', '>=', sinceMs)
      .where('text', '=', text)
      .orderBy('sent_at')
      .executeTakeFirst();
    if (stored) return { message: presentMessage(stored) };
  }
  if (conversation.platform === 'whatsapp') throw cannotLook('WhatsApp lists no sent messages');
  if (text === null) throw cannotLook('only a text message can be looked for');

  const account = await conversationAccount(tenant, conversation.account_id);
  const messaging = messagingOf(deps, conversation.platform);
  const platformConversation = conversation.platform_conversation_id
    ? { id: conversation.platform_conversation_id }
    : await callPlatform(deps, account, (c) => messaging.conversationWith(c, conversation.participant_id));
  if (!platformConversation) return null;
  const page = await callPlatform(deps, account, (c) => messaging.messages(c, platformConversation.id, { limit: LOOK_BACK, after: null }));
  const sent = page.items.find((m) => m.fromId === account.platform_user_id && m.text === text && (m.createdAt === null || m.createdAt >= sinceMs));
  if (!sent) {
    // All the newest are since the call, and more follow: the call's message may be further back.
    const oldest = page.items.at(-1)?.createdAt;
    if (page.after !== null && page.items.length >= LOOK_BACK && (oldest === null || oldest === undefined || oldest >= sinceMs)) throw cannotLook('the conversation has more new messages than a look reads');
    return null;
  }
  const now = deps.clock.now();
  return { message: await recordSent(deps, account, conversation, { platformMessageId: sent.id, text, attachments: [], sentAt: sent.createdAt ?? now }, now) };
}
