// The app node and its `/{app-id}/subscriptions` edge (Graph webhooks, platforms.md §8.1):
// POST subscribes an object's fields to a callback URL after the verification handshake; GET
// lists; DELETE removes. All need the app's own app token.
import type { AppRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { verifyCallback } from '../webhooks/deliver.ts';
import { graphToken } from './auth.ts';
import { graphError, invalidParameter } from './graph-error.ts';
import { defineNode } from './nodes.ts';
import { bool, list, str, type GraphInput } from './params.ts';

/** The apps of Meta's OAuth flavours, the ones Graph knows as Application nodes. */
const META_PLATFORMS: ReadonlySet<string> = new Set(['facebook', 'instagram', 'threads']);

const OBJECTS = new Set(['user', 'page', 'permissions', 'payments', 'application', 'instagram', 'whatsapp_business_account']);

function requireAppToken(ctx: RouteContext, input: GraphInput, app: AppRecord): void {
  const token = graphToken(ctx, input, { platforms: ['facebook', 'instagram', 'threads'], allowAppToken: true });
  if (token.type !== 'app' || token.clientId !== app.clientId) {
    throw graphError({ code: 15, message: '(#15) This method must be called with an app access_token.' });
  }
}

export const appNode = defineNode<AppRecord>({
  type: 'Application',
  find: (state, id) => [...state.apps.values()].find((a) => a.clientId === id && META_PLATFORMS.has(a.platform)),
  get: ({ node }) => ({ id: node.clientId, name: node.name }),
  edges: {
    subscriptions: {
      get({ ctx, input, node }) {
        requireAppToken(ctx, input, node);
        const data = ctx.state.webhooks.forApp(node.clientId).map((s) => ({
          object: s.object,
          callback_url: s.callbackUrl,
          active: s.active,
          fields: s.fields.map((name) => ({ name, version: ctx.version ?? 'v24.0' })),
        }));
        return { data };
      },
      async post({ ctx, input, node }) {
        requireAppToken(ctx, input, node);
        const object = str(input, 'object');
        const callbackUrl = str(input, 'callback_url');
        const verifyToken = str(input, 'verify_token') ?? '';
        if (!object || !OBJECTS.has(object)) throw invalidParameter('(#100) Param object must be one of {user, page, permissions, payments, application, instagram, whatsapp_business_account}');
        if (!callbackUrl) throw invalidParameter('(#100) The parameter callback_url is required');
        const fields = list(input, 'fields') ?? [];
        const existing = ctx.state.webhooks.subscriptions.get(`${node.clientId}:${object}`);
        const handshake = await ctx.state.track(verifyCallback(callbackUrl, verifyToken));
        if (!handshake.ok) throw graphError({ code: 2200, message: `(#2200) callback verification failed: ${handshake.reason}` });
        ctx.state.webhooks.put({
          appId: node.clientId,
          object,
          callbackUrl,
          fields: [...new Set([...(existing?.callbackUrl === callbackUrl ? existing.fields : []), ...fields])],
          verifyToken,
          includeValues: bool(input, 'include_values') ?? false,
          active: true,
        });
        return { success: true };
      },
      delete({ ctx, input, node }) {
        requireAppToken(ctx, input, node);
        const object = str(input, 'object');
        const fields = list(input, 'fields');
        const existing = object ? ctx.state.webhooks.subscriptions.get(`${node.clientId}:${object}`) : undefined;
        if (existing && fields?.length) existing.fields = existing.fields.filter((f) => !fields.includes(f));
        else ctx.state.webhooks.remove(node.clientId, object);
        return { success: true };
      },
    },
  },
});
