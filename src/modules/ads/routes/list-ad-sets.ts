import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listAdSets as list } from '../adsets.ts';
import { AccountIdField, AdAccountIdField, AdObjectId, After, Limit, NextCursor } from '../schemas.ts';

export function listAdSets(api: Api): void {
  api.get(
    '/ads/adsets',
    {
      schema: {
        operationId: 'listAdSets',
        tags: ['Ads'],
        summary: "A campaign's (parentId) or an ad account's ad sets, read live",
        querystring: Type.Object({
          accountId: Type.Optional(AccountIdField),
          adAccountId: Type.Optional(AdAccountIdField),
          parentId: Type.Optional({ ...AdObjectId, description: 'A campaign.' }),
          statuses: Type.Optional(Type.String({ maxLength: 500, description: 'Comma list of effective statuses.' })),
          limit: Type.Optional(Limit),
          after: Type.Optional(After),
        }),
        response: { 200: Type.Object({ adSets: Type.Array(Type.Ref('AdSet')), after: NextCursor }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.query),
  );
}
