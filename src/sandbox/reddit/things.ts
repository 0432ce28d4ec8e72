// How reddit shows links (t3) and comments (t1): the `data` of a Listing child and of the
// `things` envelope (platforms.md §6.2).
import type { SandboxState } from '../core/state.ts';
import { fullname, type RedditThing } from './store.ts';

export function thingData(state: SandboxState, thing: RedditThing): Record<string, unknown> {
  // Votes are set through /_sandbox/insights/reddit-votes; a new thing has its author's upvote.
  const votes = state.insights.redditVotes.get(fullname(thing)) ?? { ups: 1, downs: 0 };
  const common = {
    id: thing.id,
    name: fullname(thing),
    author: thing.deleted ? '[deleted]' : thing.author,
    author_fullname: thing.deleted ? undefined : `t2_${thing.authorId}`,
    subreddit: thing.subreddit,
    subreddit_name_prefixed: `r/${thing.subreddit}`,
    created_utc: thing.createdUtc,
    edited: thing.edited,
    permalink: thing.permalink,
    score: votes.ups - votes.downs,
    ups: votes.ups,
    send_replies: thing.sendReplies,
  };
  if (thing.kind === 't1') {
    return { ...common, body: thing.deleted ? '[deleted]' : thing.text, link_id: thing.linkId, parent_id: thing.parentId, replies: '' };
  }
  const comments = [...state.reddit.things.values()].filter((t) => t.linkId === fullname(thing) && !t.deleted).length;
  return {
    ...common,
    title: thing.title,
    selftext: thing.deleted ? '[deleted]' : thing.text,
    url: thing.url ?? `https://www.reddit.com${thing.permalink}`,
    is_self: thing.isSelf,
    link_flair_template_id: thing.flairId,
    link_flair_text: thing.flairText,
    over_18: thing.nsfw,
    spoiler: thing.spoiler,
    num_comments: comments,
    upvote_ratio: votes.ups + votes.downs ? Math.round((votes.ups / (votes.ups + votes.downs)) * 100) / 100 : 0,
  };
}

export const child = (state: SandboxState, thing: RedditThing) => ({ kind: thing.kind, data: thingData(state, thing) });

/** A Listing of these things; `cursors` are the fullnames around a page (null: none, as for a whole list). */
export function listing(state: SandboxState, things: RedditThing[], cursors: { after: string | null; before: string | null } = { after: null, before: null }) {
  return { kind: 'Listing', data: { after: cursors.after, dist: things.length, modhash: null, geo_filter: '', children: things.map((t) => child(state, t)), before: cursors.before } };
}

/** `title_words_like_this` as reddit builds permalink slugs. */
export function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 50) || '_'
  );
}
