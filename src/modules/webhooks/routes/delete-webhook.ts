import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { deleteWebhook as remove } from '../service.ts';

export function deleteWebhook(api: Api): void {
  api.delete(
    '/webhooks',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags: ['Webhooks'],
        summary: 'Delete an endpoint and its deliveries',
        querystring: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The webhook id.' }) }),
        response: { 200: Type.Object({ deleted: Type.Boolean() }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      if (!(await remove(tenantOf(request), request.query.id))) throw errors.notFound('Webhook');
      return { deleted: true };
    },
  );
}
