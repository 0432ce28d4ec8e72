// POST /v2/video/list/ (Display API, scope `video.list`): the creator's public posts, newest
// first, `max_count` up to 20 a page and `cursor` a unix-ms time to continue before. A post is
// listed once it is public: published (processing done) and not SELF_ONLY. `fields` is required.
import type { RouteContext } from '../core/router.ts';
import { requireScope, tiktokAuth } from './auth.ts';
import { invalidParams, ok } from './envelope.ts';
import { publishStatus } from './status.ts';
import { videoCounts } from './video-query.ts';

const FIELDS = new Set(['id', 'create_time', 'title', 'video_description', 'share_url', 'duration', 'cover_image_url', 'embed_link', 'like_count', 'comment_count', 'share_count', 'view_count']);

export function videoList(ctx: RouteContext): unknown {
  const { token, creator } = tiktokAuth(ctx);
  requireScope(token, 'video.list');
  const fields = (ctx.query.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  if (!fields.length || fields.some((f) => !FIELDS.has(f))) throw invalidParams('fields is required and must name video fields');
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const max = typeof body.max_count === 'number' ? body.max_count : 10;
  if (!Number.isInteger(max) || max < 1 || max > 20) throw invalidParams('max_count must be between 1 and 20');
  const before = typeof body.cursor === 'number' ? body.cursor : Infinity;
  const state = ctx.state;
  const posts = [...state.tiktok.publishes.values()]
    .filter((p) => p.creatorId === creator.id && p.mode === 'DIRECT_POST' && p.privacyLevel !== 'SELF_ONLY' && publishStatus(state, p) === 'PUBLISH_COMPLETE' && p.createdAt < before)
    .sort((a, b) => b.createdAt - a.createdAt);
  const page = posts.slice(0, max);
  const videos = page.map((p) => {
    p.postId ??= BigInt(state.ids.numeric('tiktok-post', '73', 19));
    const all: Record<string, unknown> = {
      id: String(p.postId),
      create_time: Math.floor(p.createdAt / 1000),
      title: p.title,
      video_description: p.description,
      share_url: `https://www.tiktok.com/@${creator.username}/${p.media === 'PHOTO' ? 'photo' : 'video'}/${String(p.postId)}`,
      duration: 0,
      ...videoCounts(String(p.postId), p.createdAt, state.clock.now()),
    };
    return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
  });
  const last = page.at(-1);
  return ok({ videos, cursor: last ? last.createdAt : 0, has_more: posts.length > page.length });
}
