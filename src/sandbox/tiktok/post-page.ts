// The TikTok post a link names (www.tiktok.com/@{username}/video/{id} or /photo/{id}, the id
// being the public post id the publish status gives, platforms.md §5.5), as the sandbox shows
// it (core/post-page.ts). As on TikTok, the id finds the post whatever the handle says.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';

function show(kind: 'VIDEO' | 'PHOTO') {
  return (ctx: RouteContext): unknown => {
    const id = ctx.params.id ?? '';
    const publish = /^\d+$/.test(id) ? [...ctx.state.tiktok.publishes.values()].find((p) => p.postId !== null && String(p.postId) === id && p.media === kind) : undefined;
    if (!publish) return sendPostPage(ctx, null);
    const creator = ctx.state.people.tiktokCreators.get(publish.creatorId);
    const photo = publish.media === 'PHOTO';
    return sendPostPage(ctx, {
      platform: 'TikTok',
      author: `@${creator?.username ?? 'unknown'}`,
      title: photo ? publish.title : null,
      text: photo ? publish.description : publish.title,
      createdAt: publish.createdAt,
      media: publish.urls.map((url) => ({ kind: photo ? ('image' as const) : ('video' as const), url })),
      notes: publish.privacyLevel ? [`Privacy: ${publish.privacyLevel}`] : [],
    });
  };
}

export function registerTikTokPostPages(host: Host): void {
  host.get('/:handle/video/:id', show('VIDEO')).get('/:handle/photo/:id', show('PHOTO'));
}
