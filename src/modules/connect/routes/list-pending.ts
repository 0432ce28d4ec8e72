import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentPending } from '../pending.ts';

export function listPending(api: Api): void {
  api.get(
    '/connect/pending',
    {
      schema: {
        operationId: 'listPendingConnections',
        tags: ['Accounts'],
        summary: 'Unexpired pending connections, newest first',
        response: { 200: Type.Object({ pending: Type.Array(Type.Ref('PendingConnection')) }), ...errorResponses() },
      },
    },
    async (request) => {
      const rows = await tenantOf(request)
        .selectFrom('pending_connections')
        .selectAll()
        .where('completed_at', 'is', null)
        .where('expires_at', '>', request.server.deps.clock.now())
        .orderBy('id', 'desc')
        .limit(100)
        .execute();
      return { pending: rows.map(presentPending) };
    },
  );
}
