// The Pin a link names (www.pinterest.com/pin/{id}/), as the sandbox shows it (core/post-page.ts):
// its title, description, images or video, the board and the destination link. Deleted Pins are
// not found.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';

function show(ctx: RouteContext): unknown {
  const pin = ctx.state.pinterest.pins.get(ctx.params.id ?? '');
  if (!pin || pin.deleted) return sendPostPage(ctx, null);
  const owner = ctx.state.people.pinterestUsers.get(pin.ownerId);
  const board = ctx.state.people.pinterestBoards.get(pin.boardId);
  const section = board?.sections.find((s) => s.id === pin.sectionId);
  return sendPostPage(ctx, {
    platform: 'Pinterest',
    author: owner?.username ?? pin.ownerId,
    title: pin.title,
    text: pin.description,
    createdAt: pin.createdAt,
    media: pin.kind === 'video' ? [{ kind: 'video', url: null }] : pin.images.map((i) => ({ kind: 'image' as const, url: i.url })),
    link: pin.link,
    notes: [`Board: ${board?.name ?? pin.boardId}${section ? ` / ${section.name}` : ''}`, ...(pin.kind === 'carousel' ? [`Carousel of ${pin.images.length} images`] : [])],
  });
}

export function registerPinterestPinPages(host: Host): void {
  host.get('/pin/:id', show);
}
