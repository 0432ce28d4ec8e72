import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentAccount } from '../schemas.ts';

export function updateAccount(api: Api): void {
  api.patch(
    '/accounts/:id',
    {
      schema: {
        operationId: 'updateAccount',
        tags: ['Accounts'],
        summary: "Set or clear the account's externalId",
        params: IdParams,
        body: Type.Object(
          {
            externalId: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
              description: "The client's own reference, up to 200 characters; null clears it.",
            }),
          },
        ),
        response: { 200: Type.Object({ account: Type.Ref('Account') }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const updated = await tenant
        .updateTable('accounts')
        .set({ external_id: request.body.externalId, updated_at: request.server.deps.clock.now() })
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) throw errors.notFound('Account');
      const row = await tenant.selectFrom('accounts').selectAll().where('id', '=', request.params.id).executeTakeFirstOrThrow();
      return { account: presentAccount(row) };
    },
  );
}
