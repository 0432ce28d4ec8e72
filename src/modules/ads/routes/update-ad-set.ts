import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { updateAdSet as update } from '../adsets.ts';
import { AccountIdField, Confirm, IdParams, Money } from '../schemas.ts';
import { AdStatusInput } from './update-campaign.ts';

export function updateAdSet(api: Api): void {
  api.patch(
    '/ads/adsets/:id',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'updateAdSet',
        tags: ['Ads'],
        summary: 'Rename, pause, activate (confirm: true), change the budget (confirm: true) or the end of an ad set',
        params: IdParams,
        body: Type.Object({
          accountId: Type.Optional(AccountIdField),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
          status: Type.Optional(AdStatusInput),
          dailyBudget: Type.Optional(Money),
          lifetimeBudget: Type.Optional(Money),
          endTime: Type.Optional(Type.String({ format: 'date-time' })),
          confirm: Type.Optional(Confirm),
        }),
        response: { 200: Type.Object({ adSet: Type.Ref('AdSet') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ adSet: await update(request.server.deps, tenantOf(request), callerOf(request), request.params.id, request.body) }),
  );
}
