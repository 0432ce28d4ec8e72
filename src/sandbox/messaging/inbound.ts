// What people do in Messenger and Instagram Direct, driven by the control API (issue 3, point 7):
// send a message (opens the 24-hour window), react, read, press a postback button. Each stores
// its effect and sends the webhook the platform sends (platforms.md §8.5, §2.9): Messenger on
// object `page` (`messages`, `message_reactions`, `message_reads`, `messaging_postbacks`),
// Instagram on object `instagram` (`messages`, `message_reactions`, `messaging_seen`,
// `messaging_postbacks`).
import type { SandboxState } from '../core/state.ts';
import { emitMessaging } from '../meta/events.ts';
import { conversationWith, messageId, personFor, type PersonInput } from './persons.ts';
import { echo, storeMessage } from './send.ts';
import type { Attachment, Message, Person } from './store.ts';

export interface InboundMessage {
  accountId: string;
  from?: PersonInput | undefined;
  text?: string | undefined;
  attachments?: Attachment[] | undefined;
  /** The mid this message replies to. */
  replyTo?: string | undefined;
}

const objectOf = (person: Person) => (person.platform === 'messenger' ? 'page' : 'instagram');

export function personSendsMessage(state: SandboxState, input: InboundMessage): { person: Person; message: Message } {
  if (!input.text && !input.attachments?.length) throw new Error('text or attachments: required');
  const person = personFor(state, input.accountId, input.from);
  const conversation = conversationWith(state, person);
  const now = state.clock.now();
  const message: Message = {
    id: messageId(state, person.platform),
    conversationId: conversation.id,
    fromId: person.id,
    toId: input.accountId,
    text: input.text ?? null,
    attachments: input.attachments ?? [],
    createdAt: now,
    reactions: [],
  };
  state.meta.messages.set(message.id, message);
  conversation.messageIds.push(message.id);
  conversation.updatedAt = now;
  conversation.lastInboundAt = now;
  const body: Record<string, unknown> = { mid: message.id };
  if (message.text !== null) body.text = message.text;
  if (message.attachments.length) body.attachments = message.attachments;
  if (input.replyTo) body.reply_to = { mid: input.replyTo };
  emitMessaging(state, objectOf(person), input.accountId, 'messages', { sender: { id: person.id }, recipient: { id: input.accountId }, message: body });
  return { person, message };
}

function knownMessage(state: SandboxState, mid: string): { message: Message; person: Person } {
  const message = state.meta.messages.get(mid);
  const conversation = message ? state.meta.conversations.get(message.conversationId) : undefined;
  const person = conversation ? state.meta.persons.get(conversation.personId) : undefined;
  if (!message || !person) throw new Error(`no message ${mid}`);
  return { message, person };
}

/** The person reacts to (or unreacts from) a message of the conversation. */
export function personReacts(state: SandboxState, input: { mid: string; reaction?: string | undefined; action?: 'react' | 'unreact' | undefined }): Message {
  const { message, person } = knownMessage(state, input.mid);
  const action = input.action ?? 'react';
  const reaction = input.reaction ?? 'love';
  message.reactions = message.reactions.filter((r) => r.personId !== person.id);
  if (action === 'react') message.reactions.push({ personId: person.id, reaction });
  const body: Record<string, unknown> = { mid: message.id, action };
  if (action === 'react') Object.assign(body, { reaction, emoji: EMOJI[reaction] ?? '❤' });
  emitMessaging(state, objectOf(person), person.accountId, 'message_reactions', { sender: { id: person.id }, recipient: { id: person.accountId }, reaction: body });
  return message;
}

const EMOJI: Record<string, string> = { love: '❤', like: '👍', haha: '😆', wow: '😮', sad: '😢', angry: '😡', smile: '😊' };

/** The person reads the conversation up to now (Messenger watermark; Instagram the last mid). */
export function personReads(state: SandboxState, input: { accountId: string; person: PersonInput }): { watermark: number; mid: string | null } {
  const person = personFor(state, input.accountId, input.person);
  const conversation = conversationWith(state, person);
  const watermark = state.clock.now();
  const mid = conversation.messageIds.at(-1) ?? null;
  const sender = { sender: { id: person.id }, recipient: { id: person.accountId } };
  if (person.platform === 'messenger') emitMessaging(state, 'page', person.accountId, 'message_reads', { ...sender, read: { watermark } });
  else emitMessaging(state, 'instagram', person.accountId, 'messaging_seen', { ...sender, read: { mid } });
  return { watermark, mid };
}

/** The person presses a button (Get Started, a postback button, an ice breaker). */
export function personPostback(state: SandboxState, input: { accountId: string; person?: PersonInput | undefined; title: string; payload: string }): Person {
  const person = personFor(state, input.accountId, input.person);
  const conversation = conversationWith(state, person);
  conversation.lastInboundAt = state.clock.now();
  const postback = { mid: messageId(state, person.platform), title: input.title, payload: input.payload };
  emitMessaging(state, objectOf(person), person.accountId, 'messaging_postbacks', { sender: { id: person.id }, recipient: { id: person.accountId }, postback });
  return person;
}

/** The person blocks the account (or unblocks it): the Send API then answers 551/1545041. */
export function personBlocks(state: SandboxState, input: { accountId: string; person: PersonInput; blocked: boolean }): Person {
  const person = personFor(state, input.accountId, input.person);
  person.blocked = input.blocked;
  return person;
}

/** The Page inbox app's id on Messenger echoes of messages written in Meta's own apps. */
export const PAGE_INBOX_APP_ID = '263902037430900';

/**
 * Someone at the account answers from the platform's own app (Instagram, Meta Business Suite),
 * not through any API: stored as the account's message, with its echo (and Messenger's
 * delivery), as the Send API would; the platform's window rules do not apply to its own inbox.
 */
export function accountWritesFromApp(state: SandboxState, input: { accountId: string; person: PersonInput; text: string }): { mid: string; recipientId: string } {
  if (!input.text) throw new Error('text: required');
  const person = personFor(state, input.accountId, input.person);
  const conversation = conversationWith(state, person);
  const message = storeMessage(state, conversation, input.accountId, person.id, input.text, []);
  echo(state, person.platform, input.accountId, person, message, PAGE_INBOX_APP_ID, undefined);
  return { mid: message.id, recipientId: person.id };
}
