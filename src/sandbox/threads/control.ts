// Control-API routes of the threads module (`/_sandbox/threads/…`, JSON): a person replies to a
// post or to a reply. The reply is a published post of that person (a Threads user named
// `from.username`, made when new), so it shows in `/replies` and `/conversation`, and the
// `replies` webhook goes to the apps subscribed to it (webhooks.ts). A person may also publish a
// post that @mentions a Threads user (`mentions` webhook). `/_sandbox/threads/webhooks` stands
// for the App Dashboard, where Threads webhooks are subscribed (there is no API for it).
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import type { ThreadsPost } from './store.ts';
import { dashboardSubscribe, emitMention, emitReply } from './webhooks.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (body: Json, key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined);

const personNamed = (state: SandboxState, name: string) => [...state.people.threadsUsers.values()].find((u) => u.username === name) ?? state.addThreadsUser({ username: name, name });

function checkText(text: string): void {
  if (!text.trim() || [...text].length > 500) throw new Error('text: 1 to 500 characters');
}

/** A text post a person published (no container: the control API stands for the app). */
function personPost(state: SandboxState, userId: string, text: string, parent: ThreadsPost | null): ThreadsPost {
  const post: ThreadsPost = {
    id: state.ids.numeric('threads-media', '18', 17),
    userId,
    containerId: '',
    mediaType: 'TEXT_POST',
    text,
    mediaUrl: null,
    childIds: [],
    replyToId: parent?.id ?? null,
    rootPostId: parent ? (parent.rootPostId ?? parent.id) : null,
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
  state.threads.posts.set(post.id, post);
  return post;
}

export function personReplies(state: SandboxState, input: { replyToId: string; text: string; username?: string | undefined }): { id: string; username: string } {
  const parent = state.threads.posts.get(input.replyToId);
  if (!parent) throw new Error(`no Threads post ${input.replyToId}`);
  checkText(input.text);
  const user = personNamed(state, input.username ?? 'sandbox.replier');
  const reply = personPost(state, user.id, input.text, parent);
  emitReply(state, reply);
  return { id: reply.id, username: user.username };
}

/** A person's post that @mentions the Threads user `accountId` (the text gets the @username when it lacks it). */
export function personMentions(state: SandboxState, input: { accountId: string; text?: string | undefined; username?: string | undefined }): { id: string; username: string } {
  const mentioned = state.people.threadsUsers.get(input.accountId);
  if (!mentioned) throw new Error(`no Threads user ${input.accountId}`);
  const handle = `@${mentioned.username}`;
  const text = input.text === undefined ? `Have you seen ${handle}?` : input.text.includes(handle) ? input.text : `${input.text} ${handle}`;
  checkText(text);
  const user = personNamed(state, input.username ?? 'sandbox.mentioner');
  if (user.id === mentioned.id) throw new Error('from: someone other than the mentioned user');
  const post = personPost(state, user.id, text, null);
  emitMention(state, post, mentioned);
  return { id: post.id, username: user.username };
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
  app.post('/_sandbox/threads/mentions', (req) => {
    const body = obj(req.body);
    const accountId = text(body, 'accountId');
    if (!accountId) throw new ControlError('accountId: required');
    try {
      return personMentions(state, { accountId, text: text(body, 'text'), username: text(obj(body.from), 'username') });
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
