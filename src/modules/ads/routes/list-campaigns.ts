import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listCampaigns as list } from '../campaigns.ts';
import { AccountIdField, AdAccountIdField, After, Limit, NextCursor } from '../schemas.ts';

export function listCampaigns(api: Api): void {
  api.get(
    '/ads/campaigns',
    {
      schema: {
        operationId: 'listCampaigns',
        tags: ['Ads'],
        summary: "An ad account's campaigns, read live",
        querystring: Type.Object({
          accountId: Type.Optional(AccountIdField),
          adAccountId: Type.Optional(AdAccountIdField),
          statuses: Type.Optional(Type.String({ maxLength: 500, description: 'Comma list of effective statuses (ACTIVE, PAUSED …); default: all but deleted and archived.' })),
          limit: Type.Optional(Limit),
          after: Type.Optional(After),
        }),
        response: { 200: Type.Object({ campaigns: Type.Array(Type.Ref('AdCampaign')), after: NextCursor }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.query),
  );
}
