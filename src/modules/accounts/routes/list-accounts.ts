import { Type } from 'typebox';
import { prepare } from '../../../db/prepared.ts';
import { tenantScope } from '../../../db/tenant.ts';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentAccount } from '../schemas.ts';

// The cheapest authenticated route, and so the one `npm run bench` weighs against the probe:
// both shapes of its query are compiled once (see db/prepared.ts).
const allAccounts = prepare((db, organizationId: string) => tenantScope(db, organizationId).selectFrom('accounts').selectAll().orderBy('id'));
const accountsByExternalId = prepare((db, organizationId: string, externalId: string) =>
  tenantScope(db, organizationId).selectFrom('accounts').selectAll().where('external_id', '=', externalId).orderBy('id'),
);

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
      const { db, organizationId } = tenantOf(request);
      const { externalId } = request.query;
      const { rows } = await (externalId === undefined
        ? allAccounts.execute(db, organizationId)
        : accountsByExternalId.execute(db, organizationId, externalId));
      return { accounts: rows.map(presentAccount) };
    },
  );
}

