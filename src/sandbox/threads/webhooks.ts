// Threads webhooks (Meta's "Webhooks for Threads" page; platforms.md has no section on them).
// An app subscribes in its App Dashboard, not through an API: it adds the Threads webhooks
// sub-use case, sets a callback URL and verify token (the usual GET handshake) and ticks the
// fields of a topic (`replies` under moderate, `mentions` under interaction, `publish` and
// `delete`). The control route standing for the dashboard (control.ts) calls dashboardSubscribe.
// A notification goes to each subscribed app whose user granted it threads_basic and
// threads_read_replies, signed with that app's secret like every Meta webhook, in Threads' own
// envelope: {app_id, topic, target_id, time, subscription_id, has_uid_field, values: {value, field}}.
// The sandbox sends `replies` only: a reply on a post of such a user, the user's own included.
import type { SandboxState } from '../core/state.ts';
import { notifyObject, verifyCallback } from '../webhooks/deliver.ts';
import type { ThreadsPost } from './store.ts';

export const THREADS_WEBHOOK_OBJECT = 'threads';
export const THREADS_WEBHOOK_FIELDS = ['replies', 'mentions', 'publish', 'delete'];
const REPLY_SCOPES = ['threads_basic', 'threads_read_replies'];

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

/** Apps the user installed with the reply permissions: a live token of that app for that user. */
function installedApps(state: SandboxState, userId: string): Set<string> {
  const apps = new Set<string>();
  for (const token of state.tokens.values()) {
    if (token.platform !== 'threads' || token.subjectId !== userId || token.revoked) continue;
    if (REPLY_SCOPES.every((s) => token.scopes.includes(s))) apps.add(token.clientId);
  }
  return apps;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

/** Sends the `replies` notification of a new reply to every app subscribed to it. */
export function emitReply(state: SandboxState, reply: ThreadsPost): void {
  const root = reply.rootPostId ? state.threads.posts.get(reply.rootPostId) : undefined;
  if (!root || !reply.replyToId) return;
  const owner = state.people.threadsUsers.get(root.userId);
  const author = state.people.threadsUsers.get(reply.userId);
  if (!owner || !author) return;
  for (const appId of installedApps(state, owner.id)) {
    const subscription = state.webhooks.subscriptions.get(`${appId}:${THREADS_WEBHOOK_OBJECT}`);
    if (!subscription?.active || !subscription.fields.includes('replies')) continue;
    const payload = {
      app_id: appId,
      topic: 'moderate',
      target_id: root.id,
      time: Math.floor(state.clock.now() / 1000),
      subscription_id: subscriptionId(state, appId, owner.id),
      has_uid_field: false,
      values: {
        value: {
          id: reply.id,
          username: author.username,
          text: reply.text ?? '',
          media_type: reply.mediaType,
          permalink: `https://www.threads.net/@${author.username}/post/${reply.shortcode}`,
          replied_to: { id: reply.replyToId },
          root_post: { id: root.id, owner_id: owner.id, username: owner.username },
          shortcode: reply.shortcode,
          timestamp: isoSeconds(reply.publishedAt),
        },
        field: 'replies',
      },
    };
    // notifyObject throws only when the app has no secret to sign with; such an app gets nothing.
    void state.track(notifyObject(state, appId, THREADS_WEBHOOK_OBJECT, payload).catch(() => []));
  }
}

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
