// The statements every message runs (an inbound webhook, a send, a status), compiled once per
// database (db/prepared.ts): building and compiling a Kysely query cost more than SQLite takes
// to run one of these. records.ts and the inbound handlers call them; the rarer statements
// (syncs, lists, read marks) stay plain Kysely.
import { sql } from 'kysely';
import { prepare } from '../../db/prepared.ts';
import type { MessageRow } from '../../db/schema.ts';

export const accountsByPlatformId = prepare((db, platform: string, platformUserId: string) =>
  db.selectFrom('accounts').selectAll().where('platform', '=', platform).where('platform_user_id', '=', platformUserId),
);

export const conversationOf = prepare((db, accountId: string, participantId: string) =>
  db.selectFrom('conversations').selectAll().where('account_id', '=', accountId).where('participant_id', '=', participantId),
);

export const conversationExists = prepare((db, accountId: string, participantId: string) =>
  db.selectFrom('conversations').select(['id', 'sending_until']).where('account_id', '=', accountId).where('participant_id', '=', participantId),
);

type ConversationValues = [
  id: string,
  organizationId: string,
  accountId: string,
  platform: string,
  platformConversationId: string | null,
  participantId: string,
  participantUsername: string | null,
  participantName: string | null,
  lastMessageAt: number,
  sendingUntil: number | null,
  now: number,
];

/** A new active conversation; nothing when the (account, participant) pair exists already. */
export const insertConversation = prepare((db, ...[id, organizationId, accountId, platform, platformConversationId, participantId, username, name, lastMessageAt, sendingUntil, now]: ConversationValues) =>
  db
    .insertInto('conversations')
    .values({
      id,
      organization_id: organizationId,
      account_id: accountId,
      platform,
      platform_conversation_id: platformConversationId,
      participant_id: participantId,
      participant_username: username,
      participant_name: name,
      status: 'active',
      unread: 0,
      last_message_at: lastMessageAt,
      last_message_text: null,
      last_inbound_at: null,
      sending_until: sendingUntil,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'participant_id']).doNothing()),
);

export const markSending = prepare((db, conversationId: string, until: number | null) => db.updateTable('conversations').set({ sending_until: until }).where('id', '=', conversationId));

type MessageValues = [
  id: string,
  organizationId: string,
  accountId: string,
  conversationId: string,
  direction: MessageRow['direction'],
  platformMessageId: string | null,
  text: string | null,
  attachments: string,
  status: MessageRow['status'],
  sentAt: number,
  postback: string | null,
  now: number,
];

/** Once per (account, platform message id): a second insert of the same id changes nothing. */
export const insertMessageRow = prepare((db, ...[id, organizationId, accountId, conversationId, direction, platformMessageId, text, attachments, status, sentAt, postback, now]: MessageValues) =>
  db
    .insertInto('messages')
    .values({
      id,
      organization_id: organizationId,
      account_id: accountId,
      conversation_id: conversationId,
      direction,
      platform_message_id: platformMessageId,
      text,
      attachments,
      status,
      sent_at: sentAt,
      reaction: null,
      postback,
      error: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'platform_message_id']).doNothing()),
);

export const messageByPlatformId = prepare((db, accountId: string, platformMessageId: string) =>
  db.selectFrom('messages').selectAll().where('account_id', '=', accountId).where('platform_message_id', '=', platformMessageId),
);

export interface TouchShape {
  /** The person's message: moves last_inbound_at too. */
  inbound: boolean;
  /** New unread messages: an archived conversation becomes active again. */
  reopens: boolean;
  /** The service's own send is over: its echo need not wait any more. */
  sendDone: boolean;
}

// Moves the latest message and the person's last message forward, never back, in one statement
// whose right-hand sides all read the row as it was, so concurrent writers agree. One compiled
// statement per shape (db/prepared.ts: a builder must not branch on its arguments).
const touchQuery = ({ inbound, reopens, sendDone }: TouchShape) =>
  prepare((db, at: number, text: string | null, unreadBy: number, now: number, conversationId: string) => {
    const later = sql<boolean>`last_message_at <= ${at}`;
    return db
      .updateTable('conversations')
      .set({
        last_message_at: sql<number>`case when ${later} then ${at} else last_message_at end`,
        last_message_text: sql<string | null>`case when ${later} then ${text} else last_message_text end`,
        ...(inbound ? { last_inbound_at: sql<number>`case when last_inbound_at is null or last_inbound_at < ${at} then ${at} else last_inbound_at end` } : {}),
        unread: sql<number>`unread + ${unreadBy}`,
        ...(reopens ? { status: 'active' as const } : {}),
        ...(sendDone ? { sending_until: null } : {}),
        updated_at: now,
      })
      .where('id', '=', conversationId);
  });

const touchQueries = new Map<string, ReturnType<typeof touchQuery>>();

export function touchFor(shape: TouchShape): ReturnType<typeof touchQuery> {
  const key = `${shape.inbound}:${shape.reopens}:${shape.sendDone}`;
  let query = touchQueries.get(key);
  if (!query) {
    query = touchQuery(shape);
    touchQueries.set(key, query);
  }
  return query;
}

/** The inbox row of a platform event of kind `message`; nothing when its (account, kind, dedupe key) is recorded already. */
export const insertInboxMessage = prepare((db, id: string, organizationId: string, accountId: string, platform: string, dedupeKey: string, data: string, receivedAt: number) =>
  db
    .insertInto('inbox_events')
    .values({ id, organization_id: organizationId, account_id: accountId, platform, kind: 'message', dedupe_key: dedupeKey, data, received_at: receivedAt })
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'dedupe_key']).doNothing()),
);
