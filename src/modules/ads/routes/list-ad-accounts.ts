import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listAdAccounts as list } from '../accounts.ts';
import { AccountIdField } from '../schemas.ts';

export function listAdAccounts(api: Api): void {
  api.get(
    '/ads/accounts',
    {
      schema: {
        operationId: 'listAdAccounts',
        tags: ['Ads'],
        summary: 'The ad accounts a connected facebook account can use (read from the Marketing API and recorded)',
        querystring: Type.Object({ accountId: AccountIdField }),
        response: { 200: Type.Object({ adAccounts: Type.Array(Type.Ref('AdAccount')) }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.query.accountId),
  );
}
