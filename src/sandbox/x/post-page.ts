// The X post a link names (x.com/{username}/status/{id}), as the sandbox shows it
// (core/post-page.ts): its text (t.co links as X shows them), its media and poll; a reply or a
// quote says what it points to. Deleted posts are not found.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';

function show(ctx: RouteContext): unknown {
  const post = ctx.state.x.posts.get(ctx.params.id ?? '');
  const author = post ? ctx.state.people.xUsers.get(post.authorId) : undefined;
  if (!post || post.deleted || !author || author.username.toLowerCase() !== (ctx.params.username ?? '').toLowerCase()) return sendPostPage(ctx, null);
  const media = post.mediaIds.flatMap((id) => ctx.state.x.media.get(id) ?? []);
  return sendPostPage(ctx, {
    platform: 'X',
    author: `@${author.username}`,
    text: post.text,
    createdAt: post.createdAt,
    media: media.map((m) => ({ kind: m.category === 'tweet_video' ? ('video' as const) : ('image' as const), url: null })),
    notes: [
      ...(post.poll ? [`Poll: ${post.poll.options.join(' / ')} (${post.poll.durationMinutes} minutes)`] : []),
      ...(post.inReplyToId ? [`A reply to ${post.inReplyToId}`] : []),
      ...(post.quoteTweetId ? [`Quotes ${post.quoteTweetId}`] : []),
      ...(post.editHistory.length > 1 ? [`Edited (${post.editHistory.length - 1} times)`] : []),
    ],
  });
}

export function registerXPostPages(host: Host): void {
  host.get('/:username/status/:id', show);
}
