// The two HTTP exchanges of Meta webhooks (platforms.md §8.1–8.2): the verification handshake
// when a subscription is made, and signed POSTs of notifications to the callback URL. Graph
// webhooks carry the `{object, entry}` envelope; Threads webhooks have an envelope of their own
// (threads/webhooks.ts), signed and delivered the same way.
import { randomInt } from 'node:crypto';
import { metaJson, signatureHeaders } from './sign.ts';
import type { SandboxState } from '../core/state.ts';
import type { WebhookSubscription } from './registry.ts';

const TIMEOUT_MS = 10_000;

export type HandshakeResult = { ok: true } | { ok: false; reason: string };

/** GET callback?hub.mode=subscribe&hub.challenge=…&hub.verify_token=…; the body must echo the challenge. */
export async function verifyCallback(callbackUrl: string, verifyToken: string): Promise<HandshakeResult> {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return { ok: false, reason: 'callback_url is not a valid URL' };
  }
  const challenge = String(randomInt(1_000_000_000, 2_000_000_000));
  url.searchParams.set('hub.mode', 'subscribe');
  url.searchParams.set('hub.challenge', challenge);
  url.searchParams.set('hub.verify_token', verifyToken);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await res.text()).trim();
    if (res.status !== 200) return { ok: false, reason: `callback answered HTTP ${res.status}` };
    if (body !== challenge) return { ok: false, reason: `callback answered ${JSON.stringify(body.slice(0, 40))} instead of the challenge` };
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `callback unreachable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export interface Notification {
  object: string;
  entry: unknown[];
}

/** POSTs a signed body (any envelope) to one subscription's callback and logs the outcome. */
export async function deliver(state: SandboxState, subscription: WebhookSubscription, appSecret: string, payload: unknown): Promise<number | null> {
  // As on the platforms, a webhook leaves after the API answer that caused it: its encoding,
  // signing and sending do not hold that answer up.
  await new Promise((resolve) => setImmediate(resolve));
  const body = metaJson(payload);
  const delivery = {
    at: new Date(state.clock.now()).toISOString(),
    appId: subscription.appId,
    object: subscription.object,
    url: subscription.callbackUrl,
    status: null as number | null,
    error: null as string | null,
    body,
  };
  state.webhooks.deliveries.push(delivery);
  try {
    const res = await fetch(subscription.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signatureHeaders(body, appSecret) },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    delivery.status = res.status;
    return res.status;
  } catch (error) {
    delivery.error = error instanceof Error ? error.message : String(error);
    return null;
  }
}

/**
 * Sends a notification to every active subscription of the app for that object, signed with the
 * app's secret. Payload kinds (comments, messages, statuses …) are built by the platform modules.
 */
export async function notify(state: SandboxState, appId: string, notification: Notification): Promise<Array<number | null>> {
  return notifyObject(state, appId, notification.object, notification);
}

/** Sends `payload` to every active subscription of the app for `object`, signed with the app's secret. */
export async function notifyObject(state: SandboxState, appId: string, object: string, payload: unknown): Promise<Array<number | null>> {
  const app = [...state.apps.values()].find((a) => a.clientId === appId);
  if (!app?.clientSecret) throw new Error(`app ${appId} has no known secret to sign with`);
  const secret = app.clientSecret;
  const targets = state.webhooks.forApp(appId).filter((s) => s.active && s.object === object);
  return Promise.all(targets.map((s) => state.track(deliver(state, s, secret, payload))));
}
