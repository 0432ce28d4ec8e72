import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { dashboardOnlyWebhooks, metaCallbackUrl } from '../../platform-webhooks/callback.ts';
import { callPlatform } from '../platform-call.ts';

export function subscribeAccountWebhooks(api: Api): void {
  api.post(
    '/accounts/:id/webhook-subscription',
    {
      schema: {
        operationId: 'subscribeAccountWebhooks',
        tags: ['Accounts'],
        summary: "Subscribe the account to its platform's webhooks (comments or Page feed, and messaging)",
        description: 'Also subscribes the app itself to the object (the platform then verifies our callback) when it is not yet.',
        params: IdParams,
        response: {
          200: Type.Object({
            subscribed: Type.Boolean(),
            platform: Type.String(),
            fields: Type.Array(Type.String()),
            appSubscriptionUpdated: Type.Boolean({ description: "True when the app's own subscription had to be created or extended." }),
          }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const { deps } = request.server;
      const row = await tenantOf(request).selectFrom('accounts').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Account');
      const webhooks = deps.platforms.of(row.platform)?.webhooks;
      if (!webhooks) throw errors.notSupported(dashboardOnlyWebhooks(row.platform, deps.config) ?? `${row.platform} has no webhooks the service subscribes to`);
      const verifyToken = deps.platforms.metaWebhookVerifyToken;
      if (!verifyToken) throw errors.notSupported('META_WEBHOOK_VERIFY_TOKEN is not set, so the platform cannot verify our callback');
      const result = await callPlatform(deps, row, (credentials) => webhooks.subscribe(credentials, { url: metaCallbackUrl(deps.config), verifyToken }));
      return { subscribed: true, platform: row.platform, ...result };
    },
  );
}
