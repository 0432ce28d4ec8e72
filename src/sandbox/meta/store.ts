// What the Meta piece keeps in memory (issue 3, point 5): Instagram containers, media and
// comments; Facebook Page posts, photos, videos and comments; Messenger and Instagram
// conversations; the apps each Page or Instagram account subscribed (`subscribed_apps`); and the
// 24-hour publishing history the quotas are counted from. Plain records; the rules live beside
// the endpoints that enforce them.
import type { FbComment, FbPhoto, FbPost, FbVideo } from '../facebook/store.ts';
import type { IgComment, IgContainer, IgMedia, IgMention } from '../instagram/store.ts';
import type { Conversation, Message, Person } from '../messaging/store.ts';

export interface QuotaEvent {
  accountId: string;
  at: number;
}

export class MetaStore {
  // Instagram (platforms.md §2.3–2.7)
  readonly igContainers = new Map<string, IgContainer>();
  readonly igMedia = new Map<string, IgMedia>();
  readonly igComments = new Map<string, IgComment>();
  readonly igMentions: IgMention[] = [];
  readonly igPublishes: QuotaEvent[] = [];
  // Facebook Pages (§3.1–3.2)
  readonly fbPosts = new Map<string, FbPost>();
  readonly fbPhotos = new Map<string, FbPhoto>();
  readonly fbVideos = new Map<string, FbVideo>();
  readonly fbComments = new Map<string, FbComment>();
  readonly reelsPublishes: QuotaEvent[] = [];
  // Messaging (§2.8, §3.3–3.4)
  readonly persons = new Map<string, Person>();
  readonly conversations = new Map<string, Conversation>();
  readonly messages = new Map<string, Message>();
  /** Comments that already got their one private reply (§2.6, §3.2). */
  readonly privateReplies = new Set<string>();
  /** `subscribed_apps` of a Page or Instagram account: app id → subscribed fields (§2.9, §8.5). */
  readonly subscribedApps = new Map<string, Map<string, string[]>>();
}

/** Events of one account in the rolling window ending now. */
export function usageIn(events: QuotaEvent[], accountId: string, now: number, windowMs = 86_400_000): number {
  return events.filter((e) => e.accountId === accountId && e.at > now - windowMs).length;
}

/** Graph timestamps: `2025-07-28T22:44:49+0000`. */
export function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}
