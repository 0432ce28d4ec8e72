// Which comment a reply is made on. A platform with one level of replies (instagram: its API
// refuses a reply to a reply, and its app attaches such a reply to the top-level comment) gets
// the reply on the top-level comment. The parent comes from the comment as the service recorded
// it (its comment.received: an inbox event keyed by the comment id) or, when the service never
// saw it, from the platform; elsewhere the comment itself.
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import type { CommentDeps } from './service.ts';

/** The parent a recorded comment had; undefined when the service has no record of it. */
async function recordedParent(tenant: Tenant, accountId: string, commentId: string): Promise<string | null | undefined> {
  const row = await tenant
    .selectFrom('inbox_events')
    .select(['kind', 'data'])
    .where('account_id', '=', accountId)
    .where('kind', 'in', ['comment', 'reply'])
    .where('dedupe_key', '=', commentId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.kind === 'comment') return null;
  const data: unknown = JSON.parse(row.data);
  const comment = data && typeof data === 'object' && 'comment' in data ? data.comment : null;
  const parentId = comment && typeof comment === 'object' && 'parentId' in comment ? comment.parentId : null;
  return typeof parentId === 'string' && parentId ? parentId : undefined;
}

/** The comment a reply to `commentId` is made on. */
export async function replyTarget(deps: CommentDeps, tenant: Tenant, account: AccountRow, commentId: string): Promise<string> {
  const threads = deps.platforms.of(account.platform)?.commentThreads;
  if (!threads) return commentId;
  const recorded = await recordedParent(tenant, account.id, commentId);
  if (recorded !== undefined) return recorded ?? commentId;
  return (await callPlatform(deps, account, (credentials) => threads.parentOf(credentials, commentId))) ?? commentId;
}
