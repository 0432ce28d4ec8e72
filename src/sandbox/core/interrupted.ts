// Background work a restart cut off (persistence.ts): a media download the sandbox was making
// when the process stopped will never finish, so after a restore it ends as the platform ends a
// download that fails, and a client polling the container or publish id gets a final answer
// instead of IN_PROGRESS for ever. Facebook videos fetched from `file_url` are told from chunked
// uploads under way (which the client finishes) by having no byte yet.
import type { SandboxState } from './state.ts';

const INTERRUPTED = 'The download was interrupted by a sandbox restart';

export function settleInterrupted(state: SandboxState): void {
  const now = state.clock.now();
  for (const container of state.threads.containers.values()) {
    if (container.download !== 'pending') continue;
    container.download = 'failed';
    container.errorMessage = container.mediaType === 'VIDEO' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
  }
  for (const container of state.meta.igContainers.values()) {
    if (container.download !== 'pending') continue;
    container.download = 'failed';
    container.errorSubcode = 2207003; // the download timed out (platforms.md §2.4)
  }
  for (const publish of state.tiktok.publishes.values()) {
    if (publish.source !== 'PULL_FROM_URL' || publish.transferredAt !== null) continue;
    publish.failReason ??= publish.media === 'VIDEO' ? 'video_pull_failed' : 'photo_pull_failed';
    publish.transferredAt = now;
  }
  for (const video of state.meta.fbVideos.values()) {
    if (video.upload !== 'in_progress' || video.bytes > 0) continue;
    video.upload = 'error';
    video.error = INTERRUPTED;
  }
}
