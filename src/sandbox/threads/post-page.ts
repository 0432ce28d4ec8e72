// The Threads post a permalink names (www.threads.net/@{username}/post/{shortcode}), as the
// sandbox shows it (core/post-page.ts): its text, image or video, a carousel's items, the link
// attachment and topic tag; a reply says what it replies to.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';

function show(ctx: RouteContext): unknown {
  const shortcode = ctx.params.shortcode ?? '';
  const posts = ctx.state.threads.posts;
  const post = [...posts.values()].find((p) => p.shortcode === shortcode && !p.isCarouselChild);
  if (!post) return sendPostPage(ctx, null);
  const user = ctx.state.people.threadsUsers.get(post.userId);
  const items = post.childIds.length ? post.childIds.flatMap((id) => posts.get(id) ?? []) : [post];
  return sendPostPage(ctx, {
    platform: 'Threads',
    author: `@${user?.username ?? 'unknown'}`,
    text: post.text,
    createdAt: post.publishedAt,
    media: items.filter((p) => p.mediaType !== 'TEXT_POST').map((p) => ({ kind: p.mediaType === 'VIDEO' ? ('video' as const) : ('image' as const), url: p.mediaUrl })),
    link: post.linkAttachment,
    notes: [...(post.topicTag ? [`Topic: ${post.topicTag}`] : []), ...(post.replyToId ? [`A reply to ${post.replyToId}`] : [])],
  });
}

export function registerThreadsPostPages(host: Host): void {
  host.get('/:handle/post/:shortcode', show);
}
