// POST /v2/video/query/ (Display API, scope `video.list`): the creator's own public videos by
// id (`filters.video_ids`, 1 to 20), with the `fields` asked for. Ids that are not the creator's
// public videos are left out of `videos`, as TikTok does. Counts are stable for a video and grow
// with its age in sandbox days, so a later read never shows fewer.
import type { RouteContext } from '../core/router.ts';
import { stableNumber } from '../meta/insights.ts';
import { requireScope, tiktokAuth } from './auth.ts';
import { invalidParams, ok } from './envelope.ts';
import { publishStatus } from './status.ts';

const FIELDS = new Set(['id', 'create_time', 'title', 'video_description', 'share_url', 'duration', 'cover_image_url', 'embed_link', 'like_count', 'comment_count', 'share_count', 'view_count']);
const COUNTS: Record<string, number> = { view_count: 2000, like_count: 300, comment_count: 40, share_count: 25 };
const DAY_MS = 86_400_000;

/** A public video's counts at `now`, the same in the video list and the video query. */
export function videoCounts(id: string, createdAt: number, now: number): Record<string, number> {
  const days = 1 + Math.max(0, Math.floor((now - createdAt) / DAY_MS));
  return Object.fromEntries(Object.entries(COUNTS).map(([field, max]) => [field, stableNumber(`${id}:${field}`, 0, max) * days]));
}

export function videoQuery(ctx: RouteContext): unknown {
  const { token, creator } = tiktokAuth(ctx);
  requireScope(token, 'video.list');
  const fields = (ctx.query.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  if (!fields.length || fields.some((f) => !FIELDS.has(f))) throw invalidParams('fields is required and must name video fields');
  const filters = (ctx.body as { filters?: { video_ids?: unknown } } | undefined)?.filters;
  const ids = Array.isArray(filters?.video_ids) ? filters.video_ids.filter((v): v is string => typeof v === 'string') : [];
  if (!ids.length || ids.length > 20) throw invalidParams('filters.video_ids must hold 1 to 20 ids');
  const state = ctx.state;
  const now = state.clock.now();
  const videos = [...state.tiktok.publishes.values()]
    .filter((p) => p.creatorId === creator.id && p.postId !== null && ids.includes(String(p.postId)) && p.privacyLevel !== 'SELF_ONLY' && publishStatus(state, p) === 'PUBLISH_COMPLETE')
    .map((p) => {
      const id = String(p.postId);
      const all: Record<string, unknown> = {
        id,
        create_time: Math.floor(p.createdAt / 1000),
        title: p.title,
        video_description: p.description,
        share_url: `https://www.tiktok.com/@${creator.username}/${p.media === 'PHOTO' ? 'photo' : 'video'}/${id}`,
        duration: 0,
        ...videoCounts(id, p.createdAt, now),
      };
      return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
    });
  return ok({ videos });
}
