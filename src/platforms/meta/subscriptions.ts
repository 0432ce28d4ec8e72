// Webhook subscriptions on Meta (platforms.md §2.9, §7.4, §8.1): the app-level subscription
// (`/{app-id}/subscriptions`, app token; Meta verifies our callback with hub.challenge before it
// answers) and the per-object `subscribed_apps` edge (a Page, an Instagram account, a WhatsApp
// business account) that makes that object's events flow to the app.
import type { AppCredentials, PlatformContext } from '../context.ts';
import type { WebhookCallback } from '../types.ts';
import { appToken, FACEBOOK_GRAPH, graph } from './graph.ts';
import { list, obj, str } from '../json.ts';

/**
 * Makes sure the app is subscribed to `object` with at least `fields` at our callback; returns
 * true when it had to subscribe (a POST, with Meta's handshake), false when it already was.
 */
export async function ensureAppSubscription(
  ctx: PlatformContext,
  platform: string,
  app: AppCredentials,
  object: string,
  fields: string[],
  callback: WebhookCallback,
): Promise<boolean> {
  const url = `${FACEBOOK_GRAPH}/${ctx.graphVersion}/${app.clientId}/subscriptions`;
  const current = await graph(ctx, platform, { url, query: { access_token: appToken(app) } });
  const existing = list(current.data).map(obj).find((s) => str(s.object) === object);
  const have = new Set(list(existing?.fields).map((f) => str(obj(f).name) ?? str(f) ?? ''));
  if (existing && str(existing.callback_url) === callback.url && existing.active !== false && fields.every((f) => have.has(f))) return false;
  await graph(ctx, platform, {
    method: 'POST',
    url,
    form: { object, callback_url: callback.url, verify_token: callback.verifyToken, fields: fields.join(','), include_values: 'true', access_token: appToken(app) },
  });
  return true;
}

/** POST /{object-id}/subscribed_apps with the object's own token. */
export async function subscribeObject(ctx: PlatformContext, platform: string, host: string, objectId: string, token: string, fields: string[] | null): Promise<void> {
  await graph(ctx, platform, {
    method: 'POST',
    url: `${host}/${ctx.graphVersion}/${objectId}/subscribed_apps`,
    form: { ...(fields ? { subscribed_fields: fields.join(',') } : {}), access_token: token },
  });
}
