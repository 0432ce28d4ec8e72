// Messenger and Instagram Direct records (platforms.md §2.8, §3.3–3.4). A person is scoped to the
// account they talk to (a PSID for a Page, an IGSID for an Instagram account), as on the
// platforms; a conversation joins one person and one account.
export type MessagingPlatform = 'messenger' | 'instagram';

export interface Person {
  id: string;
  accountId: string;
  platform: MessagingPlatform;
  name: string;
  username: string;
  /** The person blocked the account: the Send API answers 551 (platforms.md §3.3). */
  blocked?: boolean;
}

export interface Conversation {
  id: string;
  platform: MessagingPlatform;
  accountId: string;
  personId: string;
  updatedAt: number;
  /** When the person last wrote: the 24-hour window and HUMAN_AGENT's 7 days count from it. */
  lastInboundAt: number | null;
  messageIds: string[];
}

export interface Attachment {
  type: string;
  payload: Record<string, unknown>;
}

export interface Message {
  id: string;
  conversationId: string;
  fromId: string;
  toId: string;
  text: string | null;
  attachments: Attachment[];
  createdAt: number;
  reactions: Array<{ personId: string; reaction: string }>;
}
