import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { accountHealth, type Health } from '../health.ts';
import { RefreshQuery, wantsRefresh } from './account-health.ts';

export function listAccountHealth(api: Api): void {
  api.get(
    '/accounts/health',
    {
      schema: {
        operationId: 'listAccountHealth',
        tags: ['Accounts'],
        summary: 'Health of every account of the organization',
        querystring: RefreshQuery,
        response: { 200: Type.Object({ accounts: Type.Array(Type.Ref('AccountHealth')) }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const rows = await tenantOf(request).selectFrom('accounts').selectAll().orderBy('id').execute();
      const refresh = wantsRefresh(request.query.refresh);
      const accounts: Health[] = [];
      // One at a time: a large organization's refresh=1 should not burst every platform at once.
      for (const row of rows) accounts.push(await accountHealth(request.server.deps, row, refresh));
      return { accounts };
    },
  );
}
