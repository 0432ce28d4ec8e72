// The stored conversations and messages: finding them in the caller's organization, creating a
// conversation on first contact, and their API views. Shared by the routes, the sync and the
// inbound webhook handler, which all write the same rows.
import type { Kysely } from 'kysely';
import type { ConversationRow, Database, MessageRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { MessagingParticipant } from '../../platforms/types.ts';
import type { ConversationView, MessageView } from './schemas.ts';
import { conversationOf, insertConversation, insertMessageRow, messageByPlatformId, touchFor } from './queries.ts';
import { messagingWindow } from './window.ts';

export interface Attachment {
  type: string;
  url: string | null;
}

export function presentConversation(row: ConversationRow, now: number): ConversationView {
  return {
    id: row.id,
    platform: row.platform,
    accountId: row.account_id,
    participant: { id: row.participant_id, username: row.participant_username, name: row.participant_name },
    status: row.status,
    unread: Number(row.unread),
    lastMessageAt: new Date(Number(row.last_message_at)).toISOString(),
    lastMessageText: row.last_message_text,
    messagingWindow: messagingWindow(row.platform, row.last_inbound_at === null ? null : Number(row.last_inbound_at), now),
  };
}

export const attachmentsOf = (row: Pick<MessageRow, 'attachments'>): Attachment[] => JSON.parse(row.attachments) as Attachment[];

export function presentMessage(row: MessageRow): MessageView {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    direction: row.direction,
    platformMessageId: row.platform_message_id,
    text: row.text,
    attachments: attachmentsOf(row),
    status: row.status,
    reaction: row.reaction,
    postback: row.postback === null ? null : (JSON.parse(row.postback) as Record<string, unknown>),
    sentAt: new Date(Number(row.sent_at)).toISOString(),
    ...(row.error ? { error: row.error } : {}),
  };
}

export async function findConversation(tenant: Tenant, id: string): Promise<ConversationRow> {
  const row = await tenant.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw errors.notFound('Conversation');
  return row;
}

export interface ConversationAccount {
  id: string;
  organization_id: string;
  platform: string;
}

/**
 * The account's conversation with the person, created when there is none (first contact, a
 * sync). A participant's username and name are kept once known: a later null does not erase them.
 */
export async function conversationFor(
  db: Kysely<Database>,
  account: ConversationAccount,
  participant: MessagingParticipant,
  at: number,
  now: number,
  platformConversationId: string | null = null,
): Promise<ConversationRow> {
  const [existing] = (await conversationOf.execute(db, account.id, participant.id)).rows;
  if (existing) {
    const changes: Partial<ConversationRow> = {};
    if (platformConversationId && existing.platform_conversation_id !== platformConversationId) changes.platform_conversation_id = platformConversationId;
    if (participant.username && existing.participant_username !== participant.username) changes.participant_username = participant.username;
    if (participant.name && existing.participant_name !== participant.name) changes.participant_name = participant.name;
    if (!Object.keys(changes).length) return existing;
    await db.updateTable('conversations').set({ ...changes, updated_at: now }).where('id', '=', existing.id).execute();
    return { ...existing, ...changes };
  }
  return createConversation(db, account, participant, at, now, platformConversationId);
}

/**
 * A conversation the caller found none of: created, or another writer's if that one won the
 * race. `sendingUntil` marks one created for a send in flight (whatsapp/messages.ts).
 */
export async function createConversation(
  db: Kysely<Database>,
  account: ConversationAccount,
  participant: MessagingParticipant,
  at: number,
  now: number,
  platformConversationId: string | null = null,
  sendingUntil: number | null = null,
): Promise<ConversationRow> {
  const row: ConversationRow = {
    id: newId('conversation', now),
    organization_id: account.organization_id,
    account_id: account.id,
    platform: account.platform,
    platform_conversation_id: platformConversationId,
    participant_id: participant.id,
    participant_username: participant.username,
    participant_name: participant.name,
    status: 'active',
    unread: 0,
    last_message_at: at,
    last_message_text: null,
    last_inbound_at: null,
    sending_until: sendingUntil,
    created_at: now,
    updated_at: now,
  };
  // Two webhooks of one new person may race: the unique (account, participant) keeps one row.
  // Ours when the insert took; otherwise the other's, read back.
  const inserted = await insertConversation.execute(db, row.id, row.organization_id, row.account_id, row.platform, platformConversationId, participant.id, participant.username, participant.name, at, sendingUntil, now);
  if ((inserted.numAffectedRows ?? 0n) > 0n) return row;
  const [raced] = (await conversationOf.execute(db, account.id, participant.id)).rows;
  if (!raced) throw new Error('the conversation was neither inserted nor found');
  return raced;
}

/** The stored message of a platform message id (one the caller knows is stored). */
export async function storedMessage(db: Kysely<Database>, accountId: string, platformMessageId: string): Promise<MessageRow> {
  const [row] = (await messageByPlatformId.execute(db, accountId, platformMessageId)).rows;
  if (!row) throw new Error(`no stored message ${platformMessageId}`);
  return row;
}

export interface NewMessage {
  direction: 'inbound' | 'outbound';
  platformMessageId: string | null;
  text: string | null;
  attachments: Attachment[];
  status: MessageRow['status'];
  sentAt: number;
  postback?: Record<string, unknown> | null;
  /** The id to give it (made by the caller when it names the message before storing it). */
  id?: string;
}

/** Stores a message once per platform id; null when that platform message was already stored. */
export async function insertMessage(db: Kysely<Database>, conversation: ConversationRow, message: NewMessage, now: number): Promise<MessageRow | null> {
  const row: MessageRow = {
    id: message.id ?? newId('message', now),
    organization_id: conversation.organization_id,
    account_id: conversation.account_id,
    conversation_id: conversation.id,
    direction: message.direction,
    platform_message_id: message.platformMessageId,
    text: message.text,
    attachments: JSON.stringify(message.attachments),
    status: message.status,
    sent_at: message.sentAt,
    reaction: null,
    postback: message.postback ? JSON.stringify(message.postback) : null,
    error: null,
    created_at: now,
  };
  const inserted = await insertMessageRow.execute(db, row.id, row.organization_id, row.account_id, row.conversation_id, row.direction, row.platform_message_id, row.text, row.attachments, row.status, row.sent_at, row.postback, now);
  return (inserted.numAffectedRows ?? 0n) === 0n ? null : row;
}

/**
 * Moves the conversation's latest message and the person's last message forward, never back (a
 * synced older message, or webhooks arriving out of order, do not), in one statement whose
 * right-hand sides all read the row as it was, so concurrent writers agree; `unreadBy` counts
 * new messages from the person, which also bring an archived conversation back.
 */
export async function touchConversation(
  db: Kysely<Database>,
  conversationId: string,
  message: Pick<MessageRow, 'sent_at' | 'text' | 'direction'>,
  now: number,
  unreadBy = 0,
  /** The service's own send is over: its echo need not wait any more. */
  sendDone = false,
): Promise<void> {
  const query = touchFor({ inbound: message.direction === 'inbound', reopens: unreadBy > 0, sendDone });
  await query.execute(db, Number(message.sent_at), message.text, unreadBy, now, conversationId);
}
