// Conversations and messages as the API shows them (DESIGN §2 "Direct messages").
import { Type, type Static } from 'typebox';
import { NullableTimestamp, Timestamp } from '../../http/schemas.ts';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const MessagingWindow = Type.Object(
  {
    open: Type.Boolean({ description: "Within 24 hours of the person's last message (a plain message may be sent)." }),
    expiresAt: NullableTimestamp('When the 24-hour window closes (or closed); null when the person never wrote.'),
    humanAgentExpiresAt: NullableTimestamp('When the 7-day window of tag HUMAN_AGENT closes; null when the platform has no tag or the person never wrote.'),
  },
  { $id: 'MessagingWindow', title: 'MessagingWindow' },
);
export type MessagingWindowView = Static<typeof MessagingWindow>;

export const Participant = Type.Object({
  id: Type.String({ description: "The person's id on the platform (PSID, IGSID)." }),
  username: NullableString('Instagram username; null on Messenger.'),
  name: NullableString('Name from the platform profile, when it gives one.'),
});

export const Conversation = Type.Object(
  {
    id: Type.String(),
    platform: Type.String({ description: 'instagram, facebook (Messenger), whatsapp.' }),
    accountId: Type.String(),
    participant: Participant,
    status: Type.String({ enum: ['active', 'archived'] }),
    unread: Type.Integer({ description: 'Messages from the person not marked read.' }),
    lastMessageAt: Timestamp(),
    lastMessageText: NullableString('The text of the latest message; null for an attachment.'),
    messagingWindow: Type.Ref('MessagingWindow'),
  },
  { $id: 'Conversation', title: 'Conversation' },
);
export type ConversationView = Static<typeof Conversation>;

export const Message = Type.Object(
  {
    id: Type.String(),
    conversationId: Type.String(),
    direction: Type.String({ enum: ['inbound', 'outbound'] }),
    platformMessageId: NullableString("The platform's message id."),
    text: NullableString('null for an attachment alone.'),
    attachments: Type.Array(Type.Object({ type: Type.String(), url: Type.Union([Type.String(), Type.Null()]) })),
    status: Type.String({ enum: ['sent', 'delivered', 'read', 'failed'] }),
    reaction: NullableString("The person's reaction (emoji), if any."),
    postback: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The button the person pressed ({title, payload}); null for a written message.' }),
    sentAt: Timestamp(),
    error: Type.Optional(Type.String({ description: 'Why a failed message failed (WhatsApp: the code and what the Cloud API said).' })),
  },
  { $id: 'Message', title: 'Message' },
);
export type MessageView = Static<typeof Message>;

export const ConversationReply = Type.Object({ conversation: Type.Ref('Conversation') });
export const MessageReply = Type.Object({ message: Type.Ref('Message') });
