// Webhook payloads of Pages and Instagram (platforms.md §8.2–8.5, §2.9), sent through
// webhooks/deliver.ts when a simulated event happens. An app receives an event when (1) the Page
// or Instagram account subscribed it (`/{id}/subscribed_apps`, with that field) and (2) the
// app's own `/{app-id}/subscriptions` for the object lists the field, as on the platform.
// Instagram accounts linked to a Page also deliver to the apps installed on the Page (Facebook
// Login flavour; the Page's field list holds Page fields, so only the app's list filters). Change envelopes carry `time` in seconds, messaging ones in ms.
import type { SandboxState } from '../core/state.ts';
import { notify } from '../webhooks/deliver.ts';

export type WebhookObject = 'page' | 'instagram';

/** app id → the account's field filter (null: the linked Page's install, which has no IG fields). */
function subscribedApps(state: SandboxState, object: WebhookObject, accountId: string): Map<string, string[] | null> {
  const apps = new Map<string, string[] | null>(state.meta.subscribedApps.get(accountId) ?? []);
  if (object === 'instagram') {
    const pageId = state.people.instagramAccounts.get(accountId)?.pageId;
    for (const app of (pageId ? state.meta.subscribedApps.get(pageId)?.keys() : undefined) ?? []) if (!apps.has(app)) apps.set(app, null);
  }
  return apps;
}

function send(state: SandboxState, object: WebhookObject, accountId: string, field: string, entry: Record<string, unknown>): void {
  for (const [appId, accountFields] of subscribedApps(state, object, accountId)) {
    if (accountFields && !accountFields.includes(field)) continue;
    const subscription = state.webhooks.subscriptions.get(`${appId}:${object}`);
    if (!subscription?.active || !subscription.fields.includes(field)) continue;
    // notify throws only when the app has no secret to sign with; such an app gets nothing.
    void state.track(notify(state, appId, { object, entry: [entry] }).catch(() => []));
  }
}

/** `entry[].changes[]`: Page `feed`, Instagram `comments` and `mentions`. */
export function emitChange(state: SandboxState, object: WebhookObject, accountId: string, field: string, value: Record<string, unknown>): void {
  const time = Math.floor(state.clock.now() / 1000);
  send(state, object, accountId, field, { id: accountId, time, changes: [{ field, value }] });
}

/** `entry[].messaging[0]`: message, echo, read, delivery, reaction, postback (exactly one item). */
export function emitMessaging(state: SandboxState, object: WebhookObject, accountId: string, field: string, event: Record<string, unknown>): void {
  const time = state.clock.now();
  send(state, object, accountId, field, { id: accountId, time, messaging: [{ timestamp: time, ...event }] });
}
