// Control routes of the youtube module: a viewer comments on a video (`POST
// /_sandbox/youtube/comments` `{postId, text, from, parentId?}`), and a video's statistics are set
// (`POST /_sandbox/youtube/statistics` `{postId, viewCount?, likeCount?, shares?, …}`).
import type { FastifyInstance } from 'fastify';
import { ControlError, obj } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { addComment } from './comments.ts';

export function registerYouTubeControl(app: FastifyInstance, state: SandboxState): void {
  const videoOf = (body: Record<string, unknown>) => {
    const video = state.youtube.videos.get(typeof body.postId === 'string' ? body.postId : '');
    if (!video || video.deleted) throw new ControlError('postId: no such video');
    return video;
  };
  app.post('/_sandbox/youtube/comments', (req) => {
    const body = obj(req.body);
    const video = videoOf(body);
    if (typeof body.text !== 'string' || !body.text) throw new ControlError('text: required');
    const from = typeof body.from === 'string' && body.from ? body.from : 'Sandbox Viewer';
    const parent = typeof body.parentId === 'string' ? (state.youtube.comments.get(body.parentId) ?? null) : null;
    if (typeof body.parentId === 'string' && !parent) throw new ControlError('parentId: no such comment');
    const authorChannelId = `UCviewer${from.replace(/[^A-Za-z0-9]/g, '').slice(0, 14)}`;
    return { comment: addComment(state, video, { authorChannelId, authorDisplayName: from, text: body.text, parentId: parent?.id ?? null }) };
  });
  app.post('/_sandbox/youtube/statistics', (req) => {
    const body = obj(req.body);
    const video = videoOf(body);
    for (const key of Object.keys(video.stats) as Array<keyof typeof video.stats>) if (typeof body[key] === 'number') video.stats[key] = body[key];
    return { stats: video.stats };
  });
}
