// The Analytics API (youtube.md §7): GET youtubeanalytics.googleapis.com/v2/reports with
// ids=channel==MINE, startDate, endDate, metrics and an optional filters=video=={id}: one row of
// the asked metrics, in the order asked, with columnHeaders. Needs yt-analytics.readonly.
import type { RouteContext } from '../core/router.ts';
import { SCOPE, youtubeAuth } from './auth.ts';
import { badRequest, googleError } from './errors.ts';

const METRICS = new Set(['views', 'likes', 'comments', 'shares', 'estimatedMinutesWatched', 'averageViewDuration', 'subscribersGained', 'subscribersLost']);

export function reports(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, [SCOPE.analytics]);
  const q = ctx.query;
  if (q.ids !== 'channel==MINE') throw badRequest('invalid', 'ids must be channel==MINE');
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (!date.test(q.startDate ?? '') || !date.test(q.endDate ?? '')) throw badRequest('required', 'startDate and endDate are required (YYYY-MM-DD).');
  const metrics = (q.metrics ?? '').split(',').filter(Boolean);
  const unknown = metrics.find((m) => !METRICS.has(m));
  if (!metrics.length || unknown) throw badRequest('invalid', `Unknown metric: ${unknown ?? '(none)'}`);
  const videoId = /^video==(.+)$/.exec(q.filters ?? '')?.[1] ?? null;
  const videos = [...ctx.state.youtube.videos.values()].filter((v) => caller.channels.some((c) => c.id === v.channelId) && (videoId === null || v.id === videoId));
  if (videoId !== null && !videos.length) throw googleError(403, 'forbidden', 'The video is not one of the channel\'s.');
  const sum = (f: (v: (typeof videos)[number]) => number) => videos.reduce((n, v) => n + f(v), 0);
  const comments = (id: string) => [...ctx.state.youtube.comments.values()].filter((c) => c.videoId === id && !c.deleted).length;
  const value: Record<string, number> = {
    views: sum((v) => v.stats.viewCount),
    likes: sum((v) => v.stats.likeCount),
    comments: sum((v) => comments(v.id)),
    shares: sum((v) => v.stats.shares),
    estimatedMinutesWatched: sum((v) => v.stats.estimatedMinutesWatched),
    averageViewDuration: 0,
    subscribersGained: sum((v) => v.stats.subscribersGained),
    subscribersLost: 0,
  };
  return {
    kind: 'youtubeAnalytics#resultTable',
    columnHeaders: metrics.map((name) => ({ name, columnType: 'METRIC', dataType: 'INTEGER' })),
    rows: [metrics.map((m) => value[m] ?? 0)],
  };
}
