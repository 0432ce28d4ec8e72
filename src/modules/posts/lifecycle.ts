// The transitions a client makes: PATCH (content), DELETE, and POST /posts/{id}/publish, each in
// one transaction that starts by locking the post row, so a concurrent delivery step or request
// sees either the state before or the state after, never half of it.
import type { Kysely } from 'kysely';
import type { Database, PostRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { apiError, errors } from '../../http/errors.ts';
import { emitEvent } from '../events/emit.ts';
import type { Caller } from '../keys/service.ts';
import type { CreateDeps } from './create.ts';
import { cancelDispatch, startDelivery } from './delivery/release.ts';
import { lockPost } from './repo.ts';
import { accountsRequireApproval, revalidateTargets } from './targets.ts';
import { releaseMediaOfPost } from '../media/service.ts';
import { carryOverMarkers } from '../../platforms/create-once.ts';
import type { PublishProgress } from '../../platforms/types.ts';

const EDITABLE = new Set(['draft', 'scheduled', 'pending_approval', 'failed']);

async function lockOwn(trx: Kysely<Database>, tenant: Tenant, postId: string, now: number): Promise<PostRow> {
  const owned = await tenant.with(trx).selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst();
  const post = owned ? await lockPost(trx, postId, now) : undefined;
  if (!post) throw errors.notFound('Post');
  return post;
}

async function storeValidation(trx: Kysely<Database>, postId: string, content: string, live: boolean, allowHttp: boolean, now: number): Promise<void> {
  const targets = await trx.selectFrom('post_targets').selectAll().where('post_id', '=', postId).where('status', '<>', 'published').orderBy('position').execute();
  const results = revalidateTargets(targets, content, live, allowHttp);
  for (const [i, target] of targets.entries()) {
    const result = results[i];
    if (!result) continue;
    await trx.updateTable('post_targets').set({ options: JSON.stringify(result.options), warnings: JSON.stringify(result.warnings), updated_at: now }).where('id', '=', target.id).execute();
  }
}

export async function updatePostContent(deps: CreateDeps, tenant: Tenant, postId: string, content: string): Promise<void> {
  const now = deps.clock.now();
  await deps.store.db.transaction().execute(async (trx) => {
    const post = await lockOwn(trx, tenant, postId, now);
    if (!EDITABLE.has(post.status)) throw apiError('NOT_EDITABLE', `A ${post.status} post cannot be edited (only draft, scheduled, pending_approval and failed posts)`);
    await storeValidation(trx, postId, content, post.status === 'scheduled' || post.status === 'pending_approval', deps.config.allowPrivateUrls, now);
    // Approval was given to the old content: new content needs it again.
    const reapprove = post.approved_at !== null && post.status === 'scheduled';
    await trx
      .updateTable('posts')
      .set({ content, updated_at: now, approved_at: null, ...(reapprove ? { status: 'pending_approval' as const } : {}) })
      .where('id', '=', postId)
      .execute();
    if (reapprove) {
      await cancelDispatch(trx, postId);
      await emitEvent({ db: trx, store: deps.store, now }, tenant.organizationId, 'post.pending_approval', { postId });
    }
  });
}

/** Removes the post in the service only (published posts stay on the platforms). */
export async function deletePost(deps: CreateDeps, tenant: Tenant, postId: string): Promise<void> {
  const now = deps.clock.now();
  await deps.store.db.transaction().execute(async (trx) => {
    const post = await lockOwn(trx, tenant, postId, now);
    if (post.status === 'queued' || post.status === 'publishing') throw apiError('PUBLISH_IN_PROGRESS', 'The post is being published; it can be deleted once delivery has finished');
    await cancelDispatch(trx, postId);
    await releaseMediaOfPost(trx, deps.store, tenant.organizationId, postId, now);
    await trx.deleteFrom('post_targets').where('post_id', '=', postId).execute();
    await trx.deleteFrom('posts').where('id', '=', postId).execute();
  });
}

export type PublishResult = 'queued' | 'pending_approval';

/** Publishes now: from draft, scheduled, failed or partial; failed targets start over. */
export async function publishPost(deps: CreateDeps, tenant: Tenant, caller: Caller, postId: string): Promise<PublishResult> {
  const now = deps.clock.now();
  return deps.store.db.transaction().execute(async (trx) => {
    const post = await lockOwn(trx, tenant, postId, now);
    switch (post.status) {
      case 'published':
        throw apiError('ALREADY_PUBLISHED', 'The post is already published');
      case 'pending_approval':
        throw apiError('APPROVAL_REQUIRED', 'The post is waiting for approval');
      case 'queued':
      case 'publishing':
        throw apiError('PUBLISH_IN_PROGRESS', 'The post is being published');
      case 'rejected':
        throw apiError('REJECTED', 'The post was rejected by an approver');
      case 'draft':
      case 'scheduled':
      case 'failed':
      case 'partial':
        break;
      default: {
        const unreachable: never = post.status;
        throw new Error(`unknown post status ${String(unreachable)}`);
      }
    }
    await storeValidation(trx, postId, post.content, true, deps.config.allowPrivateUrls, now);
    // Failed targets start over, except that a call whose fate is unknown is still reconciled
    // before anything is sent again (create-once.ts), and the parts already live are kept where
    // the platform's publisher says which they are (keepOnRetry).
    const restart = await trx.selectFrom('post_targets').select(['id', 'platform', 'progress']).where('post_id', '=', postId).where('status', 'in', ['failed', 'pending']).execute();
    for (const target of restart) {
      const stored = JSON.parse(target.progress) as PublishProgress;
      const publisher = deps.platforms.of(target.platform)?.publisher;
      const progress = JSON.stringify({ ...publisher?.keepOnRetry?.(stored), ...carryOverMarkers(stored) });
      await trx.updateTable('post_targets').set({ status: 'pending', attempts: 0, error: null, next_attempt_at: null, released_next: 0, progress, updated_at: now }).where('id', '=', target.id).execute();
    }
    await cancelDispatch(trx, postId);
    const accountIds = (await trx.selectFrom('post_targets').select('account_id').where('post_id', '=', postId).execute()).map((r) => r.account_id);
    const approval = post.approved_at === null && (caller.approvalRequired || (await accountsRequireApproval(tenant.with(trx), accountIds)));
    const ctx = { db: trx, store: deps.store, now };
    if (approval) {
      await trx.updateTable('posts').set({ status: 'pending_approval', updated_at: now }).where('id', '=', postId).execute();
      await emitEvent(ctx, tenant.organizationId, 'post.pending_approval', { postId });
      return 'pending_approval';
    }
    await trx.updateTable('posts').set({ status: 'queued', updated_at: now }).where('id', '=', postId).execute();
    await startDelivery(ctx, postId);
    return 'queued';
  });
}
