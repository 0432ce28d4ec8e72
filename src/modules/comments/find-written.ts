// What an interrupted comment or reply made (http/idempotency.ts `find`): the account's own
// comment with the same text under the same post (a reply: under the comment answered, or under
// its top-level comment where the platform attaches replies there), written since the call
// began, read from the post's comment list. A reply by commentId alone is looked for under the
// post its comment.received event named; a comment the service never received cannot be placed,
// so its interrupted reply answers 409 REQUEST_OUTCOME_UNKNOWN, as does a post with more
// comments than a look reads.
import type { FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { tenantOf } from '../../http/auth.ts';
import { apiError } from '../../http/errors.ts';
import type { CommentPage, PlatformComment } from '../../platforms/types.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { findAccount, publishedTargets, type CommentDeps } from './service.ts';

/** Pages of 100 top-level comments read before giving up. */
const PAGES = 5;

const cannotLook = (why: string) =>
  apiError(
    'REQUEST_OUTCOME_UNKNOWN',
    `The earlier request with this x-request-id was interrupted after the platform call began, and ${why}, so it may have been made; nothing was sent again. Check the post, and send it with a new x-request-id if it is missing`,
  );

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields => (typeof value === 'object' && value !== null ? (value as Fields) : {});
const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');

interface Wanted {
  account: AccountRow;
  platformPostId: string;
  text: string;
  /** The comment answered (a reply), or null (a comment on the post). */
  parentId: string | null;
}

async function lookFor(deps: CommentDeps, wanted: Wanted, sinceMs: number): Promise<{ ok: true; id: string } | null> {
  const reader = deps.platforms.of(wanted.account.platform)?.commentReader;
  if (!reader) throw cannotLook(`${wanted.account.platform} comments cannot be listed`);
  const seen: PlatformComment[] = [];
  let after: string | null = null;
  for (let page = 0; page < PAGES; page++) {
    const cursor: string | null = after;
    const answer: CommentPage = await callPlatform(deps, wanted.account, (c) => reader.list(c, wanted.platformPostId, { limit: 100, after: cursor }));
    seen.push(...answer.comments);
    after = answer.after;
    if (after === null) break;
  }
  // A reply to a reply may sit under the top-level comment (instagram).
  const parents = new Set<string | null>([wanted.parentId]);
  const answered = wanted.parentId === null ? undefined : seen.find((c) => c.id === wanted.parentId);
  if (answered?.parentId) parents.add(answered.parentId);
  const found = seen.find((c) => c.isOwn && c.text === wanted.text && parents.has(c.parentId) && (c.createdAt === null || c.createdAt >= sinceMs));
  if (found) return { ok: true, id: found.id };
  if (after !== null) throw cannotLook('the post has more comments than a look reads');
  return null;
}

/** The post a received comment is under, from its comment.received event. */
async function postOfComment(tenant: Tenant, accountId: string, commentId: string): Promise<string | null> {
  const rows = await tenant.selectFrom('inbox_events').select('data').where('account_id', '=', accountId).where('dedupe_key', '=', commentId).execute();
  for (const row of rows) {
    const post = stringOf(fieldsOf(JSON.parse(row.data)).platformPostId);
    if (post) return post;
  }
  return null;
}

/** POST /inbox/comments. */
export async function findInboxComment(request: FastifyRequest, sinceMs: number) {
  const body = fieldsOf(request.body);
  const account = await findAccount(tenantOf(request), stringOf(body.accountId));
  return lookFor(request.server.deps, { account, platformPostId: stringOf(body.platformPostId), text: stringOf(body.text), parentId: null }, sinceMs);
}

/** POST /inbox/comments/{commentId}/reply. */
export async function findInboxReply(request: FastifyRequest, sinceMs: number) {
  const tenant = tenantOf(request);
  const body = fieldsOf(request.body);
  const commentId = stringOf(fieldsOf(request.params).commentId);
  const account = await findAccount(tenant, stringOf(body.accountId));
  const platformPostId = await postOfComment(tenant, account.id, commentId);
  if (platformPostId === null) throw cannotLook('the post of the comment answered is not known here');
  return lookFor(request.server.deps, { account, platformPostId, text: stringOf(body.text), parentId: commentId }, sinceMs);
}

/** POST /comments/{id}/reply: as the account of the published target with that platform post id. */
export async function findPublishedReply(request: FastifyRequest, sinceMs: number) {
  const tenant = tenantOf(request);
  const body = fieldsOf(request.body);
  const platformPostId = stringOf(body.platformPostId);
  const target = await publishedTargets(tenant).where('platform_post_id', '=', platformPostId).orderBy('id').executeTakeFirst();
  if (!target) return null;
  const account = await findAccount(tenant, target.account_id);
  return lookFor(request.server.deps, { account, platformPostId, text: stringOf(body.text), parentId: stringOf(fieldsOf(request.params).id) }, sinceMs);
}
