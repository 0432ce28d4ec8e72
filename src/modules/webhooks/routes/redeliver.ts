import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { redeliver as again } from '../service.ts';

export function redeliverWebhook(api: Api): void {
  api.post(
    '/webhooks/deliveries/:deliveryId/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhook',
        tags: ['Webhooks'],
        summary: 'Send a delivery again with the same X-Idempotency-Key (a fresh attempt cycle)',
        params: Type.Object({ deliveryId: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 202: Type.Object({ delivery: Type.Ref('WebhookDelivery') }), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send({ delivery: await again(tenantOf(request), request.server.deps, request.params.deliveryId) }),
  );
}
