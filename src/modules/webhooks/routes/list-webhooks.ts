import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentWebhook } from '../schemas.ts';
import { listWebhooks as list } from '../service.ts';

export function listWebhooks(api: Api): void {
  api.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags: ['Webhooks'],
        summary: 'Registered endpoints (secrets are never shown again)',
        response: { 200: Type.Object({ webhooks: Type.Array(Type.Ref('Webhook')) }), ...errorResponses() },
      },
    },
    async (request) => {
      const now = request.server.deps.clock.now();
      return { webhooks: (await list(tenantOf(request))).map((row) => presentWebhook(row, now)) };
    },
  );
}
