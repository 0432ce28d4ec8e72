// reddit state: submitted links (t3) and comments (t1) keyed by fullname, and the per-client
// request windows behind the X-Ratelimit-* headers (platforms.md §6.2–6.3).
export interface RedditThing {
  kind: 't3' | 't1';
  id: string;
  authorId: string;
  author: string;
  subreddit: string;
  title: string | null;
  /** Self-post text or comment body (markdown). */
  text: string;
  url: string | null;
  isSelf: boolean;
  flairId: string | null;
  flairText: string | null;
  nsfw: boolean;
  spoiler: boolean;
  sendReplies: boolean;
  createdUtc: number;
  edited: number | false;
  deleted: boolean;
  /** Comments: the fullname replied to, and the link they belong to. */
  parentId: string | null;
  linkId: string | null;
  permalink: string;
}

export class RedditStore {
  readonly things = new Map<string, RedditThing>();
  readonly windows = new Map<string, { start: number; used: number }>();
}

export const fullname = (thing: Pick<RedditThing, 'kind' | 'id'>): string => `${thing.kind}_${thing.id}`;
