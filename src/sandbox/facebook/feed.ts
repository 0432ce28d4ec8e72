// POST /{page-id}/feed, /{page-id}/photos and /{page-id}/photo_stories (platforms.md §3.1):
// text and link posts, drafts (`published=false`), scheduled posts (`scheduled_publish_time`
// 10 minutes to 30 days ahead, only with published=false), multi-photo posts from unpublished
// photos (`attached_media`), single photos fetched for real from `url`, and photo stories.
// Posting the same content twice in a row is `(#506) Duplicate status message`.
import type { FacebookPage } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { fetchMedia } from '../media/fetch.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { bool, str, type GraphInput } from '../meta/params.ts';
import { isHttpUrl } from '../oauth/consent.ts';
import { createPost, MESSAGE_LIMIT } from './posts.ts';
import type { FbPhoto } from './store.ts';

const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const PHOTO_MAX = 10 * 1024 * 1024;

function message(input: GraphInput, key = 'message'): string | null {
  const text = str(input, key) ?? null;
  if (text !== null && [...text].length > MESSAGE_LIMIT) throw invalidParameter(`(#100) Param ${key} must be at most ${MESSAGE_LIMIT} characters long.`);
  return text;
}

/** `scheduled_publish_time` (unix seconds or ISO 8601), only on unpublished posts. */
export function scheduledTime(ctx: RouteContext, input: GraphInput, published: boolean): number | null {
  const raw = str(input, 'scheduled_publish_time');
  if (raw === undefined) return null;
  if (published) throw invalidParameter('(#100) Cannot specify a scheduled publish time on a published post');
  const at = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  const ahead = at - ctx.state.clock.now();
  if (!Number.isFinite(at) || ahead < 10 * 60_000 || ahead > 30 * 86_400_000) {
    throw invalidParameter('(#100) The specified scheduled publish time is invalid. It must be between 10 minutes and 30 days from the time of the API request.');
  }
  return at;
}

/** attached_media[0]={"media_fbid":"…"} (form) or attached_media=[{…}] (JSON). */
function attachedMedia(input: GraphInput): string[] {
  const items: unknown[] = [];
  const whole = input.attached_media;
  if (Array.isArray(whole)) items.push(...(whole as unknown[]));
  else if (typeof whole === 'string') items.push(...([JSON.parse(whole)].flat() as unknown[]));
  for (const [key, value] of Object.entries(input)) if (/^attached_media\[\d+\]$/.test(key)) items.push(typeof value === 'string' ? JSON.parse(value) : value);
  return items.map((item) => {
    const id = (item as { media_fbid?: unknown } | null)?.media_fbid;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
  });
}

export function postToFeed(ctx: RouteContext, input: GraphInput, page: FacebookPage): { id: string } {
  const state = ctx.state;
  const text = message(input);
  const link = str(input, 'link') ?? null;
  if (link !== null && !isHttpUrl(link)) throw invalidParameter('(#100) The link URL is not properly formatted');
  let photoIds: string[];
  try {
    photoIds = attachedMedia(input);
  } catch {
    throw invalidParameter('(#100) Param attached_media must be a list of {"media_fbid":"…"}');
  }
  for (const id of photoIds) {
    const photo = state.meta.fbPhotos.get(id);
    if (!photo || photo.pageId !== page.id || photo.published || photo.attachedTo) throw invalidParameter(`(#100) attached_media: ${id} is not an unpublished photo of this Page`);
  }
  if (!text && !link && !photoIds.length) throw invalidParameter('(#100) Missing message or attachment');
  const published = bool(input, 'published') ?? true;
  const scheduledAt = scheduledTime(ctx, input, published);
  const last = [...state.meta.fbPosts.values()].filter((p) => p.pageId === page.id).at(-1);
  if (last && text && last.message === text && last.link === link && !photoIds.length) throw graphError({ code: 506, message: '(#506) Duplicate status message' });
  const post = createPost(state, page, { kind: photoIds.length ? 'album' : link ? 'link' : 'status', message: text, link, published, scheduledAt, photoIds });
  for (const id of photoIds) {
    const photo = state.meta.fbPhotos.get(id);
    if (photo) photo.attachedTo = post.id;
  }
  return { id: post.id };
}

export async function postPhoto(ctx: RouteContext, input: GraphInput, page: FacebookPage): Promise<{ id: string; post_id?: string }> {
  const url = str(input, 'url');
  if (!url) throw graphError({ code: 324, message: '(#324) Requires upload file' });
  const caption = message(input, str(input, 'caption') !== undefined ? 'caption' : 'message');
  const published = bool(input, 'published') ?? true;
  const scheduledAt = scheduledTime(ctx, input, published);
  const fetched = await ctx.state.track(fetchMedia(url, ctx.state.settings.media));
  if (!fetched.ok || !fetched.type || !PHOTO_TYPES.includes(fetched.type.mime)) throw graphError({ code: 324, message: '(#324) Missing or invalid image file' });
  if (fetched.size > PHOTO_MAX) throw graphError({ code: 100, message: '(#100) The image is too large; photos can be up to 10 MB.' });
  const photo: FbPhoto = {
    id: ctx.state.ids.numeric('fb-photo', '1', 16),
    pageId: page.id,
    url,
    caption,
    published: published || scheduledAt !== null,
    postId: null,
    createdAt: ctx.state.clock.now(),
    attachedTo: null,
  };
  ctx.state.meta.fbPhotos.set(photo.id, photo);
  if (!photo.published) return { id: photo.id };
  const post = createPost(ctx.state, page, { kind: 'photo', message: caption, photoIds: [photo.id], published, scheduledAt });
  photo.postId = post.id;
  photo.attachedTo = post.id;
  return { id: photo.id, post_id: post.id };
}

export function photoStory(ctx: RouteContext, input: GraphInput, page: FacebookPage): { success: true; post_id: string } {
  const id = str(input, 'photo_id');
  const photo = id ? ctx.state.meta.fbPhotos.get(id) : undefined;
  if (!photo || photo.pageId !== page.id || photo.published || photo.attachedTo) throw invalidParameter('(#100) Param photo_id must be an unpublished photo of this Page');
  const post = createPost(ctx.state, page, { kind: 'story', photoIds: [photo.id] });
  photo.attachedTo = post.id;
  return { success: true, post_id: post.id };
}
