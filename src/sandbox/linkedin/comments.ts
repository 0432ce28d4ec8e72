// Comments through socialActions (linkedin.md §7): `POST /rest/socialActions/{urn}/comments`
// `{actor, object, message: {text}}` by the member or an organization they post for (201, the
// comment URN in x-restli-id), and the list of a post's comments (organization posts need
// r_organization_social; a member's, the restricted r_member_social).
import type { RouteContext } from '../core/router.ts';
import { obj } from '../core/control.ts';
import { restAuth } from './auth.ts';
import { checkActor } from './acting.ts';
import { linkedinError } from './errors.ts';
import { readLittleText } from './little-text.ts';

const COMMENT_MAX = 1250;
const invalid = (field: string, message: string) => linkedinError(422, `/${field}: ${message}`, { code: 'UNPROCESSABLE_ENTITY' });

function postOf(ctx: RouteContext) {
  const post = ctx.state.linkedin.posts.get(ctx.params.urn ?? '');
  if (!post || post.deleted) throw linkedinError(404, `Post ${ctx.params.urn ?? ''} does not exist`, { code: 'NOT_FOUND' });
  return post;
}

/** POST /rest/socialActions/{urn}/comments. */
export function createComment(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const post = postOf(ctx);
  const body = obj(ctx.body);
  const actor = typeof body.actor === 'string' ? body.actor : '';
  if (!actor) throw invalid('actor', 'required');
  checkActor(ctx.state, caller, actor, 'write', 'actor');
  if (body.object !== post.urn) throw invalid('object', 'must be the post commented on');
  const message = obj(body.message);
  if (typeof message.text !== 'string' || !message.text.trim()) throw invalid('message/text', 'required');
  const text = readLittleText(message.text);
  if (text.shown.length > COMMENT_MAX) throw invalid('message/text', `at most ${COMMENT_MAX} characters`);
  const id = ctx.state.ids.numeric('linkedin-comment', '7', 19);
  const activity = post.urn.replace(/^urn:li:(share|ugcPost):/, 'urn:li:activity:');
  const urn = `urn:li:comment:(${activity},${id})`;
  ctx.state.linkedin.comments.set(urn, { urn, id, postUrn: post.urn, actor, text: message.text, shown: text.shown, createdAt: ctx.state.clock.now() });
  return ctx.reply.status(201).header('x-restli-id', urn).send({ id, $URN: urn, actor, object: post.urn, message: { text: message.text } });
}

/** GET /rest/socialActions/{urn}/comments, newest first. */
export function listComments(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const post = postOf(ctx);
  checkActor(ctx.state, caller, post.author, 'read');
  const start = Number(ctx.query.start ?? 0);
  const count = Math.min(100, Number(ctx.query.count ?? 10));
  const all = [...ctx.state.linkedin.comments.values()].filter((c) => c.postUrn === post.urn).sort((a, b) => b.createdAt - a.createdAt);
  return {
    elements: all.slice(start, start + count).map((c) => ({ id: c.id, $URN: c.urn, actor: c.actor, object: c.postUrn, message: { text: c.text }, created: { actor: c.actor, time: c.createdAt } })),
    paging: { start, count, total: all.length, links: [] },
  };
}
