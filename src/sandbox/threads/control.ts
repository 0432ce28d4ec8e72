// Control-API routes of the threads module (`/_sandbox/threads/…`, JSON): a person replies to a
// post or to a reply. The reply is a published post of that person (a Threads user named
// `from.username`, made when new), so it shows in `/replies` and `/conversation`, and the
// `replies` webhook goes to the apps subscribed to it (webhooks.ts). `/_sandbox/threads/webhooks`
// stands for the App Dashboard, where Threads webhooks are subscribed (there is no API for it).
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import type { ThreadsPost } from './store.ts';
import { dashboardSubscribe, emitReply } from './webhooks.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (body: Json, key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined);

export function personReplies(state: SandboxState, input: { replyToId: string; text: string; username?: string | undefined }): { id: string; username: string } {
  const parent = state.threads.posts.get(input.replyToId);
  if (!parent) throw new Error(`no Threads post ${input.replyToId}`);
  if (!input.text.trim() || [...input.text].length > 500) throw new Error('text: 1 to 500 characters');
  const name = input.username ?? 'sandbox.replier';
  const user = [...state.people.threadsUsers.values()].find((u) => u.username === name) ?? state.addThreadsUser({ username: name, name });
  const reply: ThreadsPost = {
    id: state.ids.numeric('threads-media', '18', 17),
    userId: user.id,
    containerId: '',
    mediaType: 'TEXT_POST',
    text: input.text,
    mediaUrl: null,
    childIds: [],
    replyToId: parent.id,
    rootPostId: parent.rootPostId ?? parent.id,
    quotePostId: null,
    replyControl: 'everyone',
    topicTag: null,
    linkAttachment: null,
    altText: null,
    publishedAt: state.clock.now(),
    shortcode: state.ids.opaque('threads-shortcode', 11),
    hidden: false,
    isCarouselChild: false,
  };
  state.threads.posts.set(reply.id, reply);
  emitReply(state, reply);
  return { id: reply.id, username: user.username };
}

export function registerThreadsControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/threads/replies', (req) => {
    const body = obj(req.body);
    const replyToId = text(body, 'replyToId');
    const message = text(body, 'text');
    if (!replyToId) throw new ControlError('replyToId: required');
    if (!message) throw new ControlError('text: required');
    try {
      return personReplies(state, { replyToId, text: message, username: text(obj(body.from), 'username') });
    } catch (error) {
      throw new ControlError(error instanceof Error ? error.message : String(error));
    }
  });
  // The dashboard's Threads webhooks settings: {appId, callbackUrl, verifyToken, fields}.
  app.post('/_sandbox/threads/webhooks', async (req) => {
    const body = obj(req.body);
    const appId = text(body, 'appId');
    const callbackUrl = text(body, 'callbackUrl');
    if (!appId) throw new ControlError('appId: required');
    if (!callbackUrl) throw new ControlError('callbackUrl: required');
    const fields = Array.isArray(body.fields) ? body.fields.map(String) : ['replies'];
    try {
      return await dashboardSubscribe(state, { appId, callbackUrl, verifyToken: text(body, 'verifyToken') ?? '', fields });
    } catch (error) {
      throw new ControlError(error instanceof Error ? error.message : String(error));
    }
  });
}
