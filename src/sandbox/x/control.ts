// Control-API routes of the x module (`/_sandbox/x/…`, JSON): `POST /_sandbox/x/metrics
// {postId, impressions?, likes?, replies?, reposts?, quotes?, bookmarks?, urlLinkClicks?,
// profileClicks?, videoViews?}` sets a post's counts, which the reads answer as its metrics;
// `POST /_sandbox/x/replies {postId, text, from?: {username}}` makes a person reply, and
// `POST /_sandbox/x/mentions {text, from?: {username}}` a person's post naming a user by @handle.
import type { FastifyInstance } from 'fastify';
import { ControlError, obj } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { personMentions, personReplies } from './conversation.ts';

export function registerXControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/x/metrics', (req) => {
    const body = obj(req.body);
    const post = typeof body.postId === 'string' ? state.x.posts.get(body.postId) : undefined;
    if (!post) throw new ControlError('postId: a post id the sandbox knows');
    for (const key of Object.keys(post.metrics) as Array<keyof typeof post.metrics>) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ControlError(`${key}: a whole number, 0 or more`);
      post.metrics[key] = value;
    }
    state.changed();
    return { ok: true, postId: post.id, metrics: post.metrics };
  });
  app.post('/_sandbox/x/replies', (req) => {
    const body = obj(req.body);
    const from = obj(body.from);
    if (typeof body.postId !== 'string' || typeof body.text !== 'string' || !body.text) throw new ControlError('postId and text: required');
    try {
      const reply = personReplies(state, { postId: body.postId, text: body.text, username: typeof from.username === 'string' ? from.username : undefined });
      state.changed();
      return { id: reply.id, postId: body.postId, text: reply.text };
    } catch (error) {
      throw new ControlError(error instanceof Error ? error.message : String(error));
    }
  });
  app.post('/_sandbox/x/mentions', (req) => {
    const body = obj(req.body);
    const from = obj(body.from);
    if (typeof body.text !== 'string' || !body.text) throw new ControlError('text: required');
    try {
      const post = personMentions(state, { text: body.text, username: typeof from.username === 'string' ? from.username : undefined });
      state.changed();
      return { id: post.id, text: post.text };
    } catch (error) {
      throw new ControlError(error instanceof Error ? error.message : String(error));
    }
  });
}
