// The message events of the contract (message.received, .sent, .read, .delivered, .reaction),
// all with its one message shape. A platform event's data is also kept as the inbox event of
// kind `message` whose id is the eventId; a message sent through the service has eventId null
// and no inbox event.
import type { Kysely } from 'kysely';
import type { ConversationRow, Database } from '../../db/schema.ts';
import { emitEvent, type EmitContext } from '../events/emit.ts';
import type { EventData } from '../events/catalog.ts';
import { insertInboxMessage } from './queries.ts';
import type { Attachment } from './records.ts';

export type MessageEventType = 'message.received' | 'message.sent' | 'message.read' | 'message.delivered' | 'message.reaction';
export type MessageEventData = EventData<'message.received'>;

export interface EventAccount {
  id: string;
  organization_id: string;
  platform: string;
  external_id: string | null;
}

export interface MessageFacts {
  messageId: string | null;
  platformMessageId: string | null;
  platformMessageIds?: string[];
  direction: 'inbound' | 'outbound';
  text: string | null;
  attachments?: Attachment[];
  postback?: Record<string, unknown> | null;
  reaction?: { action: 'react' | 'unreact'; emoji: string | null } | null;
  watermark?: number | null;
  sentAt: number;
}

export function messageEventData(eventId: string | null, account: EventAccount, conversation: ConversationRow, facts: MessageFacts, receivedAt: number): MessageEventData {
  return {
    eventId,
    platform: account.platform,
    accountId: account.id,
    externalId: account.external_id,
    conversationId: conversation.id,
    messageId: facts.messageId,
    platformMessageId: facts.platformMessageId,
    platformMessageIds: facts.platformMessageIds ?? (facts.platformMessageId ? [facts.platformMessageId] : []),
    direction: facts.direction,
    participant: { id: conversation.participant_id, username: conversation.participant_username, name: conversation.participant_name },
    text: facts.text,
    attachments: facts.attachments ?? [],
    postback: facts.postback ?? null,
    reaction: facts.reaction ?? null,
    watermark: facts.watermark ?? null,
    sentAt: new Date(facts.sentAt).toISOString(),
    receivedAt: new Date(receivedAt).toISOString(),
  };
}

export async function emitMessageEvent(ctx: EmitContext, organizationId: string, type: MessageEventType, data: MessageEventData): Promise<void> {
  await emitEvent(ctx, organizationId, type, data, data.eventId ? { id: data.eventId } : {});
}

export interface InboxMessage {
  eventId: string;
  organizationId: string;
  accountId: string;
  platform: string;
  dedupeKey: string;
  data: unknown;
  receivedAt: number;
}

/** The platform event's inbox row, which decides "once": false when that event was recorded before. */
export async function recordInboxMessage(db: Kysely<Database>, row: InboxMessage): Promise<boolean> {
  const inserted = await insertInboxMessage.execute(db, row.eventId, row.organizationId, row.accountId, row.platform, row.dedupeKey, JSON.stringify(row.data), row.receivedAt);
  return (inserted.numAffectedRows ?? 0n) > 0n;
}
