// Control-API routes of the Meta piece (`/_sandbox/…`, JSON): people comment, mention, message,
// react, read and press buttons; tests set follower counts and Page tasks. Each route calls
// the function of the same meaning in simulate.ts; errors are
// `{error:{message}}` with HTTP 400, as for the rest of the control API.
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import type { PersonInput } from '../messaging/persons.ts';
import type { Attachment } from '../messaging/store.ts';
import { accountReplyInApp, personBlock, personComment, personMention, personMessage, personPress, personReact, personRead, setFollowers, setPageTasks } from './simulate.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (body: Json, key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined);
const required = (body: Json, key: string): string => {
  const value = text(body, key);
  if (!value) throw new ControlError(`${key}: required`);
  return value;
};
const person = (body: Json): PersonInput | undefined => {
  const from = obj(body.from);
  return Object.keys(from).length ? { id: text(from, 'id'), name: text(from, 'name'), username: text(from, 'username') } : undefined;
};

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ControlError) throw error;
    throw new ControlError(error instanceof Error ? error.message : String(error));
  }
}

export function registerMetaControl(app: FastifyInstance, state: SandboxState): void {
  const post = (path: string, handler: (body: Json) => unknown) => app.post(path, (req) => guard(() => handler(obj(req.body))));
  post('/_sandbox/meta/comments', (b) => personComment(state, { objectId: required(b, 'objectId'), message: required(b, 'message'), parentId: text(b, 'parentId'), from: person(b) }));
  post('/_sandbox/meta/mentions', (b) => {
    const kind = text(b, 'kind') ?? 'caption';
    if (kind !== 'caption' && kind !== 'comment' && kind !== 'tag') throw new ControlError('kind: one of caption, comment, tag');
    return personMention(state, { accountId: required(b, 'accountId'), kind, text: text(b, 'text'), mediaUrl: text(b, 'mediaUrl'), from: person(b) });
  });
  post('/_sandbox/meta/messages', (b) =>
    personMessage(state, {
      accountId: required(b, 'accountId'),
      text: text(b, 'text'),
      attachments: Array.isArray(b.attachments) ? (b.attachments as Attachment[]) : undefined,
      replyTo: text(b, 'replyTo'),
      from: person(b),
    }),
  );
  post('/_sandbox/meta/reactions', (b) => {
    const action = text(b, 'action');
    return personReact(state, { mid: text(b, 'mid'), postId: text(b, 'postId'), reaction: text(b, 'reaction'), action: action === 'unreact' ? 'unreact' : 'react', from: person(b) });
  });
  post('/_sandbox/meta/reads', (b) => personRead(state, { accountId: required(b, 'accountId'), from: person(b) ?? {} }));
  post('/_sandbox/meta/postbacks', (b) => personPress(state, { accountId: required(b, 'accountId'), title: required(b, 'title'), payload: required(b, 'payload'), from: person(b) }));
  post('/_sandbox/meta/blocks', (b) => personBlock(state, { accountId: required(b, 'accountId'), from: person(b) ?? {}, blocked: b.blocked !== false }));
  post('/_sandbox/meta/app-messages', (b) => accountReplyInApp(state, { accountId: required(b, 'accountId'), to: person({ from: b.to }) ?? {}, text: required(b, 'text') }));
  post('/_sandbox/meta/followers', (b) => {
    setFollowers(state, required(b, 'accountId'), typeof b.count === 'number' ? b.count : NaN);
    return { ok: true };
  });
  post('/_sandbox/meta/page-tasks', (b) => {
    setPageTasks(state, required(b, 'pageId'), Array.isArray(b.tasks) ? b.tasks.map(String) : []);
    return { ok: true };
  });
}
