// Control-API routes of the reddit module (`/_sandbox/reddit/…`, JSON): a person comments on a
// link or replies to a comment; and `POST /_sandbox/insights/reddit-votes {thingId, ups, downs}`
// sets a link's votes (its score is ups − downs), kept in the insights store. Errors are `{error:{message}}` with HTTP 400, as for the rest of
// the control API.
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { personComments } from './comments.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (body: Json, key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined);

function count(body: Json, key: string): number {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ControlError(`${key}: a whole number, 0 or more`);
  return value;
}

export function registerRedditControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/insights/reddit-votes', (req) => {
    const body = obj(req.body);
    const thingId = body.thingId;
    if (typeof thingId !== 'string' || !state.reddit.things.has(thingId)) throw new ControlError('thingId: a reddit fullname the sandbox knows (t3_…)');
    const votes = { ups: count(body, 'ups'), downs: count(body, 'downs') };
    state.insights.redditVotes.set(thingId, votes);
    return { ok: true, thingId, ...votes };
  });
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
