import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listAudiences as list } from '../audiences.ts';
import { AccountIdField, AdAccountIdField, After, Limit, NextCursor } from '../schemas.ts';

export function listAudiences(api: Api): void {
  api.get(
    '/ads/audiences',
    {
      schema: {
        operationId: 'listAudiences',
        tags: ['Ads'],
        summary: "An ad account's custom audiences, read live",
        querystring: Type.Object({ accountId: Type.Optional(AccountIdField), adAccountId: Type.Optional(AdAccountIdField), limit: Type.Optional(Limit), after: Type.Optional(After) }),
        response: { 200: Type.Object({ audiences: Type.Array(Type.Ref('AdAudience')), after: NextCursor }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.query),
  );
}
