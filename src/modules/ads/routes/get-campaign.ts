import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { getCampaign as get } from '../campaigns.ts';
import { AccountIdField, IdParams } from '../schemas.ts';

export function getCampaign(api: Api): void {
  api.get(
    '/ads/campaigns/:id',
    {
      schema: {
        operationId: 'getCampaign',
        tags: ['Ads'],
        summary: 'One campaign, read live',
        params: IdParams,
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField) }),
        response: { 200: Type.Object({ campaign: Type.Ref('AdCampaign') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ campaign: await get(request.server.deps, tenantOf(request), request.params.id, request.query.accountId) }),
  );
}
