// reddit comment trees (`GET [/r/{sr}]/comments/{article}`, scope `read`): an array of two
// Listings, the link and its comments, each comment with its `replies` Listing ("" when none).
// `sort` (confidence, top, new, old, controversial, qa; all ties but new/old are newest first
// here, as every score is 1), `depth` and `limit` (comments in the tree, counted depth first) as
// reddit takes them. As reddit answers, comments left out by the limit become a `more` stub under
// their parent (their ids in `children`), and replies past the depth a "continue this thread"
// stub (`id` "_", no children); `comment={id36}` answers the thread under that comment.
// `GET /api/morechildren` (link_id, children, sort, limit_children, api_type=json) loads what a
// stub listed: at most 100 comments a call, flat in `json.data.things` (each with `parent_id`,
// `replies` ""), each requested comment followed by its replies unless limit_children; what does
// not fit comes back as `more` stubs. A deleted comment with replies stays as `[deleted]`;
// without replies it is gone. People comment through the control API
// (`POST /_sandbox/reddit/comments`): reddit sends no webhooks, so nothing else happens.
import type { RedditUser } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { redditAuth } from './auth.ts';
import { httpError } from './errors.ts';
import { fullname, type RedditThing } from './store.ts';
import { envelope, truthy } from './submit.ts';
import { child, listing } from './things.ts';

const MAX_LIMIT = 500;
/** reddit returns at most this many comments per /api/morechildren call. */
const MORE_LIMIT = 100;

const hasLiveReplies = (state: SandboxState, t: RedditThing): boolean =>
  [...state.reddit.things.values()].some((r) => r.parentId === fullname(t) && (!r.deleted || hasLiveReplies(state, r)));
/** Shown in a tree: live, or deleted with live replies under it. */
const visible = (state: SandboxState, t: RedditThing) => t.kind === 't1' && (!t.deleted || hasLiveReplies(state, t));

/** Oldest first for `old`, newest first otherwise; ids grow with time, so they order comments made in the same second. */
function sorted(rows: RedditThing[], sort: string): RedditThing[] {
  rows.sort((a, b) => a.createdUtc - b.createdUtc || parseInt(a.id, 36) - parseInt(b.id, 36));
  return sort === 'old' ? rows : rows.reverse();
}

function repliesOf(state: SandboxState, parent: string, sort: string): RedditThing[] {
  return sorted([...state.reddit.things.values()].filter((t) => t.parentId === parent && visible(state, t)), sort);
}

const depthOf = (state: SandboxState, t: RedditThing): number => {
  let depth = 0;
  for (let at = state.reddit.things.get(t.parentId ?? ''); at?.kind === 't1'; at = state.reddit.things.get(at.parentId ?? '')) depth++;
  return depth;
};

const moreStub = (parent: string, depth: number, ids: string[]) => ({
  kind: 'more',
  data: { count: ids.length, name: `t1_${ids[0] ?? ''}`, id: ids[0] ?? '', parent_id: parent, depth, children: ids },
});

/** Where the depth limit cut a thread: reddit's "continue this thread", followed with `?comment={parent}`. */
const continuation = (parent: string, depth: number) => ({ kind: 'more', data: { count: 0, name: 't1__', id: '_', parent_id: parent, depth, children: [] } });

export function commentTree(ctx: RouteContext): unknown {
  redditAuth(ctx, 'read');
  const link = ctx.state.reddit.things.get(`t3_${ctx.params.article ?? ''}`);
  if (!link || (ctx.params.sr && link.subreddit.toLowerCase() !== ctx.params.sr.toLowerCase())) throw httpError(404);
  // `comment`: the thread under one comment of the link, that comment first.
  const focus = ctx.query.comment ? ctx.state.reddit.things.get(`t1_${ctx.query.comment}`) : undefined;
  if (ctx.query.comment && (!focus || focus.linkId !== fullname(link) || !visible(ctx.state, focus))) throw httpError(404);
  const sort = ctx.query.sort ?? 'confidence';
  const depthLimit = Math.max(1, Number(ctx.query.depth ?? 10) || 10);
  let budget = Math.max(1, Math.min(Number(ctx.query.limit ?? 200) || 200, MAX_LIMIT));
  const level = (rows: RedditThing[], parent: string, depth: number): unknown => {
    const children: unknown[] = [];
    for (const [i, thing] of rows.entries()) {
      if (depth >= depthLimit) {
        children.push(continuation(parent, depth));
        break;
      }
      if (budget <= 0) {
        children.push(moreStub(parent, depth, rows.slice(i).map((t) => t.id)));
        break;
      }
      budget--;
      const entry = child(ctx.state, thing);
      const replies = level(repliesOf(ctx.state, fullname(thing), sort), fullname(thing), depth + 1);
      children.push({ ...entry, data: { ...entry.data, depth, replies } });
    }
    return children.length ? { kind: 'Listing', data: { after: null, dist: null, modhash: null, geo_filter: '', children, before: null } } : '';
  };
  const comments = focus ? level([focus], focus.parentId ?? '', 0) : level(repliesOf(ctx.state, fullname(link), sort), fullname(link), 0);
  return [listing(ctx.state, [link]), comments || { kind: 'Listing', data: { after: null, dist: null, modhash: null, geo_filter: '', children: [], before: null } }];
}

