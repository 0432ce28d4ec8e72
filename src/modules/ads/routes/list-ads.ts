import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listAds as list } from '../ads.ts';
import { AccountIdField, AdAccountIdField, AdObjectId, After, Limit, NextCursor } from '../schemas.ts';

export function listAds(api: Api): void {
  api.get(
    '/ads/ads',
    {
      schema: {
        operationId: 'listAds',
        tags: ['Ads'],
        summary: "An ad set's (parentId) or an ad account's ads, read live",
        querystring: Type.Object({
          accountId: Type.Optional(AccountIdField),
          adAccountId: Type.Optional(AdAccountIdField),
          parentId: Type.Optional({ ...AdObjectId, description: 'An ad set.' }),
          statuses: Type.Optional(Type.String({ maxLength: 500, description: 'Comma list of effective statuses.' })),
          limit: Type.Optional(Limit),
          after: Type.Optional(After),
        }),
        response: { 200: Type.Object({ ads: Type.Array(Type.Ref('Ad')), after: NextCursor }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.query),
  );
}
