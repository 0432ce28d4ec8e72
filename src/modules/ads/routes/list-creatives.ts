import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listCreatives as list } from '../creatives.ts';
import { AccountIdField, AdAccountIdField, After, Limit, NextCursor } from '../schemas.ts';

export function listCreatives(api: Api): void {
  api.get(
    '/ads/creatives',
    {
      schema: {
        operationId: 'listCreatives',
        tags: ['Ads'],
        summary: "An ad account's creatives, read live (the organization's only ad account when adAccountId is absent)",
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField), adAccountId: Type.Optional(AdAccountIdField), limit: Type.Optional(Limit), after: Type.Optional(After) }),
        response: { 200: Type.Object({ creatives: Type.Array(Type.Ref('AdCreative')), after: NextCursor }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.query),
  );
}
