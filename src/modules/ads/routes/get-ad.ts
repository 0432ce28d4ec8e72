import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { getAd as get } from '../ads.ts';
import { AccountIdField, IdParams } from '../schemas.ts';

export function getAd(api: Api): void {
  api.get(
    '/ads/ads/:id',
    {
      schema: {
        operationId: 'getAd',
        tags: ['Ads'],
        summary: 'One ad, read live',
        params: IdParams,
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField) }),
        response: { 200: Type.Object({ ad: Type.Ref('Ad') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ ad: await get(request.server.deps, tenantOf(request), request.params.id, request.query.accountId) }),
  );
}
