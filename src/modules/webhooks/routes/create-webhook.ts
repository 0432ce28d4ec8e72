import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { SUBSCRIBABLE_EVENTS, type EventType } from '../../events/catalog.ts';
import { presentWebhook } from '../schemas.ts';
import { createWebhook as create } from '../service.ts';
import { checkEndpointUrl } from '../url-check.ts';

export function createWebhook(api: Api): void {
  api.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags: ['Webhooks'],
        summary: 'Register an endpoint; the signing secret is returned this once',
        body: Type.Object({
          url: Type.String({ minLength: 1, maxLength: 2000, description: 'A public https URL.' }),
          events: Type.Optional(
            Type.Array(Type.String({ enum: SUBSCRIBABLE_EVENTS }), {
              minItems: 1,
              description: 'Events to receive; default post.published, post.failed, post.pending_approval.',
            }),
          ),
        }),
        response: {
          201: Type.Object({
            webhook: Type.Intersect([Type.Ref('Webhook'), Type.Object({ secret: Type.String({ description: 'The signing secret, shown only now.' }) })]),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const { deps } = request.server;
      const url = await checkEndpointUrl('url', request.body.url, deps.config.allowPrivateUrls);
      const { row, secret } = await create(tenantOf(request), deps, { url, events: request.body.events as EventType[] | undefined });
      return reply.code(201).send({ webhook: { ...presentWebhook(row, deps.clock.now()), secret } });
    },
  );
}
