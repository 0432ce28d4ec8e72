import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { createAdSet as create } from '../adsets.ts';
import { AccountIdField, AdAccountIdField, AdObjectId, Confirm, Money, TargetingSpec } from '../schemas.ts';

export function createAdSet(api: Api): void {
  api.post(
    '/ads/adsets',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'createAdSet',
        tags: ['Ads'],
        summary: 'Create an ad set in a campaign, PAUSED (confirm: true required)',
        body: Type.Object({
          accountId: AccountIdField,
          adAccountId: AdAccountIdField,
          campaignId: AdObjectId,
          name: Type.String({ minLength: 1, maxLength: 400 }),
          targeting: TargetingSpec,
          dailyBudget: Type.Optional(Money),
          lifetimeBudget: Type.Optional(Money),
          startTime: Type.Optional(Type.String({ format: 'date-time' })),
          endTime: Type.Optional(Type.String({ format: 'date-time', description: 'Required with lifetimeBudget.' })),
          optimizationGoal: Type.Optional(Type.String({ pattern: '^[A-Z_]{1,40}$', description: "Meta's optimization_goal; default from the campaign's objective." })),
          billingEvent: Type.Optional(Type.String({ pattern: '^[A-Z_]{1,40}$', description: 'Default IMPRESSIONS.' })),
          confirm: Type.Optional(Confirm),
        }),
        response: { 201: Type.Object({ adSet: Type.Ref('AdSet') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => reply.code(201).send({ adSet: await create(request.server.deps, tenantOf(request), callerOf(request), request.body) }),
  );
}
