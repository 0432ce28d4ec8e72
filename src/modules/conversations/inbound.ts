// Recording one inbound messaging item (platform-webhooks/meta-messaging.ts) for one account: the
// conversation (created on first contact), the message or its new state, and the contract's
// event, in the caller's transaction with the stored webhook's status. The inbox event of kind
// `message`, unique per (account, kind, dedupe key), decides "once": a Meta retry or a second
// run finds it and records nothing. An echo of a message sent through the service (its
// platform message id is stored) adds nothing at all.
//
// The person's profile (username, name) is read from the platform before the transaction,
// only for people not seen before (prepareProfiles); a failed read leaves them null.
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { AccountRow, ConversationRow, Database, MessageRow } from '../../db/schema.ts';
import type { EmitContext } from '../events/emit.ts';
import { credentialsOf } from '../accounts/credentials.ts';
import { newId } from '../../lib/ids.ts';
import type { MessagingParticipant } from '../../platforms/types.ts';
import type { MessagingItem } from '../platform-webhooks/meta-messaging.ts';
import { emitMessageEvent, messageEventData, recordInboxMessage, type MessageEventType, type MessageFacts } from './events.ts';
import { accountsByPlatformId, conversationExists, messageByPlatformId } from './queries.ts';
import { conversationFor, insertMessage, touchConversation } from './records.ts';

export type InboundAccount = Pick<AccountRow, 'id' | 'organization_id' | 'platform' | 'external_id' | 'platform_user_id'>;

/**
 * An echo, delivery or read receipt arrived while the service's own send to that person was in
 * flight: the job fails and runs again with its kind's backoff (1 s, 4 s, 16 s, 64 s: past the
 * 60 s hold at the latest), by when the send has stored the message id or cleared the mark. An
 * echo recorded now would store our message twice; a receipt would miss the message it covers.
 */
export class SendInFlight extends Error {
  constructor(kind: MessagingItem['kind']) {
    super(`a ${kind} arrived while a send to the person is in flight; processed again later`);
    this.name = 'SendInFlight';
  }
}

const WAITS_FOR_SEND: ReadonlySet<MessagingItem['kind']> = new Set(['echo', 'delivery', 'read']);

const profileKey = (accountId: string, participantId: string) => `${accountId}:${participantId}`;

/** The accounts of every organization connected to the items' Pages and Instagram accounts. */
export async function accountsOf(db: Kysely<Database>, items: MessagingItem[]): Promise<AccountRow[]> {
  const pairs = [...new Set(items.map((i) => `${i.platform}:${i.accountPlatformId}`))];
  const rows: AccountRow[] = [];
  for (const pair of pairs) {
    const [platform = '', id = ''] = pair.split(/:(.*)/s);
    rows.push(...(await accountsByPlatformId.execute(db, platform, id)).rows);
  }
  return rows;
}

/** Profiles of the people who have no conversation with the account yet, read from the platform. */
export async function prepareProfiles(deps: Pick<AppDeps, 'store' | 'sealer' | 'platforms'>, accounts: AccountRow[], items: MessagingItem[]): Promise<Map<string, MessagingParticipant>> {
  const profiles = new Map<string, MessagingParticipant>();
  for (const item of items) {
    for (const account of accounts.filter((a) => a.platform === item.platform && a.platform_user_id === item.accountPlatformId)) {
      const key = profileKey(account.id, item.participantId);
      if (profiles.has(key)) continue;
      const [known] = (await conversationExists.execute(deps.store.db, account.id, item.participantId)).rows;
      if (known) continue;
      const messaging = deps.platforms.of(account.platform)?.messaging;
      let profile: MessagingParticipant = { id: item.participantId, username: null, name: null };
      if (messaging && account.status === 'active') {
        try {
          profile = await messaging.profile(credentialsOf(account, deps.sealer), item.participantId);
        } catch {
          // The profile is a courtesy: the message is recorded without it.
        }
      }
      profiles.set(key, profile);
    }
  }
  return profiles;
}

/** True when the item was new and its event emitted. */
export async function recordMessagingItem(ctx: EmitContext, account: InboundAccount, item: MessagingItem, profiles: Map<string, MessagingParticipant>, receivedAt: number): Promise<boolean> {
  const { db, now } = ctx;
  if (item.kind === 'echo' && item.mid) {
    const [ours] = (await messageByPlatformId.execute(db, account.id, item.mid)).rows;
    if (ours) return false;
  }
  const participant = profiles.get(profileKey(account.id, item.participantId)) ?? { id: item.participantId, username: null, name: null };
  const conversation = await conversationFor(db, account, participant, item.timestamp, now);
  if (WAITS_FOR_SEND.has(item.kind) && conversation.sending_until !== null && Number(conversation.sending_until) > now) throw new SendInFlight(item.kind);
  if (item.kind === 'echo' && item.mid) {
    // On PostgreSQL the send's transaction (the message stored, the mark cleared) may have
    // committed between the first look and the conversation's read: a second look finds it.
    const [ours] = (await messageByPlatformId.execute(db, account.id, item.mid)).rows;
    if (ours) return false;
  }

  // The event's data is known before the inbox row is written (reads only); the writes follow
  // once that row says the event is new.
  const eventId = newId('event', now);
  const plan = await planOf(db, conversation, item, now);
  let data = messageEventData(eventId, account, conversation, plan.facts, receivedAt);
  if (!(await recordInboxMessage(db, { eventId, organizationId: account.organization_id, accountId: account.id, platform: account.platform, dedupeKey: item.dedupeKey, data, receivedAt }))) return false;
  const corrected = await plan.write();
  if (corrected) {
    data = messageEventData(eventId, account, conversation, corrected, receivedAt);
    await db.updateTable('inbox_events').set({ data: JSON.stringify(data) }).where('id', '=', eventId).execute();
  }
  await emitMessageEvent(ctx, account.organization_id, plan.type, data);
  return true;
}

