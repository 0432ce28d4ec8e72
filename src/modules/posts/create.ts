// POST /posts: the post, its targets and its first delivery step (the first target's job, the
// scheduled dispatch, or the pending_approval event) written in one transaction.
import type { AppDeps } from '../../http/types.ts';
import type { Caller } from '../keys/service.ts';
import type { PostStatus } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { newId } from '../../lib/ids.ts';
import { emitEvent } from '../events/emit.ts';
import { findPost, type PostWithTargets } from './repo.ts';
import { scheduleDispatch, startDelivery } from './delivery/release.ts';
import type { NewPost } from './schemas.ts';
import { checkSchedule, resolveTargets } from './targets.ts';
import { finishRequest } from './idempotency.ts';
import { attachMediaToPost } from '../media/service.ts';
import { mediaUrlsOf } from './media-refs.ts';

export type CreateDeps = Pick<AppDeps, 'store' | 'clock' | 'config'>;

export async function createPost(deps: CreateDeps, tenant: Tenant, caller: Caller, body: NewPost, requestKey: string | null): Promise<PostWithTargets> {
  const now = deps.clock.now();
  const scheduledFor = checkSchedule(body, now);
  const live = body.publishNow === true || scheduledFor !== null;
  const targets = await resolveTargets(tenant, body, live, deps.config.allowPrivateUrls);
  const approval = live && (caller.approvalRequired || targets.some((t) => t.approvalRequired));
  const status: PostStatus = !live ? 'draft' : approval ? 'pending_approval' : scheduledFor !== null ? 'scheduled' : 'queued';
  const postId = newId('post', now);

  await deps.store.db.transaction().execute(async (trx) => {
    const ctx = { db: trx, store: deps.store, now };
    await trx
      .insertInto('posts')
      .values({ id: postId, organization_id: tenant.organizationId, content: body.content, status, scheduled_for: scheduledFor, approved_at: null, rejected_reason: null, api_key_id: caller.keyId, created_at: now, updated_at: now })
      .execute();
    await trx
      .insertInto('post_targets')
      .values(
        targets.map((t, position) => ({
          id: newId('target', now),
          post_id: postId,
          organization_id: tenant.organizationId,
          position,
          account_id: t.accountId,
          platform: t.platform,
          input: JSON.stringify(t.input),
          options: JSON.stringify(t.options),
          warnings: JSON.stringify(t.warnings),
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: null,
          released_next: 0 as const,
          progress: '{}',
          platform_post_id: null,
          url: null,
          error: null,
          published_at: null,
          updated_at: now,
        })),
      )
      .execute();
    await attachMediaToPost(trx, deps.config, tenant.organizationId, postId, mediaUrlsOf(targets));
    if (status === 'pending_approval') await emitEvent(ctx, tenant.organizationId, 'post.pending_approval', { postId });
    if (status === 'scheduled' && scheduledFor !== null) await scheduleDispatch(ctx, postId, Math.max(scheduledFor, now));
    if (status === 'queued') await startDelivery(ctx, postId);
    if (requestKey !== null) await finishRequest(trx, tenant.organizationId, requestKey, postId);
  });
  const created = await findPost(tenant, postId);
  if (!created) throw new Error(`post ${postId} vanished after its creation`);
  return created;
}
