import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { apiError, errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { PlatformError, toApiError } from '../../../platforms/errors.ts';
import { presentAccount } from '../../accounts/schemas.ts';
import { assertOpen, optionsOf, pendingToken } from '../pending.ts';
import { adapterFor, storeAccounts } from '../service.ts';

export function selectPending(api: Api): void {
  api.post(
    '/connect/pending/:id/select',
    {
      schema: {
        operationId: 'selectPendingConnection',
        tags: ['Accounts'],
        summary: 'Connect one account per chosen option',
        params: IdParams,
        body: Type.Object({ optionIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true }) }),
        response: { 200: Type.Object({ accounts: Type.Array(Type.Ref('Account')) }), ...errorResponses(400, 404, 410, 403, 409, 502) },
      },
    },
    async (request) => {
      const { deps } = request.server;
      const tenant = tenantOf(request);
      const row = await tenant.selectFrom('pending_connections').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Pending connection');
      assertOpen(row, deps.clock.now());
      const known = new Set(optionsOf(row).map((o) => o.id));
      const { optionIds } = request.body;
      const unknown = optionIds.findIndex((id) => !known.has(id));
      if (unknown >= 0) throw errors.invalid(`optionIds[${unknown}]`, 'not an option of this pending connection');

      // Claim it first: of two selects racing, one connects and the other gets 410.
      const claimed = await tenant
        .updateTable('pending_connections')
        .set({ completed_at: deps.clock.now() })
        .where('id', '=', row.id)
        .where('completed_at', 'is', null)
        .where('expires_at', '>', deps.clock.now())
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n) throw apiError('pending_expired', 'This pending connection was already completed');
      try {
        const adapter = adapterFor(deps, row.platform);
        if (!adapter.choices) throw new PlatformError('not_supported', `${row.platform} has no choices to resolve`, { platform: row.platform });
        const token = pendingToken(deps.sealer.open(row.user_token_enc));
        const accounts = await adapter.choices.resolve({ userToken: token.accessToken, token, optionIds, now: deps.clock.now() });
        const rows = await storeAccounts(deps, { organizationId: row.organization_id, platform: row.platform, flavour: row.flavour, externalId: row.external_id, redirectUrl: row.redirect_url }, accounts);
        return { accounts: rows.map(presentAccount) };
      } catch (error) {
        // Nothing was connected: the person may try again while the pending connection lasts.
        await tenant.updateTable('pending_connections').set({ completed_at: null }).where('id', '=', row.id).execute();
        if (error instanceof PlatformError) throw toApiError(error);
        throw error;
      }
    },
  );
}
