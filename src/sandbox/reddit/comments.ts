// reddit comment trees (`GET [/r/{sr}]/comments/{article}`, scope `read`): an array of two
// Listings, the link and its comments, each comment with its `replies` Listing ("" when none).
// `sort` (confidence, top, new, old, controversial, qa; all ties but new/old are newest first
// here, as every score is 1), `depth` and `limit` (comments in the tree, counted depth first) as
// reddit takes them; comments left out by the limit become a `more` stub under their parent, as
// reddit answers (following it with /api/morechildren is not simulated). A deleted comment with
// replies stays as `[deleted]`; without replies it is gone. People comment through the control
// API (`POST /_sandbox/reddit/comments`): reddit sends no webhooks, so nothing else happens.
import type { RedditUser } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { redditAuth } from './auth.ts';
import { httpError } from './errors.ts';
import { fullname, type RedditThing } from './store.ts';
import { child, listing } from './things.ts';

const MAX_LIMIT = 500;

function repliesOf(state: SandboxState, parent: string, sort: string): RedditThing[] {
  const hasLiveReplies = (t: RedditThing): boolean => [...state.reddit.things.values()].some((r) => r.parentId === fullname(t) && (!r.deleted || hasLiveReplies(r)));
  const rows = [...state.reddit.things.values()].filter((t) => t.kind === 't1' && t.parentId === parent && (!t.deleted || hasLiveReplies(t)));
  // Ids grow with time, so they order comments made in the same second.
  const byTime = (a: RedditThing, b: RedditThing) => a.createdUtc - b.createdUtc || parseInt(a.id, 36) - parseInt(b.id, 36);
  rows.sort(byTime);
  return sort === 'old' ? rows : rows.reverse();
}

export function commentTree(ctx: RouteContext): unknown {
  redditAuth(ctx, 'read');
  const link = ctx.state.reddit.things.get(`t3_${ctx.params.article ?? ''}`);
  if (!link || (ctx.params.sr && link.subreddit.toLowerCase() !== ctx.params.sr.toLowerCase())) throw httpError(404);
  const sort = ctx.query.sort ?? 'confidence';
  const depthLimit = Math.max(1, Number(ctx.query.depth ?? 10) || 10);
  let budget = Math.max(1, Math.min(Number(ctx.query.limit ?? 200) || 200, MAX_LIMIT));
  const level = (parent: string, depth: number): unknown => {
    const rows = repliesOf(ctx.state, parent, sort);
    const children: unknown[] = [];
    for (const [i, thing] of rows.entries()) {
      if (budget <= 0 || depth >= depthLimit) {
        const rest = rows.slice(i).map((t) => t.id);
        const first = rest[0] ?? '';
        children.push({ kind: 'more', data: { count: rest.length, name: `t1_${first}`, id: first, parent_id: parent, depth, children: rest } });
        break;
      }
      budget--;
      const entry = child(ctx.state, thing);
      const replies = level(fullname(thing), depth + 1);
      children.push({ ...entry, data: { ...entry.data, depth, replies } });
    }
    return children.length ? { kind: 'Listing', data: { after: null, dist: null, modhash: null, geo_filter: '', children, before: null } } : '';
  };
  const comments = level(fullname(link), 0);
  return [listing(ctx.state, [link]), comments || { kind: 'Listing', data: { after: null, dist: null, modhash: null, geo_filter: '', children: [], before: null } }];
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
