// The reddit post a permalink names (www.reddit.com/r/{subreddit}/comments/{id}/{slug}), as the
// sandbox shows it (core/post-page.ts): title, self text or link, author and subreddit.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';

function show(ctx: RouteContext): unknown {
  const thing = ctx.state.reddit.things.get(`t3_${ctx.params.id ?? ''}`);
  if (!thing || thing.subreddit.toLowerCase() !== (ctx.params.sr ?? '').toLowerCase()) return sendPostPage(ctx, null);
  return sendPostPage(ctx, {
    platform: 'reddit',
    author: thing.deleted ? '[deleted]' : `u/${thing.author} in r/${thing.subreddit}`,
    title: thing.title,
    text: thing.deleted ? '[deleted]' : thing.text || null,
    createdAt: thing.createdUtc * 1000,
    media: [],
    link: thing.isSelf ? null : thing.url,
    notes: [...(thing.flairText ? [`Flair: ${thing.flairText}`] : []), ...(thing.nsfw ? ['NSFW'] : []), ...(thing.spoiler ? ['Spoiler'] : [])],
  });
}

export function registerRedditPostPages(host: Host): void {
  host.get('/r/:sr/comments/:id', show).get('/r/:sr/comments/:id/:slug', show);
}
