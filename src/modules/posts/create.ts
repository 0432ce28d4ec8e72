// POST /posts: the post, its targets and its first delivery step (the first target's job, the
// scheduled dispatch, or the pending_approval event) written in one transaction.
import type { AppDeps } from '../../deps.ts';
import type { Caller } from '../keys/service.ts';
import type { PostStatus } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { newId } from '../../lib/ids.ts';
import { emitEvent } from '../events/emit.ts';
import type { PostWithTargets } from './repo.ts';
import { queueTargetStep, scheduleDispatch } from './delivery/release.ts';
import type { NewPost } from './schemas.ts';
import { checkSchedule, resolveTargets, type ResolvedTarget } from './targets.ts';
import { finishRequest } from './idempotency.ts';
import { attachMediaToPost } from '../media/service.ts';
import { mediaUrlsOf } from './media-refs.ts';
import { reservePublishingWindows } from './publishing-window.ts';

export type CreateDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'sealer' | 'platforms'>;

export async function createPost(deps: CreateDeps, tenant: Tenant, caller: Caller, body: NewPost, requestKey: string | null): Promise<PostWithTargets> {
  const now = deps.clock.now();
  const scheduledFor = checkSchedule(body, now);
  const live = body.publishNow === true || scheduledFor !== null;
  const targets = await resolveTargets(tenant, body, live, deps.config.allowPrivateUrls);
  const approval = live && (caller.approvalRequired || targets.some((t) => t.approvalRequired));
  const status: PostStatus = !live ? 'draft' : approval ? 'pending_approval' : scheduledFor !== null ? 'scheduled' : 'queued';
  const postId = newId('post', now);
  // Only posts that go out now: a held or scheduled post meets the window when it is published.
  const reservation = status === 'queued' ? await reservePublishingWindows(deps, targets) : null;

  try {
    // The rows as written: a worker may already be delivering the post, but the answer shows it as created.
    return await insertPost(deps, { tenant, caller, body, requestKey, now, scheduledFor, status, postId, targets });
  } catch (error) {
    reservation?.release();
    throw error;
  }
}

interface NewPostRows {
  tenant: Tenant;
  caller: Caller;
  body: NewPost;
  requestKey: string | null;
  now: number;
  scheduledFor: number | null;
  status: PostStatus;
  postId: string;
  targets: ResolvedTarget[];
}

async function insertPost(deps: CreateDeps, { tenant, caller, body, requestKey, now, scheduledFor, status, postId, targets }: NewPostRows): Promise<PostWithTargets> {
  return deps.store.db.transaction().execute(async (trx) => {
    const ctx = { db: trx, store: deps.store, now };
    const post = await trx
      .insertInto('posts')
      .values({ id: postId, organization_id: tenant.organizationId, content: body.content, status, scheduled_for: scheduledFor, approved_at: null, rejected_reason: null, api_key_id: caller.keyId, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    // A post that goes out now has its first target released as it is written (startDelivery's
    // effect, without reading the target back and updating it).
    const ids = targets.map(() => newId('target', now));
    const rows = await trx
      .insertInto('post_targets')
      .values(
        targets.map((t, position) => ({
          id: ids[position] ?? newId('target', now),
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
          next_attempt_at: status === 'queued' && position === 0 ? now : null,
          released_next: 0 as const,
          progress: '{}',
          platform_post_id: null,
          url: null,
          error: null,
          published_at: null,
          updated_at: now,
        })),
      )
      .returningAll()
      .execute();
    await attachMediaToPost(trx, deps.config, tenant.organizationId, postId, mediaUrlsOf(targets));
    if (status === 'pending_approval') await emitEvent(ctx, tenant.organizationId, 'post.pending_approval', { postId });
    if (status === 'scheduled' && scheduledFor !== null) await scheduleDispatch(ctx, postId, Math.max(scheduledFor, now));
    if (status === 'queued' && ids[0] !== undefined) await queueTargetStep(ctx, ids[0], now);
    if (requestKey !== null) await finishRequest(trx, tenant.organizationId, requestKey, postId);
    return { post, targets: rows.sort((a, b) => a.position - b.position) };
  });
}
