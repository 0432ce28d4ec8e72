// Reading posts with their targets: two queries for any number of posts (never one per post).
import type { Kysely } from 'kysely';
import type { Database, PostRow, PostTargetRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';

export interface PostWithTargets {
  post: PostRow;
  targets: PostTargetRow[];
}

export const LIST_LIMIT = 100;

async function withTargets(tenant: Tenant, posts: PostRow[]): Promise<PostWithTargets[]> {
  if (!posts.length) return [];
  const targets = await tenant
    .selectFrom('post_targets')
    .selectAll()
    .where('post_id', 'in', posts.map((p) => p.id))
    .orderBy('post_id')
    .orderBy('position')
    .execute();
  const byPost = new Map<string, PostTargetRow[]>();
  for (const target of targets) byPost.set(target.post_id, [...(byPost.get(target.post_id) ?? []), target]);
  return posts.map((post) => ({ post, targets: byPost.get(post.id) ?? [] }));
}

export async function findPost(tenant: Tenant, id: string): Promise<PostWithTargets | null> {
  const post = await tenant.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!post) return null;
  const [found] = await withTargets(tenant, [post]);
  return found ?? null;
}

/** The newest posts of the organization (ids sort by creation), optionally of one status. */
export async function listPosts(tenant: Tenant, status?: string): Promise<PostWithTargets[]> {
  return listPostsPage(tenant, { ...(status === undefined ? {} : { status }), limit: LIST_LIMIT });
}

export interface PostPage {
  status?: string;
  /** Only posts with a target on this account. */
  accountId?: string;
  /** Keyset paging: only posts older than this id (the last one of the previous page). */
  before?: string;
  limit: number;
}

/** One page of posts, newest first, read along the (organization, status, id) index. */
export async function listPostsPage(tenant: Tenant, page: PostPage): Promise<PostWithTargets[]> {
  const posts = await tenant
    .selectFrom('posts')
    .selectAll()
    .$if(page.status !== undefined, (qb) => qb.where('status', '=', page.status as PostRow['status']))
    .$if(page.before !== undefined, (qb) => qb.where('id', '<', page.before ?? ''))
    .$if(page.accountId !== undefined, (qb) =>
      qb.where('id', 'in', tenant.selectFrom('post_targets').select('post_id').where('account_id', '=', page.accountId ?? '')),
    )
    .orderBy('id', 'desc')
    .limit(page.limit)
    .execute();
  return withTargets(tenant, posts);
}

/** Locks the post row for the rest of the transaction (PostgreSQL; SQLite writers are serial). */
export async function lockPost(trx: Kysely<Database>, postId: string, now: number): Promise<PostRow | undefined> {
  return trx.updateTable('posts').set({ updated_at: now }).where('id', '=', postId).returningAll().executeTakeFirst();
}