/** GET /api/morechildren: the listed comments of one link (others are ignored, as reddit does), flat. */
export function moreChildren(ctx: RouteContext): unknown {
  redditAuth(ctx, 'read');
  const input = ctx.query;
  const link = ctx.state.reddit.things.get(input.link_id ?? '');
  if (!link || link.kind !== 't3') throw httpError(404);
  const sort = input.sort ?? 'confidence';
  const asked = (input.children ?? '').split(',').map((id) => ctx.state.reddit.things.get(`t1_${id.trim()}`));
  const found = sorted(asked.filter((t): t is RedditThing => t !== undefined && t.linkId === fullname(link) && visible(ctx.state, t)), sort);
  const things: unknown[] = [];
  const left = new Map<string, { depth: number; ids: string[] }>();
  const seen = new Set<string>();
  const visit = (thing: RedditThing) => {
    if (seen.has(thing.id)) return;
    seen.add(thing.id);
    if (things.length >= MORE_LIMIT) {
      const parent = thing.parentId ?? '';
      const stub = left.get(parent) ?? { depth: depthOf(ctx.state, thing), ids: [] };
      stub.ids.push(thing.id);
      left.set(parent, stub);
      return;
    }
    const entry = child(ctx.state, thing);
    things.push({ ...entry, data: { ...entry.data, depth: depthOf(ctx.state, thing), replies: '' } });
    if (!truthy(input.limit_children)) for (const reply of repliesOf(ctx.state, fullname(thing), sort)) visit(reply);
  };
  for (const thing of found) visit(thing);
  for (const [parent, stub] of left) things.push(moreStub(parent, stub.depth, stub.ids));
  return envelope(input, [], { things });
}

/** A comment by `author` under a link or a comment (POST /api/comment, or a person through the control API). */
export function storeComment(state: SandboxState, parent: RedditThing, author: Pick<RedditUser, 'id' | 'name'>, text: string): RedditThing {
  const linkId = parent.kind === 't3' ? fullname(parent) : (parent.linkId ?? '');
  const id = state.ids.base36('reddit-thing', 1_500_000_000);
  const link = state.reddit.things.get(linkId);
  const thing: RedditThing = {
    kind: 't1',
    id,
    authorId: author.id,
    author: author.name,
    subreddit: parent.subreddit,
    title: null,
    text,
    url: null,
    isSelf: false,
    flairId: null,
    flairText: null,
    nsfw: false,
    spoiler: false,
    sendReplies: true,
    createdUtc: Math.floor(state.clock.now() / 1000),
    edited: false,
    deleted: false,
    parentId: fullname(parent),
    linkId,
    permalink: `${link?.permalink ?? `/r/${parent.subreddit}/comments/${linkId.slice(3)}/_/`}${id}/`,
  };
  state.reddit.things.set(fullname(thing), thing);
  return thing;
}

/** A person (a reddit user named `from.username`, made when new) comments on a link or replies to a comment. */
export function personComments(state: SandboxState, input: { thingId: string; text: string; username?: string | undefined }): { id: string; author: string } {
  const parent = state.reddit.things.get(input.thingId);
  if (!parent || parent.deleted) throw new Error(`no link or comment ${input.thingId}`);
  if (!input.text.trim() || [...input.text].length > 10_000) throw new Error('text: 1 to 10000 characters');
  const name = input.username ?? 'sandbox_commenter';
  const author = [...state.people.redditUsers.values()].find((u) => u.name.toLowerCase() === name.toLowerCase()) ?? state.addRedditUser({ name });
  return { id: fullname(storeComment(state, parent, author, input.text)), author: author.name };
}
