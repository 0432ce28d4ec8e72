// The direct-messaging capability (contract "Direct messages", DESIGN §2): send to a person, mark
// their messages seen, list the account's conversations and a conversation's messages with the
// platform's paging, and read a person's profile. instagram (both logins) and facebook Pages
// (Messenger) offer it; a platform without it answers 400 not_supported before any call.
// Re-exported by types.ts. Pure platform knowledge, like the other capabilities: the window
// rules the service checks itself are in the module; what the platform refuses arrives as a
// PlatformError from the messaging error table (outside_window, recipient_unavailable …).
import type { AccountCredentials } from './types.ts';

export type AttachmentType = 'image' | 'video' | 'audio' | 'file';

export interface OutgoingMessage {
  /** The person: a PSID (Messenger) or an IGSID (Instagram). */
  recipientId: string;
  text?: string | undefined;
  attachment?: { type: AttachmentType; url: string } | undefined;
  /** HUMAN_AGENT: sent with the tag, allowed up to 7 days after the person's last message. */
  tag?: 'HUMAN_AGENT' | undefined;
}

export interface SentMessage {
  platformMessageId: string;
}

export interface MessagingParticipant {
  id: string;
  username: string | null;
  name: string | null;
}

export interface PlatformMessage {
  id: string;
  /** Epoch milliseconds; null when the platform gave no readable time. */
  createdAt: number | null;
  /** Who wrote it: the account itself for its own messages. */
  fromId: string | null;
  text: string | null;
  attachments: Array<{ type: string; url: string | null }>;
}

export interface PlatformConversation {
  id: string;
  updatedAt: number | null;
  /** The person (the participant that is not the account); null when the platform named none. */
  participant: MessagingParticipant | null;
}

export interface MessagingPage<T> {
  items: T[];
  /** The platform's cursor of the next page; null on the last one. */
  after: string | null;
}

export interface MessagingPageRequest {
  limit: number;
  after: string | null;
}

export interface Messaging {
  send(account: AccountCredentials, message: OutgoingMessage): Promise<SentMessage>;
  /** The account has seen the person's messages (`sender_action: mark_seen`). */
  markSeen(account: AccountCredentials, recipientId: string): Promise<void>;
  /** The account's conversations, most recently active first. */
  conversations(account: AccountCredentials, page: MessagingPageRequest): Promise<MessagingPage<PlatformConversation>>;
  /** The conversation with one person, when there is one. */
  conversationWith(account: AccountCredentials, participantId: string): Promise<PlatformConversation | null>;
  /** A conversation's messages, newest first (the platform's order). */
  messages(account: AccountCredentials, conversationId: string, page: MessagingPageRequest): Promise<MessagingPage<PlatformMessage>>;
  /** The person's profile (`/{PSID}` or `/{IGSID}`). */
  profile(account: AccountCredentials, participantId: string): Promise<MessagingParticipant>;
  /** The permissions messaging needs on this account, as the platform names them. */
  permissions(account: AccountCredentials): string[];
}
