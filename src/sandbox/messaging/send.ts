// The Send API (platforms.md §2.8, §3.3): POST /{page-id}/messages (also /me/messages with a
// Page token) and POST /{ig-user-id}/messages. Rules: the person must have written first; a
// message is allowed within 24 h of their last message, or with MESSAGE_TAG + HUMAN_AGENT within
// 7 days; outside, 10/2018278 (Messenger) or 10/2534022 (Instagram). A private reply
// (`recipient.comment_id`) is allowed once per comment within 7 days. Sending also sends the
// echo (Messenger `message_echoes`, Instagram `messages` with is_echo) and, on Messenger, the
// `message_deliveries` webhook.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { fetchMedia } from '../media/fetch.ts';
import { emitMessaging } from '../meta/events.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { conversationWith, messageId, personFor } from './persons.ts';
import type { Attachment, Conversation, Message, MessagingPlatform, Person } from './store.ts';

const DAY_MS = 86_400_000;
const TEXT_LIMIT = 2000;
const ATTACHMENT_MAX = 25 * 1024 * 1024;
/** ACCOUNT_UPDATE, CONFIRMED_EVENT_UPDATE and POST_PURCHASE_UPDATE end on 27 April 2026 (§3.3). */
const UPDATE_TAGS_END = Date.UTC(2026, 3, 27);
const UPDATE_TAGS = ['ACCOUNT_UPDATE', 'CONFIRMED_EVENT_UPDATE', 'POST_PURCHASE_UPDATE'];

