import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { accountHealth } from '../health.ts';

export const RefreshQuery = Type.Object({
  refresh: Type.Optional(Type.String({ enum: ['0', '1', 'true', 'false'], description: '1 checks with the platform now instead of using the 10-minute cache.' })),
});

export const wantsRefresh = (value: string | undefined) => value === '1' || value === 'true';

export function getAccountHealth(api: Api): void {
  api.get(
    '/accounts/:id/health',
    {
      schema: {
        operationId: 'getAccountHealth',
        tags: ['Accounts'],
        summary: 'Health of one account: token, scopes, missing permissions, recommendations',
        params: IdParams,
        querystring: RefreshQuery,
        response: { 200: Type.Object({ health: Type.Ref('AccountHealth') }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const row = await tenantOf(request).selectFrom('accounts').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Account');
      return { health: await accountHealth(request.server.deps, row, wantsRefresh(request.query.refresh)) };
    },
  );
}
