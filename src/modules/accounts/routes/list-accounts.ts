import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentAccount } from '../schemas.ts';

export function listAccounts(api: Api): void {
  api.get(
    '/accounts',
    {
      schema: {
        operationId: 'listAccounts',
        tags: ['Accounts'],
        summary: 'Connected accounts of the organization',
        querystring: Type.Object({
          externalId: Type.Optional(Type.String({ maxLength: 200, description: 'Only accounts with this client reference.' })),
        }),
        response: { 200: Type.Object({ accounts: Type.Array(Type.Ref('Account')) }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const rows = await tenantOf(request)
        .selectFrom('accounts')
        .selectAll()
        .$if(request.query.externalId !== undefined, (qb) => qb.where('external_id', '=', request.query.externalId ?? ''))
        .orderBy('id')
        .execute();
      return { accounts: rows.map(presentAccount) };
    },
  );
}