export function objectParam(input: GraphInput, key: string): Record<string, unknown> | undefined {
  let value = input[key];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidParameter(`(#100) Param ${key} must be a JSON object`);
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const noUser = (platform: MessagingPlatform) =>
  platform === 'messenger' ? invalidParameter('(#100) No matching user found', 2018001) : invalidParameter('(#100) No matching user found', 2534014);

function outsideWindow(platform: MessagingPlatform) {
  return platform === 'messenger'
    ? graphError({ code: 10, subcode: 2018278, message: '(#10) This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview' })
    : graphError({ code: 10, subcode: 2534022, message: '(#10) This message is sent outside of allowed window.' });
}

/** `accountId` is the Page or Instagram account sending; `appId` the calling app (echoes carry it). */
export async function sendApi(ctx: RouteContext, input: GraphInput, accountId: string, platform: MessagingPlatform, appId: string): Promise<Record<string, unknown>> {
  const state = ctx.state;
  const recipient = objectParam(input, 'recipient');
  if (!recipient) throw invalidParameter('(#100) param recipient must be non-empty.');
  const action = str(input, 'sender_action');
  const message = objectParam(input, 'message');
  if (!action && !message) throw invalidParameter('(#100) Must send either message or sender_action');
  const commentId = typeof recipient.comment_id === 'string' ? recipient.comment_id : undefined;
  const person = commentId ? commentAuthor(state, accountId, platform, commentId) : personById(state, accountId, platform, recipient.id);
  const conversation = conversationWith(state, person);
  if (person.blocked) throw graphError({ code: 551, subcode: 1545041, message: "(#551) This person isn't available right now." });
  if (commentId) {
    if (state.meta.privateReplies.has(commentId)) throw graphError({ code: 10, subcode: 2018278, message: '(#10) A private reply has already been sent to this comment.' });
  } else {
    checkWindow(state, input, conversation, platform);
  }
  if (action) return senderAction(state, input, person, conversation, action);
  if (platform === 'messenger' && !str(input, 'messaging_type') && !commentId) {
    throw invalidParameter('(#100) param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG}');
  }
  const text = typeof message?.text === 'string' ? message.text : null;
  if (text !== null && [...text].length > TEXT_LIMIT) throw invalidParameter(`(#100) Length of param message[text] must be less than or equal to ${TEXT_LIMIT}`);
  const attachments = await attachmentOf(ctx, message?.attachment);
  if (text === null && !attachments.length) throw invalidParameter('(#100) Param message must contain text or attachment');
  if (commentId) state.meta.privateReplies.add(commentId);
  const stored = storeMessage(state, conversation, accountId, person.id, text, attachments);
  echo(state, platform, accountId, person, stored, appId, message);
  return { recipient_id: person.id, message_id: stored.id };
}

function personById(state: SandboxState, accountId: string, platform: MessagingPlatform, id: unknown): Person {
  const person = typeof id === 'string' ? state.meta.persons.get(id) : undefined;
  if (!person || person.accountId !== accountId || person.platform !== platform) throw noUser(platform);
  return person;
}

/** Private replies: the author of a comment on the account's own post or media, within 7 days. */
function commentAuthor(state: SandboxState, accountId: string, platform: MessagingPlatform, commentId: string): Person {
  const fb = state.meta.fbComments.get(commentId);
  const ig = state.meta.igComments.get(commentId);
  const owner = fb ? fb.pageId : ig ? state.meta.igMedia.get(ig.mediaId)?.accountId : undefined;
  const createdAt = fb?.createdAt ?? ig?.createdAt ?? 0;
  const authorId = fb?.fromId ?? ig?.fromId;
  const author = authorId ? state.meta.persons.get(authorId) : undefined;
  if (owner !== accountId || !author) throw invalidParameter('(#100) Invalid comment_id for a private reply', platform === 'messenger' ? 2018001 : 2534014);
  if (state.clock.now() - createdAt > 7 * DAY_MS) throw outsideWindow(platform);
  return personFor(state, accountId, { id: author.id });
}

function checkWindow(state: SandboxState, input: GraphInput, conversation: Conversation, platform: MessagingPlatform): void {
  const since = conversation.lastInboundAt === null ? Infinity : state.clock.now() - conversation.lastInboundAt;
  if (since <= DAY_MS) return;
  const tag = str(input, 'tag');
  if (str(input, 'messaging_type') === 'MESSAGE_TAG' || (platform === 'instagram' && tag)) {
    if (tag === 'HUMAN_AGENT' && since <= 7 * DAY_MS) return;
    if (platform === 'messenger' && tag && UPDATE_TAGS.includes(tag)) {
      if (state.clock.now() >= UPDATE_TAGS_END) throw invalidParameter(`(#100) The ${tag} message tag is no longer supported`);
      return;
    }
  }
  throw outsideWindow(platform);
}

function senderAction(state: SandboxState, input: GraphInput, person: Person, conversation: Conversation, action: string): Record<string, unknown> {
  const actions = person.platform === 'instagram' ? ['typing_on', 'typing_off', 'mark_seen', 'react', 'unreact'] : ['typing_on', 'typing_off', 'mark_seen'];
  if (!actions.includes(action)) throw invalidParameter(`(#100) param sender_action must be one of {${actions.join(', ')}}`);
  if (action === 'react' || action === 'unreact') {
    const payload = objectParam(input, 'payload') ?? {};
    const target = typeof payload.message_id === 'string' ? state.meta.messages.get(payload.message_id) : undefined;
    if (!target || target.conversationId !== conversation.id) throw invalidParameter('(#100) param payload[message_id] must be a message of this conversation');
    target.reactions = target.reactions.filter((r) => r.personId !== person.accountId);
    if (action === 'react') target.reactions.push({ personId: person.accountId, reaction: typeof payload.reaction === 'string' ? payload.reaction : 'love' });
  }
  return { recipient_id: person.id };
}

async function attachmentOf(ctx: RouteContext, raw: unknown): Promise<Attachment[]> {
  if (!raw || typeof raw !== 'object') return [];
  const attachment = raw as { type?: unknown; payload?: unknown };
  const type = typeof attachment.type === 'string' ? attachment.type : '';
  const payload = (attachment.payload && typeof attachment.payload === 'object' ? attachment.payload : {}) as Record<string, unknown>;
  if (!['image', 'video', 'audio', 'file', 'template', 'MEDIA_SHARE'].includes(type)) throw invalidParameter('(#100) param message[attachment][type] must be one of {image, video, audio, file, template, MEDIA_SHARE}');
  if (['image', 'video', 'audio', 'file'].includes(type) && typeof payload.url === 'string') {
    const fetched = await ctx.state.track(fetchMedia(payload.url, { ...ctx.state.settings.media, maxBytes: ATTACHMENT_MAX }));
    if (!fetched.ok && fetched.reason === 'too_large') throw invalidParameter('(#100) Attachment size exceeds allowable limit', 2018109);
    if (!fetched.ok) throw invalidParameter('(#100) Failed to fetch the file from the url', 2018008);
  }
  return [{ type, payload }];
}

export function storeMessage(state: SandboxState, conversation: Conversation, from: string, to: string, text: string | null, attachments: Attachment[]): Message {
  const now = state.clock.now();
  const message: Message = { id: messageId(state, conversation.platform), conversationId: conversation.id, fromId: from, toId: to, text, attachments, createdAt: now, reactions: [] };
  state.meta.messages.set(message.id, message);
  conversation.messageIds.push(message.id);
  conversation.updatedAt = now;
  return message;
}

export function echo(state: SandboxState, platform: MessagingPlatform, accountId: string, person: Person, message: Message, appId: string, sent: Record<string, unknown> | undefined): void {
  const body: Record<string, unknown> = { mid: message.id, is_echo: true };
  if (platform === 'messenger') body.app_id = Number(appId);
  if (typeof sent?.metadata === 'string') body.metadata = sent.metadata;
  if (message.text !== null) body.text = message.text;
  if (message.attachments.length) body.attachments = message.attachments;
  const envelope = { sender: { id: accountId }, recipient: { id: person.id }, message: body };
  if (platform === 'instagram') return emitMessaging(state, 'instagram', accountId, 'messages', envelope);
  emitMessaging(state, 'page', accountId, 'message_echoes', envelope);
  emitMessaging(state, 'page', accountId, 'message_deliveries', { sender: { id: person.id }, recipient: { id: accountId }, delivery: { mids: [message.id], watermark: message.createdAt } });
}
