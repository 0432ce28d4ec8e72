// Comment operations (contract "Comments and inbox", DESIGN §2): read live from the platform,
// written as one account. Checked before any platform call, in this order: the accountId (400
// naming it), the account or post (404; another organization's is unknown through the tenant
// scope), the platform (400 not_supported), approval for writes (403 approval_required: the key,
// the organization or the account requires it), the account's token (409 reconnect_required).
// Platform failures answer through callPlatform (toApiError; an `auth` failure also marks the
// account needs_reconnect). Comment writes are single calls, never retried here.
import { findAccount } from '../accounts/find-account.ts';
import type { AccountRow, PostTargetRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import type { AppDeps } from '../../deps.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';
import { inboxCommentPlatforms } from '../../platforms/registry.ts';
import type { AccountCredentials, CommentPage, Platform, PlatformAdapter, PlatformComment, PlatformMention } from '../../platforms/types.ts';
import { refuseUnapproved } from '../accounts/approval-guard.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { replyTarget } from './reply-target.ts';
import type { CommentView, MentionView } from './schemas.ts';

export type CommentDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;


type Capability = 'commentReader' | 'commentWriter' | 'commentHider' | 'commentLiker' | 'commentRemover' | 'mentionReader';

const WHAT: Record<Capability, string> = {
  commentReader: 'listing comments',
  commentWriter: 'writing comments',
  commentHider: 'hiding comments',
  commentLiker: 'liking comments',
  commentRemover: 'deleting comments',
  mentionReader: 'mentions',
};

/** The adapter's capability, or 400 not_supported naming the platforms that offer it. */
export function capabilityOf<C extends Capability>(deps: CommentDeps, platform: string, capability: C): NonNullable<PlatformAdapter[C]> {
  const member = deps.platforms.of(platform)?.[capability];
  if (member) return member;
  const offered = Object.entries(deps.platforms.adapters)
    .filter(([, adapter]) => adapter[capability])
    .map(([name]) => name);
  throw errors.notSupported(`${platform} does not support ${WHAT[capability]} (only ${offered.join(', ')})`);
}

export function requireAccountId(accountId: string | undefined): string {
  if (accountId === undefined || accountId === '') throw errors.invalid('accountId', 'required');
  return accountId;
}

export { findAccount };

export function presentComment(comment: PlatformComment, accountId: string, postId: string | null): CommentView {
  return {
    id: comment.id,
    platform: comment.platform,
    accountId,
    platformPostId: comment.platformPostId,
    postId,
    text: comment.text,
    username: comment.username,
    parentId: comment.parentId,
    createdAt: comment.createdAt === null ? null : new Date(comment.createdAt).toISOString(),
    hidden: comment.hidden,
    likeCount: comment.likeCount,
    isOwn: comment.isOwn,
  };
}

export function presentMention(mention: PlatformMention, accountId: string): MentionView {
  return {
    mediaId: mention.mediaId,
    platform: mention.platform,
    accountId,
    caption: mention.caption,
    mediaType: mention.mediaType,
    permalink: mention.permalink,
    username: mention.username,
    createdAt: mention.createdAt === null ? null : new Date(mention.createdAt).toISOString(),
  };
}

// The cursor is opaque to clients: the platform's cursor wrapped, so that its form can change.
const CURSOR_PREFIX = 'c1.';
export const wrapCursor = (after: string | null) => (after === null ? null : CURSOR_PREFIX + Buffer.from(after, 'utf8').toString('base64url'));
export function unwrapCursor(after: string | undefined): string | null {
  if (after === undefined) return null;
  const body = after.startsWith(CURSOR_PREFIX) ? after.slice(CURSOR_PREFIX.length) : '';
  const decoded = /^[A-Za-z0-9_-]+$/.test(body) ? Buffer.from(body, 'base64url').toString('utf8') : '';
  if (!decoded || decoded.includes('\u0000')) throw errors.invalid('after', 'not a cursor of this API');
  return decoded;
}

/** The organization's published targets with a platform post id. */
export function publishedTargets(tenant: Tenant) {
  return tenant.selectFrom('post_targets').selectAll().where('status', '=', 'published').where('platform_post_id', 'is not', null);
}

export interface InboxListQuery {
  postId?: string;
  accountId?: string;
  platformPostId?: string;
  limit: number;
  after?: string;
}

/** GET /inbox/comments: one target's comments, by post (optionally narrowed by accountId) or by account and platform post id. */
export async function listInboxComments(deps: CommentDeps, tenant: Tenant, query: InboxListQuery): Promise<{ comments: CommentView[]; after: string | null }> {
  const cursor = unwrapCursor(query.after);
  let account: AccountRow;
  let platformPostId: string;
  let postId: string | null;
  if (query.postId !== undefined) {
    const post = await tenant.selectFrom('posts').select('id').where('id', '=', query.postId).executeTakeFirst();
    if (!post) throw errors.notFound('Post');
    const targets = await publishedTargets(tenant).where('post_id', '=', post.id).orderBy('position').execute();
    const chosen = query.accountId === undefined ? targets : targets.filter((t) => t.account_id === query.accountId);
    if (query.accountId !== undefined && !chosen.length) throw errors.invalid('accountId', 'not a published target account of this post');
    const target = chosen.find((t) => inboxCommentPlatforms().includes(t.platform as Platform));
    if (!target) throw errors.notSupported(`None of this post's published targets lists comments here (only ${inboxCommentPlatforms().join(', ')})`);
    account = await findAccount(tenant, target.account_id);
    platformPostId = target.platform_post_id ?? '';
    postId = post.id;
  } else {
    if (query.accountId === undefined) throw errors.invalid('postId', 'required (or accountId with platformPostId)');
    account = await findAccount(tenant, query.accountId);
    if (query.platformPostId === undefined) throw errors.invalid('platformPostId', 'required with accountId');
    platformPostId = query.platformPostId;
    const target = await publishedTargets(tenant).where('account_id', '=', account.id).where('platform_post_id', '=', platformPostId).select('post_id').executeTakeFirst();
    postId = target?.post_id ?? null;
  }
  if (!inboxCommentPlatforms().includes(account.platform as Platform)) throw errors.notSupported(`${account.platform} comments are not listed here (only ${inboxCommentPlatforms().join(', ')}); use GET /posts/{id}/comments`);
  const reader = capabilityOf(deps, account.platform, 'commentReader');
  const page: CommentPage = await callPlatform(deps, account, (credentials) => reader.list(credentials, platformPostId, { limit: query.limit, after: cursor }));
  return { comments: page.comments.map((c) => presentComment(c, account.id, postId)), after: wrapCursor(page.after) };
}

/** The comment lists of every published target of a post whose platform has them. */
export async function listPostComments(deps: CommentDeps, tenant: Tenant, postId: string) {
  const post = await tenant.selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst();
  if (!post) throw errors.notFound('Post');
  const targets = await publishedTargets(tenant).where('post_id', '=', post.id).orderBy('position').execute();
  const comments: CommentView[] = [];
  const failures: Array<{ accountId: string; error: { message: string; code?: string } }> = [];
  for (const target of targets) {
    const reader = deps.platforms.of(target.platform)?.commentReader;
    if (!reader) continue;
    try {
      const account = await findAccount(tenant, target.account_id);
      const page = await callPlatform(deps, account, (credentials) => reader.list(credentials, target.platform_post_id ?? '', { limit: 100, after: null }));
      comments.push(...page.comments.map((c) => presentComment(c, account.id, post.id)));
      for (const { permission, what } of page.withheld ?? []) {
        failures.push({ accountId: target.account_id, error: { message: `${permission} is not granted: ${what} are left out; grant it when connecting, then reconnect the account`, code: 'missing_permission' } });
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      failures.push({ accountId: target.account_id, error: { message: error.message, ...(error.code ? { code: error.code } : {}) } });
    }
  }
  return { comments, errors: failures };
}

export type CommentWrite =
  | { kind: 'reply'; commentId: string; text: string }
  | { kind: 'comment'; platformPostId: string; text: string }
  | { kind: 'hide'; commentId: string; hidden: boolean }
  | { kind: 'like'; commentId: string; liked: boolean }
  | { kind: 'delete'; commentId: string };

const WRITE_NAMES: Record<CommentWrite['kind'], string> = { reply: 'replying', comment: 'commenting', hide: 'hiding or unhiding a comment', like: 'liking or unliking a comment', delete: 'deleting a comment' };

/** What a write made: the created comment's id (reply and comment); for a reply, the comment it was made on. */
export interface Written {
  id?: string;
  repliedTo?: string;
}

/** A comment write as the account; a reply is made where replyTarget says. */
async function writeAs(deps: CommentDeps, tenant: Tenant, caller: Caller, account: AccountRow, write: CommentWrite): Promise<Written> {
  const call = writeCall(deps, account.platform, write);
  refuseUnapproved(caller, account, WRITE_NAMES[write.kind]);
  if (write.kind !== 'reply') return callPlatform(deps, account, call);
  const repliedTo = await replyTarget(deps, tenant, account, write.commentId);
  const made = await callPlatform(deps, account, repliedTo === write.commentId ? call : writeCall(deps, account.platform, { ...write, commentId: repliedTo }));
  return { ...made, repliedTo };
}

type Call = (credentials: AccountCredentials) => Promise<{ id?: string }>;

function writeCall(deps: CommentDeps, platform: string, write: CommentWrite): Call {
  switch (write.kind) {
    case 'reply': {
      const writer = capabilityOf(deps, platform, 'commentWriter');
      return (c) => writer.reply(c, write.commentId, write.text);
    }
    case 'comment': {
      const writer = capabilityOf(deps, platform, 'commentWriter');
      return (c) => writer.comment(c, write.platformPostId, write.text);
    }
    case 'hide': {
      const hider = capabilityOf(deps, platform, 'commentHider');
      return async (c) => (await hider.setHidden(c, write.commentId, write.hidden), {});
    }
    case 'like': {
      const liker = capabilityOf(deps, platform, 'commentLiker');
      return async (c) => (await liker.setLiked(c, write.commentId, write.liked), {});
    }
    case 'delete': {
      const remover = capabilityOf(deps, platform, 'commentRemover');
      return async (c) => (await remover.remove(c, write.commentId), {});
    }
    default: {
      const unreachable: never = write;
      return unreachable;
    }
  }
}

/** An /inbox/comments write as `accountId`. */
export async function writeComment(deps: CommentDeps, tenant: Tenant, caller: Caller, accountId: string | undefined, write: CommentWrite): Promise<Written> {
  const account = await findAccount(tenant, requireAccountId(accountId));
  return writeAs(deps, tenant, caller, account, write);
}

/** POST /comments/{id}/reply: as the account of the organization's published target with that platform post id. */
export async function replyOnPublishedPost(deps: CommentDeps, tenant: Tenant, caller: Caller, commentId: string, platformPostId: string, text: string): Promise<Written> {
  const target: PostTargetRow | undefined = await publishedTargets(tenant).where('platform_post_id', '=', platformPostId).orderBy('id').executeTakeFirst();
  if (!target) throw errors.notFound('Published post');
  const account = await findAccount(tenant, target.account_id);
  return writeAs(deps, tenant, caller, account, { kind: 'reply', commentId, text });
}

export async function listMentions(deps: CommentDeps, tenant: Tenant, accountId: string, limit: number): Promise<MentionView[]> {
  const account = await findAccount(tenant, accountId);
  const reader = capabilityOf(deps, account.platform, 'mentionReader');
  const mentions = await callPlatform(deps, account, (credentials) => reader.mentions(credentials, limit));
  return mentions.map((m) => presentMention(m, account.id));
}
