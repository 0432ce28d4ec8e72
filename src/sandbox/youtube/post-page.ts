// The video a link names (www.youtube.com/watch?v={id}, or /shorts/{id}), as the sandbox shows it
// (core/post-page.ts): its title, description, privacy and processing. Deleted videos are not
// found; private ones are shown with a note (the sandbox has no signed-in viewer).
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';
import { settleVideo } from './videos.ts';

function show(ctx: RouteContext, id: string): unknown {
  const video = ctx.state.youtube.videos.get(id);
  const channel = video ? ctx.state.people.youtubeChannels.get(video.channelId) : undefined;
  if (!video || video.deleted || !channel) return sendPostPage(ctx, null);
  settleVideo(ctx, video);
  return sendPostPage(ctx, {
    platform: 'YouTube',
    author: channel.title,
    title: video.title,
    text: video.description,
    createdAt: video.createdAt,
    media: [{ kind: 'video', url: null }],
    notes: [`Privacy: ${video.privacyStatus}${video.lockedPrivate ? ' (locked: the API project is not audited)' : ''}`, `Upload: ${video.uploadStatus}`, ...(video.publishAt ? [`Goes public at ${video.publishAt}`] : [])],
  });
}

export function registerYouTubePages(host: Host): void {
  host.get('/watch', (ctx) => show(ctx, ctx.query.v ?? ''));
  host.get('/shorts/:id', (ctx) => show(ctx, ctx.params.id ?? ''));
}
