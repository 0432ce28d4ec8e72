// Comments through socialActions (linkedin.md §7): `POST /rest/socialActions/{urn}/comments`
// `{actor, object, message: {text}, parentComment?}` by the member or an organization they post
// for (201, the comment URN in x-restli-id); on a comment URN with `parentComment` it is a reply.
// The list of a post's comments (organization posts need r_organization_social; a member's, the
// restricted r_member_social) and `DELETE …/comments/{id}?actor=` of the actor's own comment.
import type { RouteContext } from '../core/router.ts';
import { obj } from '../core/control.ts';
import { restAuth } from './auth.ts';
import { checkActor } from './acting.ts';
import { linkedinError } from './errors.ts';
import { readLittleText } from './little-text.ts';
import type { LinkedInComment, LinkedInPost } from './store.ts';
import type { SandboxState } from '../core/state.ts';

const COMMENT_MAX = 1250;
const invalid = (field: string, message: string) => linkedinError(422, `/${field}: ${message}`, { code: 'UNPROCESSABLE_ENTITY' });
const activityOf = (postUrn: string) => postUrn.replace(/^urn:li:(share|ugcPost):/, 'urn:li:activity:');

/** The post a socialActions path names: the post itself (share or activity URN) or, for a reply, the parent comment's. */
function target(ctx: RouteContext): { post: LinkedInPost; parent: LinkedInComment | null } {
  const urn = ctx.params.urn ?? '';
  const parent = urn.startsWith('urn:li:comment:') ? ctx.state.linkedin.comments.get(urn) ?? null : null;
  const postUrn = parent?.postUrn ?? [...ctx.state.linkedin.posts.values()].find((p) => p.urn === urn || activityOf(p.urn) === urn)?.urn ?? '';
  const post = ctx.state.linkedin.posts.get(postUrn);
  if (!post || post.deleted || (urn.startsWith('urn:li:comment:') && !parent)) throw linkedinError(404, `${urn} does not exist`, { code: 'NOT_FOUND' });
  return { post, parent };
}

/** Adds a comment (the sandbox's people comment through the control API, comments.ts callers). */
export function addComment(state: SandboxState, post: LinkedInPost, actor: string, text: string, parent: LinkedInComment | null): LinkedInComment {
  const id = state.ids.numeric('linkedin-comment', '7', 19);
  const urn = `urn:li:comment:(${activityOf(post.urn)},${id})`;
  const comment: LinkedInComment = { urn, id, postUrn: post.urn, parentUrn: parent?.urn ?? null, actor, text, shown: readLittleText(text).shown, createdAt: state.clock.now(), deleted: false };
  state.linkedin.comments.set(urn, comment);
  return comment;
}

/** POST /rest/socialActions/{urn}/comments. */
export function createComment(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const { post, parent } = target(ctx);
  const body = obj(ctx.body);
  const actor = typeof body.actor === 'string' ? body.actor : '';
  if (!actor) throw invalid('actor', 'required');
  checkActor(ctx.state, caller, actor, 'write', 'actor');
  if (body.object !== post.urn && body.object !== activityOf(post.urn)) throw invalid('object', 'must be the post commented on');
  if (parent && body.parentComment !== parent.urn) throw invalid('parentComment', 'must be the comment replied to');
  const message = obj(body.message);
  if (typeof message.text !== 'string' || !message.text.trim()) throw invalid('message/text', 'required');
  if (readLittleText(message.text).shown.length > COMMENT_MAX) throw invalid('message/text', `at most ${COMMENT_MAX} characters`);
  const comment = addComment(ctx.state, post, actor, message.text, parent);
  return ctx.reply.status(201).header('x-restli-id', comment.urn).send({ id: comment.id, $URN: comment.urn, actor, object: body.object, message: { text: message.text } });
}

const present = (c: LinkedInComment) => ({
  id: c.id,
  $URN: c.urn,
  actor: c.actor,
  object: c.postUrn,
  ...(c.parentUrn ? { parentComment: c.parentUrn } : {}),
  message: { text: c.text },
  created: { actor: c.actor, time: c.createdAt },
});

/** GET /rest/socialActions/{urn}/comments, newest first (replies too, each naming its parentComment). */
export function listComments(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const { post } = target(ctx);
  checkActor(ctx.state, caller, post.author, 'read');
  const start = Number(ctx.query.start ?? 0);
  const count = Math.min(100, Number(ctx.query.count ?? 10));
  const all = [...ctx.state.linkedin.comments.values()].filter((c) => c.postUrn === post.urn && !c.deleted).sort((a, b) => b.createdAt - a.createdAt);
  return { elements: all.slice(start, start + count).map(present), paging: { start, count, total: all.length, links: [] } };
}

/** DELETE /rest/socialActions/{urn}/comments/{id}?actor=…: the actor's own comment; 204. */
export function deleteComment(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const { post } = target(ctx);
  const comment = [...ctx.state.linkedin.comments.values()].find((c) => c.postUrn === post.urn && c.id === ctx.params.id && !c.deleted);
  if (!comment) throw linkedinError(404, `Comment ${ctx.params.id ?? ''} does not exist`, { code: 'NOT_FOUND' });
  const actor = ctx.query.actor ?? '';
  checkActor(ctx.state, caller, actor, 'write', 'actor');
  if (comment.actor !== actor) throw linkedinError(403, 'Only the comment’s author may delete it', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
  comment.deleted = true;
  return ctx.reply.status(204).send();
}
