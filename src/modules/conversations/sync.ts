// Backfill from the platform. POST /inbox/conversations/sync reads the account's conversations
// (`limit` a page, up to `pages` pages, the platform's paging) and the latest messages of each,
// stores what is new (a message already stored, from a webhook or an earlier sync, is kept as
// it is) and marks the account synced. POST /inbox/conversations/{id}/sync reads one
// conversation's latest messages, and only after the account's sync (409 sync_required), since
// until then the service does not know the platform's conversations. Backfilled history emits
// no events and leaves unread as it was; the person's last message does move the window.
import type { Kysely } from 'kysely';
import type { AccountRow, ConversationRow, Database } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { apiError } from '../../http/errors.ts';
import type { Messaging, MessagingPage, MessagingParticipant, PlatformConversation, PlatformMessage } from '../../platforms/types.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { conversationAccount, messagingOf, requireMessagingPermission, type ConversationDeps } from './access.ts';
import { conversationFor, findConversation, insertMessage, presentConversation, touchConversation } from './records.ts';
import type { ConversationView } from './schemas.ts';

/** Messages read per conversation by the account's sync. */
const MESSAGES_PER_CONVERSATION = 25;

interface Fetched {
  conversation: PlatformConversation;
  participant: MessagingParticipant;
  messages: PlatformMessage[];
}

async function storeFetched(db: Kysely<Database>, account: AccountRow, fetched: Fetched, now: number): Promise<{ row: ConversationRow; stored: number }> {
  // A new conversation starts at its oldest fetched message; storing the messages moves it forward.
  const times = fetched.messages.map((m) => m.createdAt ?? now);
  const start = times.length ? Math.min(...times) : (fetched.conversation.updatedAt ?? now);
  const row = await conversationFor(db, account, fetched.participant, start, now, fetched.conversation.id || null);
  let stored = 0;
  // Oldest first, so the conversation's latest message ends as the newest one.
  for (const message of [...fetched.messages].reverse()) {
    const direction = message.fromId === account.platform_user_id ? 'outbound' : 'inbound';
    const sentAt = message.createdAt ?? now;
    const inserted = await insertMessage(db, row, { direction, platformMessageId: message.id || null, text: message.text, attachments: message.attachments, status: direction === 'inbound' ? 'delivered' : 'sent', sentAt }, now);
    if (!inserted) continue;
    stored++;
    await touchConversation(db, row.id, inserted, now);
  }
  return { row, stored };
}

async function participantOf(deps: ConversationDeps, messaging: Messaging, account: AccountRow, conversation: PlatformConversation): Promise<MessagingParticipant | null> {
  const person = conversation.participant;
  if (!person?.id) return null;
  const known = await deps.store.db.selectFrom('conversations').select('id').where('account_id', '=', account.id).where('participant_id', '=', person.id).executeTakeFirst();
  if (known || (person.name && (person.username || account.platform === 'facebook'))) return person;
  // First seen: the profile has what the participant list may not (Instagram names).
  const profile = await callPlatform(deps, account, (c) => messaging.profile(c, person.id)).catch(() => null);
  return { id: person.id, username: profile?.username ?? person.username, name: profile?.name ?? person.name };
}

export async function syncAccount(deps: ConversationDeps, tenant: Tenant, input: { accountId: string; limit: number; pages: number }): Promise<{ conversations: ConversationView[]; messagesStored: number }> {
  const account = await conversationAccount(tenant, input.accountId);
  const messaging = messagingOf(deps, account.platform);
  requireMessagingPermission(deps, messaging, account);
  const fetched: Fetched[] = [];
  let after: string | null = null;
  for (let page = 0; page < input.pages; page++) {
    const cursor: string | null = after;
    const answer: MessagingPage<PlatformConversation> = await callPlatform(deps, account, (c) => messaging.conversations(c, { limit: input.limit, after: cursor }));
    for (const conversation of answer.items) {
      const participant = await participantOf(deps, messaging, account, conversation);
      if (!participant) continue;
      const messages = await callPlatform(deps, account, (c) => messaging.messages(c, conversation.id, { limit: MESSAGES_PER_CONVERSATION, after: null }));
      fetched.push({ conversation, participant, messages: messages.items });
    }
    after = answer.after;
    if (!after) break;
  }
  const now = deps.clock.now();
  const result = await deps.store.db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    let messagesStored = 0;
    for (const item of fetched) {
      const { row, stored } = await storeFetched(trx, account, item, now);
      ids.push(row.id);
      messagesStored += stored;
    }
    await trx
      .insertInto('conversation_syncs')
      .values({ account_id: account.id, organization_id: account.organization_id, synced_at: now })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ synced_at: now }))
      .execute();
    const rows = ids.length ? await trx.selectFrom('conversations').selectAll().where('id', 'in', ids).orderBy('last_message_at', 'desc').orderBy('id', 'desc').execute() : [];
    return { conversations: rows.map((r) => presentConversation(r, now)), messagesStored };
  });
  return result;
}

export async function syncConversation(deps: ConversationDeps, tenant: Tenant, id: string, limit: number): Promise<{ conversation: ConversationView; messagesStored: number }> {
  const conversation = await findConversation(tenant, id);
  const account = await conversationAccount(tenant, conversation.account_id);
  const messaging = messagingOf(deps, conversation.platform);
  const synced = await tenant.selectFrom('conversation_syncs').select('synced_at').where('account_id', '=', account.id).executeTakeFirst();
  if (!synced) throw apiError('sync_required', "Sync the account's conversations first (POST /inbox/conversations/sync with its accountId)");
  requireMessagingPermission(deps, messaging, account);
  // A conversation first met through a webhook has no platform id yet: the platform finds it by the person.
  const platformConversation = conversation.platform_conversation_id
    ? { id: conversation.platform_conversation_id, updatedAt: null, participant: null }
    : await callPlatform(deps, account, (c) => messaging.conversationWith(c, conversation.participant_id));
  const messages = platformConversation ? (await callPlatform(deps, account, (c) => messaging.messages(c, platformConversation.id, { limit, after: null }))).items : [];
  const now = deps.clock.now();
  const participant = { id: conversation.participant_id, username: conversation.participant_username, name: conversation.participant_name };
  return deps.store.db.transaction().execute(async (trx) => {
    const { stored } = platformConversation ? await storeFetched(trx, account, { conversation: platformConversation, participant, messages }, now) : { stored: 0 };
    const row = await trx.selectFrom('conversations').selectAll().where('id', '=', conversation.id).executeTakeFirstOrThrow();
    return { conversation: presentConversation(row, now), messagesStored: stored };
  });
}
