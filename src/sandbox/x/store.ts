// X state: posts (with their edit chains), uploaded media and the per-user rate-limit windows
// behind the x-rate-limit-* headers (platforms/x.md §3–§5, §9).
export interface XPoll {
  options: string[];
  durationMinutes: number;
}

export interface XUrlEntity {
  url: string;
  expandedUrl: string;
}

export interface XPost {
  id: string;
  authorId: string;
  /** As X stores it: URLs replaced by t.co links (entities keep the sent ones). */
  text: string;
  urls: XUrlEntity[];
  createdAt: number;
  mediaIds: string[];
  poll: XPoll | null;
  replySettings: string;
  quoteTweetId: string | null;
  inReplyToId: string | null;
  conversationId: string;
  /** Every id of the chain, oldest first (itself included). */
  editHistory: string[];
  /** Edits left on the chain's newest post. */
  editsRemaining: number;
  madeWithAi: boolean;
  paidPartnership: boolean;
  deleted: boolean;
  /** Hidden by the conversation's author (PUT /2/tweets/{id}/hidden). */
  hidden: boolean;
  /** Users who like it. */
  likedBy: string[];
  metrics: { impressions: number; likes: number; replies: number; reposts: number; quotes: number; bookmarks: number; urlLinkClicks: number; profileClicks: number; videoViews: number };
}

export type XMediaState = 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';

export interface XMedia {
  id: string;
  mediaKey: string;
  ownerId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  received: number;
  segments: number[];
  state: XMediaState;
  /** When processing ends (sandbox time). */
  readyAt: number;
  expiresAt: number;
  altText: string | null;
  /** Whether a post uses it (a media id attaches once). */
  used: boolean;
}

export class XStore {
  readonly posts = new Map<string, XPost>();
  readonly media = new Map<string, XMedia>();
  /** `${userId}:${endpoint}` → the current 15-minute window. */
  readonly windows = new Map<string, { start: number; used: number }>();
}
