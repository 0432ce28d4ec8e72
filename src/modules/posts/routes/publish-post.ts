import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { publishPost as publish } from '../lifecycle.ts';

export function publishPost(api: Api): void {
  api.post(
    '/posts/:id/publish',
    {
      schema: {
        operationId: 'publishPost',
        tags: ['Posts'],
        summary: 'Publish now (draft, scheduled, failed or partial); failed targets are retried',
        params: IdParams,
        response: {
          200: Type.Object({ status: Type.Literal('queued') }, { description: 'Queued for delivery.' }),
          202: Type.Object({ status: Type.Literal('pending_approval') }, { description: 'Held for approval.' }),
          ...errorResponses(400, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const status = await publish(request.server.deps, tenantOf(request), callerOf(request), request.params.id);
      return status === 'queued' ? reply.code(200).send({ status }) : reply.code(202).send({ status });
    },
  );
}
