// POST /posts: the post, its targets and its first delivery step (the first target's job, the
// scheduled dispatch, or the pending_approval event) written in one transaction (on PostgreSQL,
// when nothing else goes with them, in one statement).
import type { AppDeps } from '../../deps.ts';
import type { Caller } from '../keys/service.ts';
import type { PostRow, PostStatus, PostTargetRow } from '../../db/schema.ts';
import { writeTogether, type Together } from '../../db/write-together.ts';
import { wakeLocalWorkers } from '../../jobs/wakeup.ts';
import type { Tenant } from '../../db/tenant.ts';
import { newId } from '../../lib/ids.ts';
import { emitEvent } from '../events/emit.ts';
import type { PostWithTargets } from './repo.ts';
import { dispatchJob, targetStepJob } from './delivery/release.ts';
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
  // The rows are built here whole (typed as read back, so a new column cannot be forgotten) and
  // answered as written, instead of read back with RETURNING.
  const post: PostRow = { id: postId, organization_id: tenant.organizationId, content: body.content, status, scheduled_for: scheduledFor, approved_at: null, rejected_reason: null, reviewed_by: null, reviewed_at: null, api_key_id: caller.keyId, created_at: now, updated_at: now };
  const rows = targets.map(
    (t, position): PostTargetRow => ({
      id: newId('target', now),
      post_id: postId,
      organization_id: tenant.organizationId,
      position,
      account_id: t.accountId,
      platform: t.platform,
      input: JSON.stringify(t.input),
      options: JSON.stringify(t.options),
      warnings: JSON.stringify(t.warnings),
      status: 'pending',
      attempts: 0,
      // A post that goes out now has its first target released as it is written (startDelivery's
      // effect, without reading the target back and updating it).
      next_attempt_at: status === 'queued' && position === 0 ? now : null,
      released_next: 0,
      progress: '{}',
      platform_post_id: null,
      url: null,
      error: null,
      published_at: null,
      comment_poll_at: null,
      updated_at: now,
    }),
  );
  const first = rows[0];
  const job =
    status === 'queued' && first ? targetStepJob(now, first.id, now) : status === 'scheduled' && scheduledFor !== null ? dispatchJob(now, postId, Math.max(scheduledFor, now)) : null;
  // The post, its targets and its first job: one statement on PostgreSQL (db/write-together.ts).
  const together: Together = {
    writes: [(db) => db.insertInto('posts').values(post), (db) => db.insertInto('post_targets').values(rows), ...(job ? [job.write] : [])],
    ...(job ? { notify: job.notify } : {}),
  };
  const mediaUrls = mediaUrlsOf(targets);
  const more = mediaUrls.length > 0 || status === 'pending_approval' || requestKey !== null;
  const { db } = deps.store;
  if (!more) await writeTogether(db, deps.store, together);
  else {
    await db.transaction().execute(async (trx) => {
      await writeTogether(trx, deps.store, together);
      await attachMediaToPost(trx, deps.config, tenant.organizationId, postId, mediaUrls);
      if (status === 'pending_approval') await emitEvent({ db: trx, store: deps.store, now }, tenant.organizationId, 'post.pending_approval', { postId });
      if (requestKey !== null) await finishRequest(trx, tenant.organizationId, requestKey, postId);
    });
  }
  if (job) wakeLocalWorkers();
  return { post, targets: rows };
}
