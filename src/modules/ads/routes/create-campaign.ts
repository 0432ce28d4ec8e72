import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { createCampaign as create, GOALS, OBJECTIVES, SPECIAL_AD_CATEGORIES } from '../campaigns.ts';
import { AccountIdField, AdAccountIdField, BudgetInput, Confirm } from '../schemas.ts';

export function createCampaign(api: Api): void {
  api.post(
    '/ads/campaigns',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'createCampaign',
        tags: ['Ads'],
        summary: 'Create a campaign, PAUSED (confirm: true required)',
        body: Type.Object({
          accountId: AccountIdField,
          adAccountId: AdAccountIdField,
          name: Type.String({ minLength: 1, maxLength: 400 }),
          objective: Type.Optional(Type.String({ enum: OBJECTIVES, description: "Meta's objective; or goal." })),
          goal: Type.Optional(Type.String({ enum: GOALS, description: 'The objective by its plain name (traffic = OUTCOME_TRAFFIC …).' })),
          budget: Type.Optional(BudgetInput),
          specialAdCategories: Type.Optional(Type.Array(Type.String({ enum: SPECIAL_AD_CATEGORIES }), { maxItems: 6, description: 'Declared special ad categories (none when absent).' })),
          confirm: Type.Optional(Confirm),
        }),
        response: { 201: Type.Object({ campaign: Type.Ref('AdCampaign') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => reply.code(201).send({ campaign: await create(request.server.deps, tenantOf(request), callerOf(request), request.body) }),
  );
}
