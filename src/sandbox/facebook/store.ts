// Facebook Page records (platforms.md §3.1–3.2): posts (`{page-id}_{n}`), photos, videos (plain
// videos, Reels and video stories share the upload and processing phases), and comments.
export type FbPostKind = 'status' | 'link' | 'photo' | 'album' | 'video' | 'reel' | 'story';

export interface FbPost {
  id: string;
  pageId: string;
  kind: FbPostKind;
  message: string | null;
  link: string | null;
  published: boolean;
  /** Unix ms when a scheduled post goes out; null when not scheduled. */
  scheduledAt: number | null;
  createdAt: number;
  updatedAt: number;
  photoIds: string[];
  videoId: string | null;
  hidden: boolean;
  /** Reactions by people (control API), by type (like, love, haha, wow, sad, angry, care). */
  reactions: Array<{ personId: string; type: string }>;
  /** Whether the Page itself liked it (POST /{object-id}/likes). */
  likedByPage: boolean;
}

export interface FbPhoto {
  id: string;
  pageId: string;
  url: string;
  caption: string | null;
  published: boolean;
  postId: string | null;
  createdAt: number;
  /** Used by a multi-photo post or a photo story: an unpublished photo is attached only once. */
  attachedTo: string | null;
}

export type VideoFlow = 'video' | 'reel' | 'story';
export type PhaseStatus = 'not_started' | 'in_progress' | 'complete' | 'error';

export interface FbVideo {
  id: string;
  pageId: string;
  flow: VideoFlow;
  title: string | null;
  description: string | null;
  /** Bytes received or fetched; the upload phase. */
  upload: PhaseStatus;
  bytes: number;
  /** Processing is over at this time, once the upload completed. */
  readyAt: number | null;
  error: string | null;
  /** Set at finish (reels, stories) or at creation (plain videos). */
  publishStatus: 'draft' | 'scheduled' | 'published' | null;
  scheduledAt: number | null;
  postId: string | null;
  createdAt: number;
}

export interface FbComment {
  id: string;
  pageId: string;
  postId: string;
  /** The comment replied to, for replies. */
  parentId: string | null;
  message: string;
  fromId: string;
  fromName: string;
  createdAt: number;
  hidden: boolean;
  likeCount: number;
  attachmentUrl: string | null;
  /** The Page liked it (POST /{comment}/likes); absent in state files written before. */
  likedByPage?: boolean;
}
