// Control-API routes of the reddit module (`/_sandbox/reddit/…`, JSON): a person comments on a
// link or replies to a comment. Errors are `{error:{message}}` with HTTP 400, as for the rest of
// the control API.
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { personComments } from './comments.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (body: Json, key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined);

export function registerRedditControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/reddit/comments', (req) => {
    const body = obj(req.body);
    const thingId = text(body, 'thingId');
    const message = text(body, 'text');
    if (!thingId) throw new ControlError('thingId: required');
    if (!message) throw new ControlError('text: required');
    try {
      return personComments(state, { thingId, text: message, username: text(obj(body.from), 'username') });
    } catch (error) {
      throw new ControlError(error instanceof Error ? error.message : String(error));
    }
  });
}
