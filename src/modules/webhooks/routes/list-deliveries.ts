import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { DeliveryStatus } from '../schemas.ts';
import { listDeliveries as list } from '../service.ts';

export function listDeliveries(api: Api): void {
  api.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['Webhooks'],
        summary: "An endpoint's deliveries, newest first, with every attempt",
        params: IdParams,
        querystring: Type.Object({
          status: Type.Optional(DeliveryStatus),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'At most this many deliveries (50 when absent).' })),
        }),
        response: { 200: Type.Object({ deliveries: Type.Array(Type.Ref('WebhookDelivery')) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { status, limit } = request.query;
      const deliveries = await list(tenantOf(request), request.params.id, { ...(status ? { status: status as 'pending' } : {}), limit: limit ?? 50 });
      return { deliveries };
    },
  );
}
