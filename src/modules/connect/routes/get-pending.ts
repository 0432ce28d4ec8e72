import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { assertOpen, presentPending } from '../pending.ts';

export function getPending(api: Api): void {
  api.get(
    '/connect/pending/:id',
    {
      schema: {
        operationId: 'getPendingConnection',
        tags: ['Accounts'],
        summary: 'The options of a pending connection',
        params: IdParams,
        response: { 200: Type.Object({ pending: Type.Ref('PendingConnection') }), ...errorResponses(404, 410) },
      },
    },
    async (request) => {
      const row = await tenantOf(request).selectFrom('pending_connections').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Pending connection');
      assertOpen(row, request.server.deps.clock.now());
      return { pending: presentPending(row) };
    },
  );
}
