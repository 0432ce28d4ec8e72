// Bluesky state (bluesky.md §2–§7): the records of every repository (by at:// URI), the blobs
// (content-addressed, with the repositories that uploaded them), the sessions' tokens, the video
// service's jobs, extra engagement counts set through the control API, and the rate-limit windows.
export interface RepoRecord {
  uri: string;
  did: string;
  collection: string;
  rkey: string;
  cid: string;
  value: Record<string, unknown>;
  /** When the PDS took it (sandbox ms): the AppView's indexedAt. */
  indexedAt: number;
}

export interface StoredBlob {
  cid: string;
  mimeType: string;
  size: number;
  /** The DIDs that uploaded it (a record may use it only in those repositories). */
  owners: string[];
}

/** A refresh token's session; the access tokens made from it point at it. */
export interface RefreshGrant {
  jti: string;
  did: string;
  appPassword: string;
  expiresAt: number;
  /** After a refresh: its successor, handed out again within the grace period. */
  nextJti: string | null;
  /** Ended (deleteSession, app password revoked). */
  revoked: boolean;
}

export interface AccessGrant {
  jti: string;
  did: string;
  refreshJti: string;
  expiresAt: number;
}

export interface VideoJob {
  jobId: string;
  did: string;
  /** The blob's CID once processed; null when the bytes were not a video. */
  cid: string | null;
  mimeType: string;
  size: number;
  createdAt: number;
  readyAt: number;
  /** A second upload of a video already processed: done at once, with the earlier blob. */
  alreadyExists?: boolean;
}

export interface ExtraCounts {
  likes: number;
  reposts: number;
  quotes: number;
  replies: number;
}

export class BlueskyStore {
  readonly records = new Map<string, RepoRecord>();
  readonly blobs = new Map<string, StoredBlob>();
  readonly refreshGrants = new Map<string, RefreshGrant>();
  readonly accessGrants = new Map<string, AccessGrant>();
  readonly videoJobs = new Map<string, VideoJob>();
  /** Counts added by the control API on top of the records (analytics scenarios), by post URI. */
  readonly extraCounts = new Map<string, ExtraCounts>();
  /** `${policy}:${key}` → the current window. */
  readonly windows = new Map<string, { start: number; used: number }>();
  /** The last TID's microsecond timestamp: TIDs only go up. */
  lastTidMicros = 0;
  /** The repositories' revisions (a TID each), by DID. */
  readonly revs = new Map<string, string>();
}
