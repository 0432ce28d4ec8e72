// The Conversations API (platforms.md §2.8, §3.4): `/{page-id}/conversations?platform=messenger|
// instagram[&user_id=]`, `/{ig-user-id}/conversations`, the conversation node (`participants`,
// `messages`), the message node, and the person's profile (`/{PSID|IGSID}?fields=name,…`).
// Messenger participants carry `email: {PSID}@facebook.com`; Instagram ones a `username`.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { graphTime } from '../meta/store.ts';
import type { Conversation, Message, Person } from './store.ts';

/** Checks the token may read the inbox of an account (Page or Instagram); set by the hosts. */
export type InboxGuard = (ctx: RouteContext, input: GraphInput, accountId: string) => void;

function participant(state: SandboxState, id: string): Record<string, unknown> {
  const person = state.meta.persons.get(id);
  if (person?.platform === 'instagram') return { username: person.username, id };
  if (person) return { name: person.name, email: `${id}@facebook.com`, id };
  const page = state.people.pages.get(id);
  if (page) return { name: page.name, email: `${id}@facebook.com`, id };
  const account = state.people.instagramAccounts.get(id);
  return { username: account?.username ?? 'unknown', id };
}

export function messageFields(state: SandboxState, message: Message, input: GraphInput | null) {
  return selectFields(
    'Message',
    {
      id: () => message.id,
      created_time: () => graphTime(message.createdAt),
      from: () => participant(state, message.fromId),
      to: () => ({ data: [participant(state, message.toId)] }),
      message: () => message.text ?? '',
      attachments: () => (message.attachments.length ? { data: message.attachments.map((a) => ({ type: a.type, ...a.payload })) } : undefined),
      reactions: () => (message.reactions.length ? { data: message.reactions.map((r) => ({ reaction: r.reaction, users: [participant(state, r.personId)] })) } : undefined),
    },
    input ? parseFields(str(input, 'fields')) : null,
    ['id', 'created_time'],
  );
}

export function conversationFields(state: SandboxState, conversation: Conversation, input: GraphInput | null) {
  const messages = () => [...conversation.messageIds].reverse().flatMap((id) => {
    const m = state.meta.messages.get(id);
    return m ? [m] : [];
  });
  return selectFields(
    'Conversation',
    {
      id: () => conversation.id,
      updated_time: () => graphTime(conversation.updatedAt),
      message_count: () => conversation.messageIds.length,
      unread_count: () => 0,
      participants: () => ({ data: [participant(state, conversation.personId), participant(state, conversation.accountId)] }),
      messages: () => ({ data: messages().map((m) => messageFields(state, m, { fields: 'id,created_time,from,to,message,attachments' })) }),
      snippet: () => messages()[0]?.text ?? '',
    },
    input ? parseFields(str(input, 'fields')) : null,
    ['id', 'updated_time'],
  );
}

/** GET …/conversations for one account's inbox, newest first, optionally one person's. */
export function listConversations(ctx: RouteContext, input: GraphInput, accountId: string) {
  const userId = str(input, 'user_id');
  const rows = [...ctx.state.meta.conversations.values()]
    .filter((c) => c.accountId === accountId && (!userId || c.personId === userId))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .map((c) => conversationFields(ctx.state, c, input));
  return pageOf(ctx, input, rows);
}

export function messagingNodes(guard: InboxGuard) {
  const conversationNode = defineNode<Conversation>({
    type: 'Conversation',
    find: (state, id) => state.meta.conversations.get(id),
    get({ ctx, input, node }) {
      guard(ctx, input, node.accountId);
      return conversationFields(ctx.state, node, input);
    },
    edges: {
      messages: {
        get({ ctx, input, node }) {
          guard(ctx, input, node.accountId);
          const rows = [...node.messageIds].reverse().flatMap((id) => {
            const m = ctx.state.meta.messages.get(id);
            return m ? [messageFields(ctx.state, m, input)] : [];
          });
          return pageOf(ctx, input, rows);
        },
      },
    },
  });
  const messageNode = defineNode<Message>({
    type: 'Message',
    find: (state, id) => state.meta.messages.get(id),
    get({ ctx, input, node }) {
      const conversation = ctx.state.meta.conversations.get(node.conversationId);
      if (!conversation) throw unsupportedRequest('GET', node.id);
      guard(ctx, input, conversation.accountId);
      return messageFields(ctx.state, node, input);
    },
  });
  const personNode = defineNode<Person>({
    type: 'User',
    find: (state, id) => state.meta.persons.get(id),
    get({ ctx, input, node }) {
      guard(ctx, input, node.accountId);
      const [first = '', ...rest] = node.name.split(' ');
      const fields = {
        id: () => node.id,
        name: () => node.name,
        first_name: () => first,
        last_name: () => rest.join(' '),
        username: () => (node.platform === 'instagram' ? node.username : undefined),
        profile_pic: () => `https://sandbox.invalid/avatars/${node.id}.jpg`,
        follower_count: () => (node.platform === 'instagram' ? 42 : undefined),
        is_user_follow_business: () => true,
        is_business_follow_user: () => false,
        is_verified_user: () => false,
      };
      return selectFields('User', fields, parseFields(str(input, 'fields')), ['id', 'name']);
    },
  });
  return [conversationNode, messageNode, personNode];
}
