// Operations on posts that are live (contract "Published posts"; DESIGN §2 Posts): edit,
// unpublish, comments-settings. Which targets: with `accountId`, that account's target; without
// it, every published target whose platform offers the operation. Checked before any platform
// call, in this order: the post (404), the accountId (400), the platform (400 not_supported),
// a published target (409 NOT_PUBLISHED), approval (403 approval_required: the key, the
// organization or a target account requires it), the accounts' tokens (409 reconnect_required).
// Then each target's platform is called in the order of `platforms`; a platform failure answers
// through toApiError (an invalid token also marks the account needs_reconnect), and the targets
// before it keep their change.
import type { AccountRow, PostTargetRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { apiError, errors } from '../../http/errors.ts';
import type { AppDeps } from '../../deps.ts';
import type { AccountCredentials, EditedPost, Platforms, PublishProgress } from '../../platforms/types.ts';
import { refuseUnapproved } from '../accounts/approval-guard.ts';
import { callPlatform, reconnectRequired } from '../accounts/platform-call.ts';
import type { Caller } from '../keys/service.ts';
import { findPost } from './repo.ts';

export type PublishedOperation =
  | { kind: 'edit'; content: string }
  | { kind: 'unpublish' }
  | { kind: 'comments'; enabled: boolean };

export interface ChangedTarget {
  targetId: string;
  accountId: string;
  platform: string;
  platformPostId: string;
}

type Deps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;
type Call = (credentials: AccountCredentials, platformPostId: string, progress: PublishProgress) => Promise<void | EditedPost>;

const NAMES: Record<PublishedOperation['kind'], string> = { edit: 'editing a published post', unpublish: 'unpublishing a post', comments: 'changing comment settings' };

/** The platform call of the operation on a platform, or null when the platform does not offer it. */
function callFor(platforms: Platforms, platform: string, operation: PublishedOperation): Call | null {
  const adapter = platforms.of(platform);
  switch (operation.kind) {
    case 'edit': {
      const editor = adapter?.editor;
      return editor ? (credentials, id) => editor.edit(credentials, id, operation.content) : null;
    }
    case 'unpublish': {
      const remover = adapter?.remover;
      return remover ? (credentials, id, progress) => remover.unpublish(credentials, id, progress) : null;
    }
    case 'comments': {
      const target = adapter?.commentsSwitch;
      return target ? (credentials, id, progress) => target.setComments(credentials, id, operation.enabled, progress) : null;
    }
    default: {
      const unreachable: never = operation;
      return unreachable;
    }
  }
}

const offeredBy = (platforms: Platforms, operation: PublishedOperation) =>
  Object.keys(platforms.adapters)
    .filter((platform) => callFor(platforms, platform, operation))
    .join(', ');

function selectTargets(targets: PostTargetRow[], ops: Platforms, operation: PublishedOperation, accountId: string | undefined): PostTargetRow[] {
  const what = NAMES[operation.kind];
  if (accountId !== undefined) {
    const target = targets.find((t) => t.account_id === accountId);
    if (!target) throw errors.invalid('accountId', 'not a target account of this post');
    if (!callFor(ops, target.platform, operation)) throw errors.notSupported(`${target.platform} does not support ${what} (only ${offeredBy(ops, operation)})`);
    if (target.status !== 'published' || !target.platform_post_id) throw apiError('NOT_PUBLISHED', `The ${target.platform} target of this post is not published`);
    return [target];
  }
  const offered = targets.filter((t) => callFor(ops, t.platform, operation));
  if (!offered.length) throw errors.notSupported(`None of this post's platforms supports ${what} (only ${offeredBy(ops, operation)})`);
  const published = offered.filter((t) => t.status === 'published' && t.platform_post_id);
  if (!published.length) throw apiError('NOT_PUBLISHED', `No ${[...new Set(offered.map((t) => t.platform))].join(' or ')} target of this post is published`);
  return published;
}

/** What the publisher stored for the target ({} when unreadable). */
function progressOf(json: string): PublishProgress {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as PublishProgress) : {};
  } catch {
    return {};
  }
}

export async function runPublishedOperation(deps: Deps, tenant: Tenant, caller: Caller, postId: string, operation: PublishedOperation, accountId?: string): Promise<ChangedTarget[]> {
  const found = await findPost(tenant, postId);
  if (!found) throw errors.notFound('Post');
  const ops = deps.platforms;
  const targets = selectTargets(found.targets, ops, operation, accountId);
  const accounts = await tenant.selectFrom('accounts').selectAll().where('id', 'in', targets.map((t) => t.account_id)).execute();
  const byId = new Map<string, AccountRow>(accounts.map((a) => [a.id, a]));
  refuseUnapproved(caller, accounts, NAMES[operation.kind]);
  for (const target of targets) {
    const row = byId.get(target.account_id);
    if (!row) throw apiError('ACCOUNT_REMOVED', `The ${target.platform} account of this post was removed`);
    if (row.status === 'needs_reconnect') throw reconnectRequired(row);
  }
  const changed: ChangedTarget[] = [];
  for (const target of targets) {
    const row = byId.get(target.account_id);
    const call = callFor(ops, target.platform, operation);
    const platformPostId = target.platform_post_id ?? '';
    if (!row || !call) continue;
    const made = await callPlatform(deps, row, (credentials) => call(credentials, platformPostId, progressOf(target.progress)));
    if (made && made.platformPostId !== platformPostId) {
      // The edit is a new post (X): the target now names it, and its link follows the id.
      const url = target.url === null ? null : target.url.split(platformPostId).join(made.platformPostId);
      await tenant.updateTable('post_targets').set({ platform_post_id: made.platformPostId, url, updated_at: deps.clock.now() }).where('id', '=', target.id).execute();
      changed.push({ targetId: target.id, accountId: target.account_id, platform: target.platform, platformPostId: made.platformPostId });
      continue;
    }
    changed.push({ targetId: target.id, accountId: target.account_id, platform: target.platform, platformPostId });
  }
  return changed;
}
