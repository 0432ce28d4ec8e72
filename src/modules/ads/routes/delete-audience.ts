import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { deleteAudience as remove } from '../audiences.ts';
import { AccountIdField, IdParams } from '../schemas.ts';

export function deleteAudience(api: Api): void {
  api.delete(
    '/ads/audiences/:id',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'deleteAudience',
        tags: ['Ads'],
        summary: 'Delete a custom audience on the platform',
        params: IdParams,
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField) }),
        response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      await remove(request.server.deps, tenantOf(request), callerOf(request), request.params.id, request.query.accountId);
      return { deleted: true as const };
    },
  );
}
