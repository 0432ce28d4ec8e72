// TikTok state: publish ids from the Content Posting API init endpoints, their transfer and
// processing progress (platforms.md §5.3–5.5), and per-token call times for the rate limits.
import type { TikTokPrivacyLevel } from './people.ts';

export interface TikTokPublish {
  id: string;
  creatorId: string;
  clientId: string;
  media: 'VIDEO' | 'PHOTO';
  /** DIRECT_POST publishes; MEDIA_UPLOAD sends to the creator's inbox (§5.3 inbox variant). */
  mode: 'DIRECT_POST' | 'MEDIA_UPLOAD';
  source: 'PULL_FROM_URL' | 'FILE_UPLOAD';
  privacyLevel: TikTokPrivacyLevel | null;
  title: string;
  /** A photo post's description; a video's caption is its title. */
  description: string;
  createdAt: number;
  /** When every byte arrived (download or upload); null while transferring. */
  transferredAt: number | null;
  failReason: string | null;
  urls: string[];
  downloadedBytes: number;
  uploadedBytes: number;
  /** FILE_UPLOAD: the sizes announced at init. */
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  chunksReceived: number;
  /** The first bytes of the media, to check its type once transferred. */
  head: Buffer | null;
  uploadId: string | null;
  uploadToken: string | null;
  postId: bigint | null;
}

export class TikTokStore {
  readonly publishes = new Map<string, TikTokPublish>();
  /** upload_id → publish id. */
  readonly uploads = new Map<string, string>();
  /** `${token}:${bucket}` → call times, for the per-token limits. */
  readonly calls = new Map<string, number[]>();
}
