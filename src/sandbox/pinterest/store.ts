// Pinterest state (platforms/pinterest.md §3–§7): Pins on the users' boards, video media
// registered through POST /v5/media and uploaded by form post to its S3-like URL, and the
// request counts the rate limits are counted from (per user and category each minute; an app
// with Trial access per day).
export interface PinterestImage {
  url: string;
  title: string | null;
  description: string | null;
  link: string | null;
}

export interface PinterestPin {
  id: string;
  ownerId: string;
  boardId: string;
  sectionId: string | null;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  dominantColor: string | null;
  /** image (one), carousel (2–5 images) or video. */
  kind: 'image' | 'carousel' | 'video';
  images: PinterestImage[];
  /** The video's media id (kind video). */
  mediaId: string | null;
  cover: { url: string | null; keyFrameTime: number | null } | null;
  createdAt: number;
  deleted: boolean;
  /** What pin analytics report for it (control API). */
  metrics: PinterestMetrics;
}

export interface PinterestMetrics {
  impressions: number;
  saves: number;
  pinClicks: number;
  outboundClicks: number;
  comments: number;
  reactions: number;
  videoViews: number;
}

export type PinterestMediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

export interface PinterestMedia {
  id: string;
  ownerId: string;
  mediaType: 'video';
  status: PinterestMediaStatus;
  /** The object key of its upload form; the upload parameters are derived from it. */
  key: string;
  size: number;
  /** Processing ends then (sandbox clock), once uploaded. */
  readyAt: number | null;
  /** A Pin uses it (a media id makes one Pin). */
  used: boolean;
  createdAt: number;
}

export class PinterestStore {
  readonly pins = new Map<string, PinterestPin>();
  readonly media = new Map<string, PinterestMedia>();
  /** `${userId}:${category}` → the current one-minute window. */
  readonly windows = new Map<string, { start: number; used: number }>();
  /** `${clientId}:YYYY-MM-DD` → requests of a Trial app that UTC day. */
  readonly trialDaily = new Map<string, number>();
}
