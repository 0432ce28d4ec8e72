// Threads state: media containers (platforms.md §4.2–4.3), the posts published from them, and
// the publish/reply/delete history that the 24-hour quotas are counted from (§4.4).
export type ThreadsMediaType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';

export interface ThreadsContainer {
  id: string;
  userId: string;
  mediaType: ThreadsMediaType;
  text: string | null;
  imageUrl: string | null;
  videoUrl: string | null;
  isCarouselItem: boolean;
  children: string[];
  replyToId: string | null;
  quotePostId: string | null;
  replyControl: string | null;
  topicTag: string | null;
  linkAttachment: string | null;
  altText: string | null;
  createdAt: number;
  /** Processing is over at this time (sandbox clock), if the download is done. */
  readyAt: number;
  download: 'none' | 'pending' | 'ok' | 'failed';
  errorMessage: string | null;
  publishedId: string | null;
}

export interface ThreadsPost {
  id: string;
  userId: string;
  containerId: string;
  mediaType: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  text: string | null;
  mediaUrl: string | null;
  childIds: string[];
  replyToId: string | null;
  rootPostId: string | null;
  quotePostId: string | null;
  replyControl: string;
  topicTag: string | null;
  linkAttachment: string | null;
  altText: string | null;
  publishedAt: number;
  shortcode: string;
  hidden: boolean;
  isCarouselChild: boolean;
}

export interface QuotaEvent {
  userId: string;
  at: number;
}

export class ThreadsStore {
  readonly containers = new Map<string, ThreadsContainer>();
  readonly posts = new Map<string, ThreadsPost>();
  readonly publishes: QuotaEvent[] = [];
  readonly replies: QuotaEvent[] = [];
  readonly deletes: QuotaEvent[] = [];
  /** `appId:userId` → the subscription id Threads webhooks carry for that user's install. */
  readonly webhookSubscriptionIds = new Map<string, string>();
}

/** Events of one user in the rolling window ending now. */
export function usage(events: QuotaEvent[], userId: string, now: number, windowMs = 86_400_000): number {
  return events.filter((e) => e.userId === userId && e.at > now - windowMs).length;
}
