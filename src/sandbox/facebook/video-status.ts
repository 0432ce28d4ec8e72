// A Facebook video's `status` (platforms.md §3.1 Reels status): `video_status` plus the
// uploading, processing and publishing phases, computed from the upload, the sandbox clock
// (processing takes `processing.facebookVideoMs` after the upload completes) and the publish
// choice made at finish. Bytes arrive by a real fetch of `file_url` or through rupload.
import type { SandboxState } from '../core/state.ts';
import { fetchMedia } from '../media/fetch.ts';
import type { SniffedType } from '../media/sniff.ts';
import type { FbVideo } from './store.ts';

export interface VideoStatus {
  video_status: 'uploading' | 'upload_complete' | 'upload_failed' | 'processing' | 'ready' | 'error' | 'expired';
  uploading_phase: { status: string; bytes_transfered: number };
  processing_phase: { status: string; error?: { message: string } };
  publishing_phase: { status: string; publish_status?: string; publish_time?: number };
}

export function videoStatus(state: SandboxState, video: FbVideo): VideoStatus {
  const now = state.clock.now();
  const uploading = { status: video.upload === 'complete' ? 'complete' : video.upload, bytes_transfered: video.bytes };
  const publishing: VideoStatus['publishing_phase'] = { status: video.publishStatus ? 'complete' : 'not_started' };
  if (video.publishStatus) publishing.publish_status = video.publishStatus;
  if (video.publishStatus === 'published') publishing.publish_time = Math.floor((video.readyAt ?? now) / 1000);
  if (video.publishStatus === 'scheduled' && video.scheduledAt) publishing.publish_time = Math.floor(video.scheduledAt / 1000);
  if (video.upload === 'error') {
    return { video_status: 'upload_failed', uploading_phase: uploading, processing_phase: { status: 'not_started' }, publishing_phase: publishing };
  }
  if (video.upload !== 'complete' || video.readyAt === null) {
    return { video_status: 'uploading', uploading_phase: uploading, processing_phase: { status: 'not_started' }, publishing_phase: publishing };
  }
  if (video.error) {
    return { video_status: 'error', uploading_phase: uploading, processing_phase: { status: 'error', error: { message: video.error } }, publishing_phase: publishing };
  }
  if (now < video.readyAt) return { video_status: 'processing', uploading_phase: uploading, processing_phase: { status: 'in_progress' }, publishing_phase: publishing };
  return { video_status: 'ready', uploading_phase: uploading, processing_phase: { status: 'complete' }, publishing_phase: publishing };
}

/** Marks the upload complete; a file that is not a video fails in processing, as on the platform. */
export function uploadDone(state: SandboxState, video: FbVideo, type: SniffedType | null): void {
  video.upload = 'complete';
  video.readyAt = state.clock.now() + state.settings.processing.facebookVideoMs;
  if (type?.kind !== 'video') video.error = 'The video file you selected is in a format that we don\'t support.';
}

/** Fetches `file_url` for real in the background (videos endpoint, rupload `file_url` header). */
export async function fetchVideo(state: SandboxState, video: FbVideo, url: string): Promise<void> {
  video.upload = 'in_progress';
  const result = await fetchMedia(url, state.settings.media);
  if (!result.ok) {
    video.upload = 'error';
    video.error = `Failed to fetch the video from ${url}: ${result.detail}`;
    return;
  }
  video.bytes = result.size;
  uploadDone(state, video, result.type);
}
