// The rest of the reddit API the service calls (platforms.md §6.2): comment (the tree is in
// comments.ts), edit, delete, info, the identity, and a subreddit's link flair templates.
import type { RouteContext } from '../core/router.ts';
import { redditAuth } from './auth.ts';
import { httpError, type ErrorTriplet } from './errors.ts';
import { storeComment } from './comments.ts';
import { envelope, form } from './submit.ts';
import { sliceListing } from './paging.ts';
import { child, listing } from './things.ts';

export function comment(ctx: RouteContext): unknown {
  const { user } = redditAuth(ctx, 'submit');
  const input = form(ctx);
  const parent = ctx.state.reddit.things.get(input.thing_id ?? '');
  const text = input.text ?? '';
  const errors: ErrorTriplet[] = [];
  if (!parent) errors.push(['NO_THING_ID', "can't find that thing", 'parent']);
  else if (parent.deleted) errors.push([parent.kind === 't3' ? 'DELETED_LINK' : 'DELETED_COMMENT', 'that thing has been deleted', 'parent']);
  if (!text.trim()) errors.push(['NO_TEXT', 'we need something here', 'text']);
  else if ([...text].length > 10_000) errors.push(['TOO_LONG', 'this is too long (max: 10000)', 'text']);
  if (errors.length || !parent) return envelope(input, errors);
  const thing = storeComment(ctx.state, parent, user, text);
  return envelope(input, [], { things: [child(ctx.state, thing)] });
}

export function editUserText(ctx: RouteContext): unknown {
  const { user } = redditAuth(ctx, 'edit');
  const input = form(ctx);
  const thing = ctx.state.reddit.things.get(input.thing_id ?? '');
  if (!thing || thing.deleted) return envelope(input, [['NO_THING_ID', "can't find that thing", 'thing_id']]);
  if (thing.authorId !== user.id) throw httpError(403);
  if (thing.kind === 't3' && !thing.isSelf) return envelope(input, [['NO_SELFS', 'only self posts and comments have text to edit', 'thing_id']]);
  const text = input.text ?? '';
  const limit = thing.kind === 't3' ? 40_000 : 10_000;
  if ([...text].length > limit) return envelope(input, [['TOO_LONG', `this is too long (max: ${limit})`, 'text']]);
  thing.text = text;
  thing.edited = Math.floor(ctx.state.clock.now() / 1000);
  return envelope(input, [], { things: [child(ctx.state, thing)] });
}

/** POST /api/del: the author's own things only; anything else is silently ignored, as reddit does. */
export function del(ctx: RouteContext): unknown {
  const { user } = redditAuth(ctx, 'edit');
  const thing = ctx.state.reddit.things.get(form(ctx).id ?? '');
  if (thing && thing.authorId === user.id) thing.deleted = true;
  return {};
}

export function info(ctx: RouteContext): unknown {
  redditAuth(ctx, 'read');
  const ids = (ctx.query.id ?? '').split(',').filter(Boolean);
  const things = [...ctx.state.reddit.things.values()];
  const found = ctx.query.url
    ? things.filter((t) => t.kind === 't3' && t.url === ctx.query.url && (!ctx.params.sr || t.subreddit.toLowerCase() === ctx.params.sr.toLowerCase()))
    : ids.flatMap((id) => {
        const thing = ctx.state.reddit.things.get(id);
        return thing ? [thing] : [];
      });
  return listing(ctx.state, found);
}

/**
 * GET /user/{username}/submitted (scope `history`): the user's links, newest first (`sort=new`;
 * links of one second in the order they were made), a page at a time (paging.ts).
 */
export function submitted(ctx: RouteContext): unknown {
  redditAuth(ctx, 'history');
  const name = (ctx.params.name ?? '').toLowerCase();
  const links = [...ctx.state.reddit.things.values()]
    .filter((t) => t.kind === 't3' && !t.deleted && t.author.toLowerCase() === name)
    .sort((a, b) => b.createdUtc - a.createdUtc || parseInt(b.id, 36) - parseInt(a.id, 36));
  const page = sliceListing(ctx, links);
  return listing(ctx.state, page.things, page);
}

export function me(ctx: RouteContext): unknown {
  const { user } = redditAuth(ctx, 'identity');
  return {
    name: user.name,
    id: user.id,
    created: user.createdUtc,
    created_utc: user.createdUtc,
    link_karma: user.linkKarma,
    comment_karma: user.commentKarma,
    total_karma: user.linkKarma + user.commentKarma,
    icon_img: user.iconImg,
    has_verified_email: true,
    is_suspended: false,
    over_18: true,
    verified: true,
  };
}

export function linkFlair(ctx: RouteContext): unknown {
  redditAuth(ctx, 'flair');
  const sub = ctx.state.people.subreddit(ctx.params.sr ?? '');
  if (!sub) throw httpError(404);
  return sub.flairs.map((f) => ({
    id: f.id,
    text: f.text,
    text_editable: f.textEditable,
    type: 'text',
    allowable_content: 'all',
    max_emojis: 10,
    mod_only: f.modOnly,
    css_class: '',
    richtext: [],
    text_color: 'dark',
    background_color: '',
    override_css: false,
  }));
}

