// The conversation reads and local changes (contract "Direct messages", DESIGN §2): lists from
// the store, latest first for conversations and a page oldest to newest for messages, each one
// index range from its cursor; archiving; marking read (with the platform's seen mark unless
// `platform: false`). Sends are send.ts's, syncs sync.ts's.
import { sql } from 'kysely';
import type { ConversationStatus } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { conversationAccount, messagingOf, requireMessagingPermission, type ConversationDeps } from './access.ts';
import { decodePosition, encodePosition } from './cursors.ts';
import { findConversation, presentConversation, presentMessage } from './records.ts';
import type { ConversationView, MessageView } from './schemas.ts';
import { markSeenOnWhatsApp } from '../whatsapp/inbox.ts';

export interface ConversationQuery {
  accountId?: string | undefined;
  platform?: string | undefined;
  status?: ConversationStatus | undefined;
  unread?: boolean | undefined;
  limit: number;
  cursor?: string | undefined;
}

export async function listConversations(deps: ConversationDeps, tenant: Tenant, query: ConversationQuery): Promise<{ conversations: ConversationView[]; cursor: string | null }> {
  const from = decodePosition('cursor', query.cursor);
  if (query.accountId !== undefined) await conversationAccount(tenant, query.accountId);
  const rows = await tenant
    .selectFrom('conversations')
    .selectAll()
    .$if(query.accountId !== undefined, (qb) => qb.where('account_id', '=', query.accountId ?? ''))
    .$if(query.platform !== undefined, (qb) => qb.where('platform', '=', query.platform ?? ''))
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status ?? 'active'))
    .$if(query.unread === true, (qb) => qb.where('unread', '>', 0))
    .$if(from !== null, (qb) => qb.where((eb) => eb(eb.refTuple('last_message_at', 'id'), '<', eb.tuple(from?.at ?? 0, from?.id ?? ''))))
    .orderBy('last_message_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const now = deps.clock.now();
  return { conversations: page.map((r) => presentConversation(r, now)), cursor: rows.length > query.limit && last ? encodePosition(Number(last.last_message_at), last.id) : null };
}

export async function getConversation(deps: ConversationDeps, tenant: Tenant, id: string): Promise<ConversationView> {
  return presentConversation(await findConversation(tenant, id), deps.clock.now());
}

export async function updateConversation(deps: ConversationDeps, tenant: Tenant, id: string, status: ConversationStatus): Promise<ConversationView> {
  const row = await findConversation(tenant, id);
  const now = deps.clock.now();
  await tenant.updateTable('conversations').set({ status, updated_at: now }).where('id', '=', row.id).execute();
  return presentConversation({ ...row, status, updated_at: now }, now);
}

/** One page, oldest to newest, of the messages before `before` (the newest when absent). */
export async function listMessages(tenant: Tenant, id: string, query: { limit: number; before?: string | undefined }): Promise<{ messages: MessageView[]; nextBefore: string | null }> {
  const before = decodePosition('before', query.before);
  const conversation = await findConversation(tenant, id);
  const rows = await tenant
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', conversation.id)
    .$if(before !== null, (qb) => qb.where((eb) => eb(eb.refTuple('sent_at', 'id'), '<', eb.tuple(before?.at ?? 0, before?.id ?? ''))))
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit).reverse();
  const oldest = page[0];
  return { messages: page.map(presentMessage), nextBefore: rows.length > query.limit && oldest ? encodePosition(Number(oldest.sent_at), oldest.id) : null };
}

/** Marks the person's messages read here and, unless `platform` is false, seen on the platform. */
export async function markRead(deps: ConversationDeps, tenant: Tenant, id: string, platform: boolean): Promise<ConversationView> {
  const conversation = await findConversation(tenant, id);
  if (platform && conversation.platform === 'whatsapp') await markSeenOnWhatsApp(deps, tenant, conversation);
  else if (platform) {
    const account = await conversationAccount(tenant, conversation.account_id);
    const messaging = messagingOf(deps, conversation.platform);
    requireMessagingPermission(deps, messaging, account);
    await callPlatform(deps, account, (c) => messaging.markSeen(c, conversation.participant_id));
  }
  const now = deps.clock.now();
  await deps.store.db.transaction().execute(async (trx) => {
    const scoped = tenant.with(trx);
    await scoped.updateTable('conversations').set({ unread: 0, updated_at: now }).where('id', '=', conversation.id).execute();
    await scoped.updateTable('messages').set({ status: 'read' }).where('conversation_id', '=', conversation.id).where('direction', '=', 'inbound').where('status', '<>', sql.lit('read')).execute();
  });
  return presentConversation({ ...conversation, unread: 0, updated_at: now }, now);
}

