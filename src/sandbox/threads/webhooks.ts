// Threads webhooks (Meta's "Webhooks for Threads" page; platforms.md has no section on them).
// An app subscribes in its App Dashboard, not through an API: it adds the Threads webhooks
// sub-use case, sets a callback URL and verify token (the usual GET handshake) and ticks the
// fields of a topic (`replies` under moderate, `mentions` under interaction, `publish` and
// `delete`). The control route standing for the dashboard (control.ts) calls dashboardSubscribe.
// A notification goes to each app subscribed to the field whose user granted it the field's
// permissions, signed with that app's secret like every Meta webhook, in Threads' own envelope:
// {app_id, topic, target_id, time, subscription_id, has_uid_field, values: {value, field}}.
// The sandbox sends `replies` (threads_basic, threads_read_replies: a reply on the user's post,
// the user's own included; target_id the root post) and `mentions` (threads_basic,
// threads_manage_mentions: someone's post that @mentions the user; target_id the user).
import type { ThreadsUser } from './people.ts';
import type { SandboxState } from '../core/state.ts';
import { notifyObject, verifyCallback } from '../webhooks/deliver.ts';
import type { ThreadsPost } from './store.ts';

export const THREADS_WEBHOOK_OBJECT = 'threads';
export const THREADS_WEBHOOK_FIELDS = ['replies', 'mentions', 'publish', 'delete'];
const FIELD_SCOPES: Record<string, string[]> = {
  replies: ['threads_basic', 'threads_read_replies'],
  mentions: ['threads_basic', 'threads_manage_mentions'],
};

export interface DashboardSubscription {
  appId: string;
  callbackUrl: string;
  verifyToken: string;
  fields: string[];
}

/** What the dashboard does when the callback is saved: the handshake, then the fields ticked. */
export async function dashboardSubscribe(state: SandboxState, input: DashboardSubscription): Promise<{ object: string; fields: string[] }> {
  const app = state.app('threads', input.appId);
  if (!app.clientSecret) throw new Error(`the Threads app ${input.appId} has no secret configured to sign notifications with`);
  const unknown = input.fields.find((f) => !THREADS_WEBHOOK_FIELDS.includes(f));
  if (unknown !== undefined) throw new Error(`fields: one of ${THREADS_WEBHOOK_FIELDS.join(', ')} (got "${unknown}")`);
  if (!input.fields.length) throw new Error('fields: at least one');
  const handshake = await state.track(verifyCallback(input.callbackUrl, input.verifyToken));
  if (!handshake.ok) throw new Error(`callback verification failed: ${handshake.reason}`);
  const fields = [...new Set(input.fields)];
  state.webhooks.put({ appId: app.clientId, object: THREADS_WEBHOOK_OBJECT, callbackUrl: input.callbackUrl, fields, verifyToken: input.verifyToken, includeValues: true, active: true });
  return { object: THREADS_WEBHOOK_OBJECT, fields };
}

/** Apps the user installed with the field's permissions (a live token of that app for that user) and subscribed to it. */
function subscribedApps(state: SandboxState, userId: string, field: string): string[] {
  const apps = new Set<string>();
  for (const token of state.tokens.values()) {
    if (token.platform !== 'threads' || token.subjectId !== userId || token.revoked) continue;
    if ((FIELD_SCOPES[field] ?? []).every((s) => token.scopes.includes(s))) apps.add(token.clientId);
  }
  return [...apps].filter((appId) => {
    const subscription = state.webhooks.subscriptions.get(`${appId}:${THREADS_WEBHOOK_OBJECT}`);
    return subscription?.active === true && subscription.fields.includes(field);
  });
}

function send(state: SandboxState, appId: string, userId: string, topic: string, targetId: string, field: string, value: Record<string, unknown>): void {
  const payload = { app_id: appId, topic, target_id: targetId, time: Math.floor(state.clock.now() / 1000), subscription_id: subscriptionId(state, appId, userId), has_uid_field: false, values: { value, field } };
  // notifyObject throws only when the app has no secret to sign with; such an app gets nothing.
  void state.track(notifyObject(state, appId, THREADS_WEBHOOK_OBJECT, payload).catch(() => []));
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

/** Sends the `replies` notification of a new reply to every app subscribed to it. */
export function emitReply(state: SandboxState, reply: ThreadsPost): void {
  const root = reply.rootPostId ? state.threads.posts.get(reply.rootPostId) : undefined;
  if (!root || !reply.replyToId) return;
  const owner = state.people.threadsUsers.get(root.userId);
  const author = state.people.threadsUsers.get(reply.userId);
  if (!owner || !author) return;
  for (const appId of subscribedApps(state, owner.id, 'replies')) {
    send(state, appId, owner.id, 'moderate', root.id, 'replies', {
      id: reply.id,
      username: author.username,
      text: reply.text ?? '',
      media_type: reply.mediaType,
      permalink: permalink(author.username, reply),
      replied_to: { id: reply.replyToId },
      root_post: { id: root.id, owner_id: owner.id, username: owner.username },
      shortcode: reply.shortcode,
      timestamp: isoSeconds(reply.publishedAt),
    });
  }
}

/** Sends the `mentions` notification of a post that @mentions `mentioned` to every app subscribed to it. */
export function emitMention(state: SandboxState, post: ThreadsPost, mentioned: ThreadsUser): void {
  const author = state.people.threadsUsers.get(post.userId);
  if (!author) return;
  for (const appId of subscribedApps(state, mentioned.id, 'mentions')) {
    send(state, appId, mentioned.id, 'interaction', mentioned.id, 'mentions', {
      id: post.id,
      username: author.username,
      text: post.text ?? '',
      media_product_type: 'THREADS',
      media_type: post.mediaType,
      permalink: permalink(author.username, post),
      shortcode: post.shortcode,
      timestamp: isoSeconds(post.publishedAt),
      has_replies: [...state.threads.posts.values()].some((p) => p.replyToId === post.id),
      is_quote_post: post.quotePostId !== null,
      is_reply: post.replyToId !== null,
    });
  }
}

const permalink = (username: string, post: ThreadsPost) => `https://www.threads.net/@${username}/post/${post.shortcode}`;

/** One subscription id per app and user, as the platform numbers a user's install. */
function subscriptionId(state: SandboxState, appId: string, userId: string): string {
  const key = `${appId}:${userId}`;
  let id = state.threads.webhookSubscriptionIds.get(key);
  if (!id) {
    id = state.ids.numeric('threads-webhook-subscription', '3', 15);
    state.threads.webhookSubscriptionIds.set(key, id);
  }
  return id;
}
