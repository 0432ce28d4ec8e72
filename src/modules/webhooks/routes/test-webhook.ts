import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { testWebhook as sendTest } from '../service.ts';

export function testWebhook(api: Api): void {
  api.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhook',
        tags: ['Webhooks'],
        summary: 'Queue a webhook.test event to this endpoint only',
        params: IdParams,
        response: { 202: Type.Object({ eventId: Type.String(), deliveryId: Type.String() }), ...errorResponses(404) },
      },
    },
    async (request, reply) => reply.code(202).send(await sendTest(tenantOf(request), request.server.deps, request.params.id)),
  );
}
