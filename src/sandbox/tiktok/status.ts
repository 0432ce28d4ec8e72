// POST /v2/post/publish/status/fetch/ (platforms.md §5.5). Status is computed from the transfer
// and the sandbox clock: PROCESSING_DOWNLOAD / PROCESSING_UPLOAD while transferring and for the
// configured processing time, then PUBLISH_COMPLETE (direct posts) or SEND_TO_USER_INBOX
// (uploads), or FAILED with fail_reason. Public post ids are int64s in the misspelt
// `publicaly_available_post_id`, and stay empty for SELF_ONLY posts (§12).
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { requireScope, rateLimit, tiktokAuth } from './auth.ts';
import { invalidParams, ok } from './envelope.ts';
import type { TikTokPublish } from './store.ts';

export type PublishStatus = 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';

export function publishStatus(state: SandboxState, publish: TikTokPublish): PublishStatus {
  if (publish.failReason) return 'FAILED';
  const processing = publish.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD';
  if (publish.transferredAt === null || state.clock.now() < publish.transferredAt + state.settings.processing.tiktokMs) return processing;
  return publish.mode === 'DIRECT_POST' ? 'PUBLISH_COMPLETE' : 'SEND_TO_USER_INBOX';
}

export function statusFetch(ctx: RouteContext): unknown {
  const { token, creator } = tiktokAuth(ctx);
  rateLimit(ctx, token, 'status', ctx.state.settings.limits.tiktokStatusPerMinute);
  if (!token.scopes.includes('video.upload')) requireScope(token, 'video.publish');
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const id = typeof body.publish_id === 'string' ? body.publish_id : '';
  const publish = ctx.state.tiktok.publishes.get(id);
  if (!publish || publish.creatorId !== creator.id) throw invalidParams('publish_id is invalid');
  const status = publishStatus(ctx.state, publish);
  if (status === 'PUBLISH_COMPLETE' && publish.postId === null && publish.privacyLevel !== 'SELF_ONLY') {
    publish.postId = BigInt(ctx.state.ids.numeric('tiktok-post', '73', 19));
  }
  return ok({
    status,
    fail_reason: publish.failReason ?? '',
    publicaly_available_post_id: publish.postId === null ? [] : [publish.postId],
    uploaded_bytes: publish.uploadedBytes,
    downloaded_bytes: publish.downloadedBytes,
  });
}
