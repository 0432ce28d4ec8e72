// The people who write to a Page or an Instagram account (PSIDs and IGSIDs, scoped to the
// account as on the platforms, §2.8, §3.3), and their conversations: created on first contact
// through the control API (a comment, a message), found again by id, name or username.
import type { SandboxState } from '../core/state.ts';
import type { Conversation, MessagingPlatform, Person } from './store.ts';

export interface PersonInput {
  id?: string | undefined;
  name?: string | undefined;
  username?: string | undefined;
}

export function platformOf(state: SandboxState, accountId: string): MessagingPlatform | null {
  if (state.people.pages.has(accountId)) return 'messenger';
  if (state.people.instagramAccounts.has(accountId)) return 'instagram';
  return null;
}

export function personFor(state: SandboxState, accountId: string, input: PersonInput = {}): Person {
  const platform = platformOf(state, accountId);
  if (!platform) throw new Error(`no Page or Instagram account ${accountId}`);
  if (input.id) {
    const known = state.meta.persons.get(input.id);
    if (!known || known.accountId !== accountId) throw new Error(`no person ${input.id} for account ${accountId}`);
    return known;
  }
  const name = input.name ?? (input.username ? input.username : 'Dana Whitfield');
  const username = input.username ?? name.toLowerCase().replace(/[^a-z0-9]+/g, '.');
  const existing = [...state.meta.persons.values()].find((p) => p.accountId === accountId && p.username === username);
  if (existing) return existing;
  const person: Person = {
    id: platform === 'messenger' ? state.ids.numeric('psid', '2', 16) : state.ids.numeric('igsid', '1', 17),
    accountId,
    platform,
    name,
    username,
  };
  state.meta.persons.set(person.id, person);
  return person;
}

export function conversationWith(state: SandboxState, person: Person): Conversation {
  const existing = [...state.meta.conversations.values()].find((c) => c.accountId === person.accountId && c.personId === person.id);
  if (existing) return existing;
  const conversation: Conversation = {
    id: person.platform === 'messenger' ? `t_${state.ids.numeric('fb-thread', '1', 16)}` : Buffer.from(`ig_t:${state.ids.numeric('ig-thread', '3', 17)}`).toString('base64url'),
    platform: person.platform,
    accountId: person.accountId,
    personId: person.id,
    updatedAt: state.clock.now(),
    lastInboundAt: null,
    messageIds: [],
  };
  state.meta.conversations.set(conversation.id, conversation);
  return conversation;
}

export function messageId(state: SandboxState, platform: MessagingPlatform): string {
  return platform === 'messenger' ? `m_${state.ids.opaque('fb-mid', 86)}` : Buffer.from(`ig_item:${state.ids.opaque('ig-mid', 40)}`).toString('base64url');
}
