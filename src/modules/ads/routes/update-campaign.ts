import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { updateCampaign as update } from '../campaigns.ts';
import { AccountIdField, BudgetInput, Confirm, IdParams } from '../schemas.ts';

export const AdStatusInput = Type.Union([Type.Literal('ACTIVE'), Type.Literal('PAUSED'), Type.Literal('ARCHIVED')], { description: 'ACTIVE needs confirm: true.' });

export function updateCampaign(api: Api): void {
  api.patch(
    '/ads/campaigns/:id',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'updateCampaign',
        tags: ['Ads'],
        summary: 'Rename, pause, activate (confirm: true) or change the budget (confirm: true) of a campaign',
        params: IdParams,
        body: Type.Object({
          accountId: AccountIdField,
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
          status: Type.Optional(AdStatusInput),
          budgets: Type.Optional(BudgetInput),
          budget: Type.Optional(BudgetInput),
          confirm: Type.Optional(Confirm),
        }),
        response: { 200: Type.Object({ campaign: Type.Ref('AdCampaign') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ campaign: await update(request.server.deps, tenantOf(request), callerOf(request), request.params.id, request.body) }),
  );
}
