// The Instagram media a permalink names (www.instagram.com/p/{shortcode}, /reel/{shortcode},
// /stories/{shortcode}; platforms.md §2), as the sandbox shows it (core/post-page.ts): the
// caption, the image or video, a carousel's items.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage, type PostView } from '../core/post-page.ts';
import type { IgMedia } from './store.ts';

const PRODUCT: Record<IgMedia['productType'], string> = { FEED: 'A post', REELS: 'A Reel', STORY: 'A story' };

function mediaItems(ctx: RouteContext, media: IgMedia): PostView['media'] {
  const items = media.childIds.length ? media.childIds.flatMap((id) => ctx.state.meta.igMedia.get(id) ?? []) : [media];
  return items.map((m) => ({ kind: m.mediaType === 'VIDEO' ? ('video' as const) : ('image' as const), url: m.mediaUrl }));
}

function show(ctx: RouteContext): unknown {
  const shortcode = ctx.params.shortcode ?? '';
  const media = [...ctx.state.meta.igMedia.values()].find((m) => m.shortcode === shortcode && !m.isCarouselChild);
  if (!media) return sendPostPage(ctx, null);
  return sendPostPage(ctx, {
    platform: 'Instagram',
    author: `@${media.username}`,
    text: media.caption,
    createdAt: media.publishedAt,
    media: mediaItems(ctx, media),
    notes: [PRODUCT[media.productType]],
  });
}

export function registerInstagramPostPages(host: Host): void {
  for (const kind of ['p', 'reel', 'stories']) host.get(`/${kind}/:shortcode`, show);
}
