// YouTube state (youtube.md §4–§8): videos, resumable upload sessions, comments, playlists and
// their items, and the quota each project (OAuth client) has used per Pacific day.
export interface YouTubeVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  defaultLanguage: string | null;
  /** What was asked; `privacyStatus` below is what YouTube applied (unaudited projects: private). */
  requestedPrivacy: string;
  privacyStatus: string;
  publishAt: string | null;
  /** null: not declared (YouTube Studio asks the owner later). */
  selfDeclaredMadeForKids: boolean | null;
  containsSyntheticMedia: boolean;
  embeddable: boolean;
  license: string;
  lockedPrivate: boolean;
  uploadStatus: 'uploaded' | 'processed' | 'failed';
  failureReason: string | null;
  mimeType: string;
  size: number;
  hasCustomThumbnail: boolean;
  createdAt: number;
  readyAt: number;
  deleted: boolean;
  stats: { viewCount: number; likeCount: number; favoriteCount: number; shares: number; estimatedMinutesWatched: number; subscribersGained: number };
}

export interface UploadSession {
  id: string;
  clientId: string;
  channelId: string;
  total: number;
  /** X-Upload-Content-Type. */
  contentType: string;
  received: number;
  /** The type sniffed from the first bytes (null until they came, or not a video). */
  sniffed: string | null;
  /** The video resource of the start request (snippet, status), validated. */
  resource: Record<string, unknown>;
  createdAt: number;
  expiresAt: number;
  /** Set once the last byte arrived. */
  videoId: string | null;
}

export interface YouTubeComment {
  id: string;
  videoId: string;
  /** The thread's top-level comment id; null for a top-level comment. */
  parentId: string | null;
  authorChannelId: string;
  authorDisplayName: string;
  textOriginal: string;
  publishedAt: number;
  updatedAt: number;
  moderationStatus: 'published' | 'heldForReview' | 'rejected';
  deleted: boolean;
}

export interface YouTubePlaylist {
  id: string;
  channelId: string;
  title: string;
}

export interface YouTubePlaylistItem {
  id: string;
  playlistId: string;
  videoId: string;
  position: number;
}

export class YouTubeStore {
  readonly videos = new Map<string, YouTubeVideo>();
  readonly sessions = new Map<string, UploadSession>();
  readonly comments = new Map<string, YouTubeComment>();
  readonly playlists = new Map<string, YouTubePlaylist>();
  readonly playlistItems = new Map<string, YouTubePlaylistItem>();
  /** `clientId:YYYY-MM-DD` (Pacific) → units and uploads used that day. */
  readonly quota = new Map<string, { units: number; uploads: number }>();
  /** `channelId:YYYY-MM-DD` (Pacific) → videos uploaded that day. */
  readonly channelUploads = new Map<string, number>();
}
