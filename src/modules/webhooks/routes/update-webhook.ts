import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { SUBSCRIBABLE_EVENTS, type EventType } from '../../events/catalog.ts';
import { presentWebhook } from '../schemas.ts';
import { updateWebhook as update } from '../service.ts';
import { checkEndpointUrl } from '../url-check.ts';

export function updateWebhook(api: Api): void {
  api.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        tags: ['Webhooks'],
        summary: 'Change an endpoint in place (url, events, enabled); its secret and deliveries stay',
        description:
          'Beyond the contract. Attempts still to come go to the new url; a new events list applies to events emitted from now on. A disabled endpoint is sent nothing: its deliveries fail without an attempt ("endpoint disabled") and can be redelivered once it is enabled again.',
        params: IdParams,
        body: Type.Object({
          url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'A public https URL, checked as at registration.' })),
          events: Type.Optional(Type.Array(Type.String({ enum: SUBSCRIBABLE_EVENTS }), { minItems: 1, description: 'Replaces the list of events to receive.' })),
          enabled: Type.Optional(Type.Boolean({ description: 'False stops deliveries to it; true starts them again.' })),
        }),
        response: { 200: Type.Object({ webhook: Type.Ref('Webhook') }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { deps } = request.server;
      const { url, events, enabled } = request.body;
      if (url === undefined && events === undefined && enabled === undefined) throw errors.invalid('body', 'give url, events or enabled');
      const changes = {
        ...(url !== undefined ? { url: await checkEndpointUrl('url', url, deps.config.allowPrivateUrls) } : {}),
        ...(events !== undefined ? { events: events as EventType[] } : {}),
        ...(enabled !== undefined ? { enabled } : {}),
      };
      const row = await update(tenantOf(request), request.params.id, changes);
      if (!row) throw errors.notFound('Webhook');
      return { webhook: presentWebhook(row, deps.clock.now()) };
    },
  );
}
