import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { getAudience as get } from '../audiences.ts';
import { AccountIdField, IdParams } from '../schemas.ts';

export function getAudience(api: Api): void {
  api.get(
    '/ads/audiences/:id',
    {
      schema: {
        operationId: 'getAudience',
        tags: ['Ads'],
        summary: 'One custom audience, read live (approximate size, delivery status)',
        params: IdParams,
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField) }),
        response: { 200: Type.Object({ audience: Type.Ref('AdAudience') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ audience: await get(request.server.deps, tenantOf(request), request.params.id, request.query.accountId) }),
  );
}
