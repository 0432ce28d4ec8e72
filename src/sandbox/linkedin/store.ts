// LinkedIn state: posts (with the commentary as sent and as LinkedIn shows it), the uploaded
// images, videos and documents with their signed upload URLs, and the daily post counts the 429
// is counted from (linkedin.md §4, §6, §9).
export type AssetKind = 'image' | 'video' | 'document';
export type AssetStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface VideoPart {
  firstByte: number;
  lastByte: number;
  /** The ETag the part's PUT answered; null until it arrived. */
  etag: string | null;
}

export interface LinkedInAsset {
  urn: string;
  kind: AssetKind;
  owner: string;
  status: AssetStatus;
  /** Videos: the size announced at initialize; others: the bytes received. */
  size: number;
  uploadToken: string | null;
  parts: VideoPart[];
  /** Upload URL ids (the last path segment) for each part, or the one URL. */
  uploadIds: string[];
  uploadExpiresAt: number;
  /** AVAILABLE from this time (sandbox clock) once uploaded (and finalized). */
  readyAt: number | null;
  createdAt: number;
}

export interface LinkedInPost {
  urn: string;
  author: string;
  /** The member whose token made it. */
  memberId: string;
  /** As sent (little text, escaped). */
  commentary: string;
  /** What LinkedIn shows: unescaped, cut at the first unescaped reserved character. */
  shown: string;
  truncated: boolean;
  visibility: string;
  content: Record<string, unknown> | null;
  isReshareDisabledByAuthor: boolean;
  lifecycleState: string;
  createdAt: number;
  lastModifiedAt: number;
  deleted: boolean;
  /** What share statistics report (commentCount comes from the comments). */
  stats: { impressionCount: number; uniqueImpressionsCount: number; clickCount: number; likeCount: number; shareCount: number };
}

export interface LinkedInComment {
  urn: string;
  id: string;
  postUrn: string;
  /** The comment replied to; null for a comment on the post. */
  parentUrn: string | null;
  actor: string;
  text: string;
  shown: string;
  createdAt: number;
  deleted: boolean;
}

export class LinkedInStore {
  readonly posts = new Map<string, LinkedInPost>();
  readonly comments = new Map<string, LinkedInComment>();
  readonly assets = new Map<string, LinkedInAsset>();
  /** Upload id → the asset and the part it is for. */
  readonly uploads = new Map<string, { urn: string; part: number }>();
  /** `memberId:YYYY-MM-DD` → posts made that UTC day. */
  readonly daily = new Map<string, number>();
}