interface Plan {
  type: MessageEventType;
  facts: MessageFacts;
  /** The item's effect on the store; other facts when the store held something unforeseen. */
  write(): Promise<MessageFacts | null>;
}

async function planOf(db: Kysely<Database>, conversation: ConversationRow, item: MessagingItem, now: number): Promise<Plan> {
  switch (item.kind) {
    case 'message':
    case 'postback':
    case 'echo': {
      const direction = item.kind === 'echo' ? 'outbound' : 'inbound';
      const id = newId('message', now);
      const facts: MessageFacts = { messageId: id, platformMessageId: item.mid, direction, text: item.text, attachments: item.attachments, postback: item.postback, sentAt: item.timestamp };
      return {
        type: direction === 'inbound' ? 'message.received' : 'message.sent',
        facts,
        async write() {
          const stored = await insertMessage(db, conversation, {
            id,
            direction,
            platformMessageId: item.mid,
            text: item.text,
            attachments: item.attachments,
            status: direction === 'inbound' ? 'delivered' : 'sent',
            sentAt: item.timestamp,
            postback: item.postback,
          }, now);
          if (stored) {
            await touchConversation(db, conversation.id, stored, now, direction === 'inbound' ? 1 : 0);
            return null;
          }
          // Stored already by a sync: the event names that message.
          const known = item.mid ? await storedByMid(db, conversation, item.mid) : undefined;
          return { ...facts, messageId: known?.id ?? null };
        },
      };
    }
    case 'read': {
      // Everything the account sent up to the watermark (Messenger) or the message read (Instagram).
      const read = item.mid ? await storedByMid(db, conversation, item.mid) : undefined;
      const upTo = item.watermark ?? (read ? Number(read.sent_at) : null);
      return {
        type: 'message.read',
        facts: { messageId: read?.id ?? null, platformMessageId: item.mid, direction: 'outbound', text: null, watermark: item.watermark, sentAt: item.timestamp },
        async write() {
          if (upTo !== null) {
            await db.updateTable('messages').set({ status: 'read' }).where('conversation_id', '=', conversation.id).where('direction', '=', 'outbound').where('sent_at', '<=', upTo).where('status', 'in', ['sent', 'delivered']).execute();
          }
          return null;
        },
      };
    }
    case 'delivery': {
      const first = item.mid ? await storedByMid(db, conversation, item.mid) : undefined;
      return {
        type: 'message.delivered',
        facts: { messageId: first?.id ?? null, platformMessageId: item.mid, platformMessageIds: item.mids, direction: 'outbound', text: null, watermark: item.watermark, sentAt: item.timestamp },
        async write() {
          if (item.mids.length) {
            await db.updateTable('messages').set({ status: 'delivered' }).where('account_id', '=', conversation.account_id).where('platform_message_id', 'in', item.mids).where('status', '=', 'sent').execute();
          }
          if (item.watermark !== null) {
            await db.updateTable('messages').set({ status: 'delivered' }).where('conversation_id', '=', conversation.id).where('direction', '=', 'outbound').where('sent_at', '<=', item.watermark).where('status', '=', 'sent').execute();
          }
          return null;
        },
      };
    }
    case 'reaction': {
      const target = item.mid ? await storedByMid(db, conversation, item.mid) : undefined;
      return {
        type: 'message.reaction',
        facts: { messageId: target?.id ?? null, platformMessageId: item.mid, direction: target?.direction ?? 'outbound', text: target?.text ?? null, reaction: item.reaction, sentAt: item.timestamp },
        async write() {
          if (target) await db.updateTable('messages').set({ reaction: item.reaction?.action === 'react' ? item.reaction.emoji : null }).where('id', '=', target.id).execute();
          return null;
        },
      };
    }
    default: {
      const unreachable: never = item.kind;
      return unreachable;
    }
  }
}

async function storedByMid(db: Kysely<Database>, conversation: ConversationRow, mid: string): Promise<MessageRow | undefined> {
  return (await messageByPlatformId.execute(db, conversation.account_id, mid)).rows[0];
}
