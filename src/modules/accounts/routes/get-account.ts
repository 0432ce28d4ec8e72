import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentAccount } from '../schemas.ts';

export function getAccount(api: Api): void {
  api.get(
    '/accounts/:id',
    {
      schema: {
        operationId: 'getAccount',
        tags: ['Accounts'],
        summary: 'One connected account',
        params: IdParams,
        response: { 200: Type.Object({ account: Type.Ref('Account') }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await tenantOf(request).selectFrom('accounts').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Account');
      return { account: presentAccount(row) };
    },
  );
}
