// Every event the contract lists, with the shape of its `data`. Emitting goes through
// emitEvent() with one of these names, so a payload that does not match its event does not
// type-check. Events whose causes are built later (messages, templates, WhatsApp quality) are
// declared here already; their emitters call emitEvent() with these types.
import { Type, type Static, type TSchema } from 'typebox';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = Type.String();
const NStr = Nullable(Type.String());

const PostStatusData = Type.Object({ postId: Str, status: Str });

const CommentData = Type.Object({
  eventId: Str,
  platform: Str,
  accountId: Str,
  externalId: NStr,
  postId: NStr,
  platformPostId: NStr,
  comment: Type.Object({ id: Str, text: Str, username: NStr, parentId: NStr }),
  receivedAt: Str,
});

const MessageData = Type.Object({
  eventId: NStr,
  platform: Str,
  accountId: Str,
  externalId: NStr,
  conversationId: Str,
  messageId: NStr,
  platformMessageId: NStr,
  platformMessageIds: Type.Array(Str),
  direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
  participant: Type.Object({ id: Str, username: NStr, name: NStr }),
  text: NStr,
  attachments: Type.Array(Type.Object({ type: Str, url: NStr })),
  postback: Nullable(Type.Record(Type.String(), Type.Unknown())),
  reaction: Nullable(Type.Object({ action: Type.Union([Type.Literal('react'), Type.Literal('unreact')]), emoji: NStr })),
  watermark: Nullable(Type.Union([Type.String(), Type.Number()])),
  sentAt: NStr,
  receivedAt: Str,
});

const WhatsAppBase = { eventId: Str, platform: Str, accountId: Str, externalId: NStr, receivedAt: Str };

const MessageStatusData = Type.Object({
  ...WhatsAppBase,
  conversationId: NStr,
  messageId: NStr,
  platformMessageId: Str,
  status: Type.Union([Type.Literal('sent'), Type.Literal('delivered'), Type.Literal('read'), Type.Literal('failed'), Type.Literal('deleted')]),
  errors: Nullable(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
  pricing: Nullable(Type.Record(Type.String(), Type.Unknown())),
  conversation: Nullable(Type.Record(Type.String(), Type.Unknown())),
  recipient: Type.Object({ phone: NStr, userId: NStr }),
  timestamp: NStr,
});

const TemplateData = Type.Object({
  ...WhatsAppBase,
  wabaId: Str,
  kind: Type.Union([Type.Literal('status'), Type.Literal('quality'), Type.Literal('category')]),
  templateId: Str,
  name: NStr,
  language: NStr,
  event: NStr,
  reason: Type.Optional(NStr),
  otherInfo: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
  previousQualityScore: Type.Optional(NStr),
  newQualityScore: Type.Optional(NStr),
  previousCategory: Type.Optional(NStr),
  newCategory: Type.Optional(NStr),
  correctCategory: Type.Optional(NStr),
});

export const EVENT_DATA = {
  'post.published': PostStatusData,
  'post.failed': PostStatusData,
  'post.pending_approval': Type.Object({ postId: Str }),
  'post.approved': PostStatusData,
  'post.rejected': PostStatusData,
  'comment.received': CommentData,
  'mention.received': CommentData,
  'message.received': MessageData,
  'message.sent': MessageData,
  'message.read': MessageData,
  'message.delivered': MessageData,
  'message.reaction': MessageData,
  'message.status': MessageStatusData,
  'template.status': TemplateData,
  'template.quality': TemplateData,
  'account.quality': Type.Object({
    ...WhatsAppBase,
    wabaId: Str,
    displayPhoneNumber: NStr,
    event: Str,
    currentLimit: NStr,
    oldLimit: NStr,
    qualityRating: NStr,
    maxDailyConversations: Nullable(Type.Number()),
  }),
  'account.connected': Type.Object({ accountId: Str, platform: Str, accountName: NStr, externalId: NStr }),
  'account.disconnected': Type.Object({ accountId: Str, platform: Str, accountName: NStr, externalId: NStr, reason: Str, error: NStr }),
  'connection.pending': Type.Object({ pendingId: Str, platform: Str, externalId: NStr, optionCount: Type.Integer(), expiresAt: Str }),
  'webhook.test': Type.Object({ webhookId: Str, message: Str }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<E extends EventType> = Static<(typeof EVENT_DATA)[E]>;

export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];
/** What an endpoint may subscribe to: everything but webhook.test, which only the test route sends. */
export const SUBSCRIBABLE_EVENTS = EVENT_TYPES.filter((e) => e !== 'webhook.test');
export const DEFAULT_EVENTS: EventType[] = ['post.published', 'post.failed', 'post.pending_approval'];
