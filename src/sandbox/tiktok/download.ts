// PULL_FROM_URL transfers (platforms.md §5.3–5.4): TikTok downloads the video or photos from the
// given URLs; the sandbox does too, and checks each file's type from its bytes. A failed
// download is `video_pull_failed` / `photo_pull_failed`; a wrong type `file_format_check_failed`.
import type { SandboxState } from '../core/state.ts';
import { fetchMedia } from '../media/fetch.ts';
import type { SniffedType } from '../media/sniff.ts';
import type { TikTokPublish } from './store.ts';

const VIDEO_TYPES = new Set<SniffedType['mime']>(['video/mp4', 'video/quicktime', 'video/webm']);
const PHOTO_TYPES = new Set<SniffedType['mime']>(['image/jpeg', 'image/webp']);

export function acceptedType(publish: TikTokPublish, type: SniffedType | null): boolean {
  return !!type && (publish.media === 'VIDEO' ? VIDEO_TYPES : PHOTO_TYPES).has(type.mime);
}

export function startDownloads(state: SandboxState, publish: TikTokPublish): void {
  void state.track(
    (async () => {
      for (const url of publish.urls) {
        const result = await fetchMedia(url, state.settings.media);
        if (!result.ok) {
          publish.failReason = publish.media === 'VIDEO' ? 'video_pull_failed' : 'photo_pull_failed';
          break;
        }
        publish.downloadedBytes += result.size;
        if (!acceptedType(publish, result.type)) {
          publish.failReason = 'file_format_check_failed';
          break;
        }
      }
      publish.transferredAt = state.clock.now();
    })(),
  );
}
