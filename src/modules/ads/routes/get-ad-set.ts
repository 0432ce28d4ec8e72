import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { getAdSet as get } from '../adsets.ts';
import { AccountIdField, IdParams } from '../schemas.ts';

export function getAdSet(api: Api): void {
  api.get(
    '/ads/adsets/:id',
    {
      schema: {
        operationId: 'getAdSet',
        tags: ['Ads'],
        summary: 'One ad set, read live',
        params: IdParams,
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField) }),
        response: { 200: Type.Object({ adSet: Type.Ref('AdSet') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ adSet: await get(request.server.deps, tenantOf(request), request.params.id, request.query.accountId) }),
  );
}
