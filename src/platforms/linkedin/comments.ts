// Comments on LinkedIn organization posts (DESIGN "More platforms", Comments and inbox):
// socialActions/{urn}/comments read (newest first, `start`/`count` paging), written as the
// organization (the actor), replied to through the parent comment's URN, and the account's own
// deleted. A member's posts need the restricted r_member_social: their comments answer
// `permission` (missing_permission) with no call. Hiding and liking are not offered.
import { PlatformError } from '../errors.ts';
import { list, numberOf, obj, str, text } from '../json.ts';
import type { AccountCredentials, CommentReader, CommentRemover, CommentWriter, PlatformComment } from '../types.ts';
import { urnPath, type LinkedInApi } from './api.ts';
import { isOrganization } from './features.ts';
import { escapeLittleText, readLittleText } from './little-text.ts';

/** LinkedIn pages hold at most 100 elements. */
const MAX_COUNT = 100;
const COMMENT_URN = /^urn:li:comment:\((urn:li:(?:activity|share|ugcPost):\d+),(\d+)\)$/;

function organizationOnly(account: AccountCredentials): void {
  if (!isOrganization(account.metadata)) {
    throw new PlatformError('permission', "comments on a member's posts need LinkedIn's restricted r_member_social permission", { platform: 'linkedin', permission: 'r_member_social' });
  }
}

function parseCommentUrn(urn: string): { object: string; id: string } {
  const match = COMMENT_URN.exec(urn);
  if (!match?.[1] || !match[2]) throw new PlatformError('invalid', `${urn} is not a LinkedIn comment URN`, { platform: 'linkedin' });
  return { object: match[1], id: match[2] };
}

export function linkedinComments(api: LinkedInApi): { reader: CommentReader; writer: CommentWriter; remover: CommentRemover } {
  const create = async (account: AccountCredentials, path: string, body: Record<string, unknown>, message: string) => {
    const response = await api.rest({ method: 'POST', path, token: account.accessToken, json: { actor: account.platformUserId, ...body, message: { text: escapeLittleText(message) } } });
    const id = response.headers.get('x-restli-id') ?? str(obj(response.body).$URN);
    if (!id) throw new PlatformError('permanent', 'LinkedIn made the comment without naming it', { platform: 'linkedin' });
    return { id };
  };
  return {
    reader: {
      async list(account, postUrn, page) {
        organizationOnly(account);
        const start = Number(page.after ?? 0);
        const count = Math.min(page.limit, MAX_COUNT);
        const body = await api.restJson({ path: `/socialActions/${urnPath(postUrn)}/comments`, token: account.accessToken, query: { start, count } });
        const elements = list(body.elements).map(obj);
        const comments = elements.map(
          (c): PlatformComment => ({
            id: text(c.$URN) || text(c.id),
            platform: 'linkedin',
            platformPostId: postUrn,
            text: readLittleText(text(obj(c.message).text)),
            username: str(c.actor),
            parentId: str(c.parentComment),
            createdAt: numberOf(obj(c.created).time),
            hidden: false,
            likeCount: 0,
            isOwn: text(c.actor) === account.platformUserId,
          }),
        );
        return { comments, after: elements.length === count ? String(start + count) : null };
      },
    },
    writer: {
      async comment(account, postUrn, message) {
        organizationOnly(account);
        return create(account, `/socialActions/${urnPath(postUrn)}/comments`, { object: postUrn }, message);
      },
      async reply(account, commentUrn, message) {
        organizationOnly(account);
        const { object } = parseCommentUrn(commentUrn);
        return create(account, `/socialActions/${urnPath(commentUrn)}/comments`, { object, parentComment: commentUrn }, message);
      },
    },
    remover: {
      async remove(account, commentUrn) {
        organizationOnly(account);
        const { object, id } = parseCommentUrn(commentUrn);
        await api.rest({ method: 'DELETE', path: `/socialActions/${urnPath(object)}/comments/${id}`, token: account.accessToken, query: { actor: account.platformUserId } });
      },
    },
  };
}
