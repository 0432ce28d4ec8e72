// The control route through which the sandbox's people comment on a LinkedIn post
// (`POST /_sandbox/linkedin/comments` `{postId, text, from}`), as the real network's members would.
import type { FastifyInstance } from 'fastify';
import { ControlError, obj } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { addComment } from './comments.ts';

export function registerLinkedInControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/linkedin/comments', (req) => {
    const body = obj(req.body);
    const post = state.linkedin.posts.get(typeof body.postId === 'string' ? body.postId : '');
    if (!post || post.deleted) throw new ControlError('linkedin.postId: no such post');
    if (typeof body.text !== 'string' || !body.text) throw new ControlError('text: required');
    const from = typeof body.from === 'string' && body.from ? body.from : 'Sandbox Reader';
    const parent = typeof body.parentId === 'string' ? state.linkedin.comments.get(body.parentId) ?? null : null;
    const actor = `urn:li:person:${from.replace(/[^A-Za-z0-9]/g, '').slice(0, 10) || 'reader'}`;
    return { comment: addComment(state, post, actor, body.text, parent) };
  });
}
